"""Dice drawn in Python (tables/templatetags/dice_html.py): every pushed roll draws them once per
audience, and a template loop with an include per die cost more than the rest of its card."""

from django import template

from tables.templatetags import dice_html as dice

register = template.Library()


@register.simple_tag
def d6_dice(marks, label=""):
    """A Momenta roll's dice (templatetags.momenta.dice_marks), named by `label`."""
    return dice.d6_dice(marks, label)


@register.simple_tag
def d20_dice(result):
    """A 2d20 test's dice, own then assistance, from its stored result."""
    return dice.d20_dice(result)

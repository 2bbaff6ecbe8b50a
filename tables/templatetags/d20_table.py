"""Context for the 2d20 composer and the GM panel when they are drawn inside the
table page, whose view (views_table.table) knows nothing of them.

    {% load d20_table %}{% d20_play_context as d20 %}   → views_d20.play_context
    {% gm_panel_context as gmp %}                       → views_gm.gm_panel_context

A view that renders the fragment itself passes `d20` / `gmp` and the tag
hands that back unchanged.
"""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def d20_play_context(context):
    if context.get("d20") is not None:
        return context["d20"]
    from tables.views_d20 import play_context

    return play_context(context["campaign"], context["membership"])


@register.simple_tag(takes_context=True)
def gm_panel_context(context):
    if context.get("gmp") is not None:
        return context["gmp"]
    from tables.views_gm import gm_panel_context as build

    return build(context["campaign"], context["membership"])


@register.filter
def signed(value):
    """+2 / -1 / 0."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{value}" if value > 0 else str(value)

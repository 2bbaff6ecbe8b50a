"""`{% pool_name campaign c.pool c.pool_label %}`: a pool's name at this campaign's table
(tables/words/wording.py, GL-01)."""

from __future__ import annotations

from django import template

from tables.presenters import game_lines
from tables.words import wording

register = template.Library()


@register.simple_tag
def pool_name(campaign, pool: str, label: str) -> str:
    return wording.pool_name(campaign, pool, label)


@register.simple_tag(takes_context=True)
def challenge_dice_context(context):
    """The Challenge dice form's context (GL-04), unless the view passed it as `ch`."""
    if context.get("ch") is not None:
        return context["ch"]
    return game_lines.challenge_context(context["campaign"], context["membership"])


@register.simple_tag(takes_context=True)
def narrative_spends_context(context):
    """The narrative spends' context (GL-02), unless the view passed it as `ns`."""
    if context.get("ns") is not None:
        return context["ns"]
    return game_lines.narrative_context(context["campaign"], context["membership"])

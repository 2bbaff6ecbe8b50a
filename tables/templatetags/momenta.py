"""Momenta fragments drawn on the table page for the viewer: the composer, and in
the GM panel the Assist queue and the GM's Momenta tools; and the filters that
word a roll card's stored data.

Each tag renders its partial with the context builder the views use too, so a
first render and an htmx answer are the same code.
"""

from django import template
from django.template.loader import render_to_string

from tables.presenters.momenta_card import applied_card, roll_card

register = template.Library()


@register.filter
def momenta_card(payload):
    """A roll card's stored data with its words (presenters.momenta_card.roll_card)."""
    return roll_card(payload)


@register.filter
def momenta_applied(applied):
    """A stored allocation with its patterns in words (presenters.momenta_card)."""
    return applied_card(applied)


def _viewer(context):
    """The page's campaign and membership (gm_panel.html keeps them in `gmp`)."""
    gmp = context.get("gmp")
    if isinstance(gmp, dict) and gmp.get("campaign") is not None:
        return gmp.get("campaign"), gmp.get("membership")
    return context.get("campaign"), context.get("membership")


def _render(context, name: str, build, *, gm_only: bool = False) -> str:
    campaign, membership = _viewer(context)
    if campaign is None or membership is None or (gm_only and not membership.is_gm):
        return ""
    return render_to_string(
        f"tables/partials/{name}", build(campaign, membership), request=context.get("request")
    )


@register.simple_tag(takes_context=True)
def momenta_composer(context) -> str:
    """tables/partials/composer_momenta.html for the viewer (composer_context)."""
    from tables.presenters.momenta import composer_context

    return _render(context, "composer_momenta.html", composer_context)


@register.simple_tag(takes_context=True)
def momenta_assist_queue(context) -> str:
    """tables/partials/assist_queue.html: open Assists and the GM's answers."""
    from tables.presenters.momenta import assist_queue_context

    return _render(context, "assist_queue.html", assist_queue_context, gm_only=True)


@register.simple_tag(takes_context=True)
def momenta_gm_tools(context) -> str:
    """tables/partials/gm_momenta_tools.html: roll templates and custom patterns."""
    from tables.presenters.momenta import gm_tools_context

    return _render(context, "gm_momenta_tools.html", gm_tools_context, gm_only=True)

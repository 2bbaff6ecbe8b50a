"""Momenta fragments drawn on the table page for the viewer: the composer, and in
the GM panel the Assist queue and the GM's Momenta tools; and the wording of a roll
card (D6, PAT, PM, RS-01) from the data a roll stores.

Each tag renders its partial with the context builder the views use too, so a
first render and an htmx answer are the same code.

services/momenta/cards.py makes each roll's card (the event payload, and
MomentaRoll.card) as numbers, names and the rules' own texts. The `momenta_card`
and `momenta_applied` filters word it here, for momenta_roll_card.html and the
pattern lines (momenta_roll_state.html, events/momenta_patterns.html): a pushed
roll draws its card without climbing back into a presenter. Cards stored before
that held their words (`pool_parts`, `momentum_notes`, `opposition`, sources and
patterns as labels): the log replays them as they were.
"""

from __future__ import annotations

from functools import partial

from django import template
from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_lazy

from rules.personal import AdvantageSource
from tables.templatetags.dice_html import d6_pips, face_sets
from tables.words.wording import band_words, pattern_words, successes

register = template.Library()


@register.filter
def momenta_card(payload):
    """A roll card's stored data with its words (roll_card)."""
    return roll_card(payload)


@register.filter
def momenta_applied(applied):
    """A stored allocation with its patterns in words (applied_card)."""
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
    drawn = {**build(campaign, membership), "rule_marks": context.get("rule_marks", False)}
    return render_to_string(f"tables/partials/{name}", drawn, request=context.get("request"))


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
    """tables/partials/gm_momenta_tools.html: roll templates and custom patterns, their
    forms fetched when their tab opens (gm_tools_context's `forms_later`)."""
    from tables.presenters.momenta import gm_tools_context

    build = partial(gm_tools_context, forms_later=True)
    return _render(context, "gm_momenta_tools.html", build, gm_only=True)


# --- A roll card in words ---------------------------------------------------------------

ROLL_KIND_LABELS = {
    "action": gettext_lazy("action roll"),
    "attack": "attack",
    "luck": gettext_lazy("luck roll"),
}
SOURCE_LABELS = {
    AdvantageSource.CHARACTERISTIC.value: gettext_lazy("a characteristic"),
    AdvantageSource.BOON.value: gettext_lazy("a Boon"),
    AdvantageSource.SITUATIONAL.value: gettext_lazy("a GM-called edge"),
}


def roll_card(payload: dict | None) -> dict | None:
    """The stored card with its words: `kind_label`, `pool_parts`, `momentum_notes`,
    `opposition`, the Advantage sources and the triggered patterns as labels, and the
    dice as they count (`dice`, `opposition_dice`)."""
    if not payload:
        return payload
    card = dict(payload)
    kind = payload.get("kind")
    card["kind_label"] = ROLL_KIND_LABELS.get(kind, payload.get("kind_label") or kind)
    if "pool_parts" not in payload:  # stored as data, not words
        card["pool_parts"] = pool_parts(payload)
        card["momentum_notes"] = momentum_notes(payload)
        card["opposition"] = opposition(payload)
    # Old cards stored the labels themselves: a label is its own label.
    card["advantage_sources"] = [
        SOURCE_LABELS.get(s, s) for s in payload.get("advantage_sources") or []
    ]
    source = payload.get("advantage_source")
    card["advantage_source"] = SOURCE_LABELS.get(source, source) if source else None
    card["applied"] = applied_card(payload.get("applied"))
    if "outcome" in payload:
        card["outcome"] = band_words(payload["outcome"])
    card["dice"] = dice_marks(payload.get("faces") or [], bool(payload.get("zero_dice")))
    opposition_pool = payload.get("opposition_pool")
    card["opposition_dice"] = dice_marks(
        payload.get("opposition_faces") or [],
        opposition_pool is not None and opposition_pool <= 0,
        patterns=False,  # the opposition's sets trigger nothing: patterns are the roller's
    )
    return card


def dice_marks(faces, zero_dice: bool, patterns: bool = True) -> list[dict]:
    """Each die as it counts: a success (5 or 6, D6-01), none, or discarded: a zero-dice
    roll keeps only the lowest of its two dice (D6-07), so a 6 beside a 2 is no success.
    `set` names the Double/Triple/Quad a die can join (PAT-01), never on a zero-dice
    roll (PAT-05); `pips` is where the drawing puts its pips."""
    kept_at = faces.index(min(faces)) if zero_dice and faces else None
    sets = face_sets(faces) if patterns and not zero_dice else {}
    marks = []
    for i, face in enumerate(faces):
        dropped = kept_at is not None and i != kept_at
        marks.append(
            {
                "face": face,
                "hit": face >= 5 and not dropped,
                "dropped": dropped,
                "set": sets.get(face, ""),
                "pips": d6_pips(face),
            }
        )
    return marks


def applied_card(applied: dict | None) -> dict | None:
    """The allocation's effects with each triggered pattern as `Double 5 (Solid Hit)`."""
    if not applied:
        return applied
    worded = dict(applied, triggered=[_pattern_words(t) for t in applied.get("triggered") or []])
    if "outcome" in applied:
        worded["outcome"] = band_words(applied["outcome"])
    return worded


def _pattern_words(triggered) -> str:
    if isinstance(triggered, str):  # an old card: already in words
        return triggered
    return pattern_words(triggered["kind"], triggered["face"], triggered["name"])


def pool_parts(p: dict) -> list[str]:
    """Where the pool's dice come from (D6-06, D6-08, PM-R1)."""
    parts = [f"{p.get('attribute')} {p.get('attribute_dice')}d"]
    parts += [(gettext("%(m)+dd modifier") % {"m": m}) for m in p.get("modifiers") or ()]
    if p.get("thread"):
        parts.append(gettext("+2d Thread: %(thread)s") % {"thread": p["thread"]})
    if p.get("advantage"):
        parts.append(gettext("+%(p)sd Advantage") % {"p": p.get("advantage_dice")})
    if p.get("disadvantage"):
        parts.append(gettext("-%(p)sd Disadvantage") % {"p": p.get("advantage_dice")})
    return parts


def momentum_notes(p: dict) -> list[str]:
    """Who paid for Advantage, who gains, and why nothing moved (PM-02, PM-05..PM-12)."""
    notes = []
    helper = p.get("helper")
    if p.get("cancelled"):
        notes.append(
            gettext("Advantage and Disadvantage cancel: nothing spent, nothing gained (PM-11).")
        )
    elif p.get("creation") and (p.get("advantage") or p.get("disadvantage")):
        notes.append(
            gettext("Character creation: Advantage and Disadvantage apply directly (PM-12).")
        )
    if p.get("assisted"):
        notes.append(
            gettext("Advantage from %(helper)s's Assist, paid by %(p)s.")
            % {"helper": helper, "p": p.get("paid_by")}
        )
    elif p.get("paid"):
        source = SOURCE_LABELS.get(p.get("advantage_source") or "", "")
        notes.append(
            gettext("Advantage from %(source)s, %(paid)s Momentum paid by %(p)s.")
            % {"source": source, "paid": p["paid"], "p": p.get("paid_by")}
        )
    if p.get("assist_failed"):
        notes.append(
            gettext(
                "%(helper)s's help did not land (the GM's test failed): no Momentum spent (PM-10)."
            )
            % {"helper": helper}
        )
    if p.get("assist_landed") and not p.get("assisted") and p.get("paid"):
        notes.append(
            gettext(
                "%(helper)s helped; the Advantage was the roller's own: %(helper)s paid nothing."
            )
            % {"helper": helper}
        )
    if p.get("assist_uses_action"):
        notes.append(
            gettext("The Assist is %(helper)s's action this round (PM-09).") % {"helper": helper}
        )
    if p.get("advantage_refused"):
        notes.append(p["advantage_refused"])
    if p.get("gain_after_roll"):
        notes.append(gettext("Rolled with Disadvantage: +1 Momentum after the roll (PM-02)."))
    return notes


def opposition(p: dict) -> str | None:
    """What the roll was opposed by (D6-10), or None."""
    if p.get("opposition_pool") is not None:
        return gettext("Opposed by a %(opposition_pool)sd pool") % {
            "opposition_pool": p["opposition_pool"]
        }
    if p.get("opposition_given") is not None:
        return gettext("Opposed by %(successes)s") % {"successes": successes(p["opposition_given"])}
    return None

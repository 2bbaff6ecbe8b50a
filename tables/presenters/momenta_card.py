"""A Momenta roll card in words (D6, PAT, PM, RS-01), from the data a roll stores.

services/momenta/cards.py makes each roll's card (the event payload, and
MomentaRoll.card) as numbers, names and the rules' own texts. This module words
it for templates/tables/partials/momenta_roll_card.html and the pattern lines
(momenta_roll_state.html, events/momenta_patterns.html), through the
`momenta_card` and `momenta_applied` filters of templatetags/momenta.py.

Cards stored before that held their words (`pool_parts`, `momentum_notes`,
`opposition`, sources and patterns as labels): the log replays them as they were.
"""

from __future__ import annotations

from rules.patterns import pattern_label
from rules.personal import AdvantageSource
from tables.presenters.dice import d6_pips, face_sets
from tables.wording import successes

ROLL_KIND_LABELS = {"action": "action roll", "attack": "attack", "luck": "luck roll"}
SOURCE_LABELS = {
    AdvantageSource.CHARACTERISTIC.value: "a characteristic",
    AdvantageSource.BOON.value: "a Boon",
    AdvantageSource.SITUATIONAL.value: "a GM-called edge",
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
    return dict(applied, triggered=[_pattern_words(t) for t in applied.get("triggered") or []])


def _pattern_words(triggered) -> str:
    if isinstance(triggered, str):  # an old card: already in words
        return triggered
    return f"{pattern_label(triggered['kind'], triggered['face'])} ({triggered['name']})"


def pool_parts(p: dict) -> list[str]:
    """Where the pool's dice come from (D6-06, D6-08, PM-R1)."""
    parts = [f"{p.get('attribute')} {p.get('attribute_dice')}d"]
    parts += [f"{m:+d}d modifier" for m in p.get("modifiers") or ()]
    if p.get("thread"):
        parts.append(f"+2d Thread: {p['thread']}")
    if p.get("advantage"):
        parts.append(f"+{p.get('advantage_dice')}d Advantage")
    if p.get("disadvantage"):
        parts.append(f"-{p.get('advantage_dice')}d Disadvantage")
    return parts


def momentum_notes(p: dict) -> list[str]:
    """Who paid for Advantage, who gains, and why nothing moved (PM-02, PM-05..PM-12)."""
    notes = []
    helper = p.get("helper")
    if p.get("cancelled"):
        notes.append("Advantage and Disadvantage cancel: nothing spent, nothing gained (PM-11).")
    elif p.get("creation") and (p.get("advantage") or p.get("disadvantage")):
        notes.append("Character creation: Advantage and Disadvantage apply directly (PM-12).")
    if p.get("assisted"):
        notes.append(f"Advantage from {helper}'s Assist, paid by {p.get('paid_by')}.")
    elif p.get("paid"):
        source = SOURCE_LABELS.get(p.get("advantage_source") or "", "")
        notes.append(f"Advantage from {source}, {p['paid']} Momentum paid by {p.get('paid_by')}.")
    if p.get("assist_failed"):
        notes.append(
            f"{helper}'s help did not land (the GM's test failed): no Momentum spent (PM-10)."
        )
    if p.get("assist_landed") and not p.get("assisted") and p.get("paid"):
        notes.append(f"{helper} helped; the Advantage was the roller's own: {helper} paid nothing.")
    if p.get("assist_uses_action"):
        notes.append(f"The Assist is {helper}'s action this round (PM-09).")
    if p.get("advantage_refused"):
        notes.append(p["advantage_refused"])
    if p.get("gain_after_roll"):
        notes.append("Rolled with Disadvantage: +1 Momentum after the roll (PM-02).")
    return notes


def opposition(p: dict) -> str | None:
    """What the roll was opposed by (D6-10), or None."""
    if p.get("opposition_pool") is not None:
        return f"Opposed by a {p['opposition_pool']}d pool"
    if p.get("opposition_given") is not None:
        return f"Opposed by {successes(p['opposition_given'])}"
    return None

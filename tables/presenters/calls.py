"""What the called-tests panel and a composer answering a call show, for one viewer.

Read-only. A hidden Difficulty (or opposition) is shown to GMs only: a player's panel
and composer are drawn from `terms(call, reveal=False)` and never get the number.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.forms.calls import CallForm, call_form
from tables.models import CalledTest, Campaign, Character, Membership
from tables.policy.access import can_control, controllable, has_role
from tables.policy.calls import open_calls, terms


@dataclass(frozen=True)
class CallView:
    """One open call as this viewer may read it."""

    pk: int
    who: str
    terms: str
    note: str
    hidden: bool
    for_everyone: bool
    character_id: int | None
    can_answer: bool
    # What the composer may hold: the GM's Difficulty if the viewer may know it, else None.
    difficulty: int | None
    system: str
    kind: str


def call_view(call: CalledTest, membership: Membership, characters=()) -> CallView:
    """`characters`: those the viewer controls (who may answer)."""
    reveal = membership.is_gm
    mine = {c.pk for c in characters}
    answerable = call.character_id is None or call.character_id in mine
    if membership.is_gm and call.character_id is not None:
        answerable = call.character.is_npc  # a player answers for their own character
    shown = None if (call.hidden and not reveal) else call.difficulty
    return CallView(
        pk=call.pk,
        who=call.character.name if call.character_id else "anyone",
        terms=terms(call, reveal=reveal),
        note=call.note,
        hidden=call.hidden,
        for_everyone=call.character_id is None,
        character_id=call.character_id,
        can_answer=answerable and has_role(membership, "player"),
        difficulty=shown,
        system=call.system,
        kind=call.kind,
    )


def panel_context(
    campaign: Campaign,
    membership: Membership,
    *,
    form: CallForm | None = None,
    error: str = "",
    notice: str = "",
) -> dict:
    """call_panel.html: GMs see every open call and the form; players the calls on them."""
    is_gm = membership.is_gm
    mine = controllable(campaign, membership) if has_role(membership, "player") else []
    calls = list(open_calls(campaign))
    if not is_gm:
        calls = [
            c for c in calls if c.character_id is None or c.character_id in {m.pk for m in mine}
        ]
    views = [call_view(c, membership, mine) for c in calls]
    # The newest call a player may answer fills their composer as it arrives.
    prefill = next((v for v in views if v.can_answer), None) if not is_gm else None
    return {
        "campaign": campaign,
        "is_gm": is_gm,
        "calls": views,
        "prefill": prefill,
        "composer_target": "#composer" if campaign.uses_d6 else "#d20-play",
        "form": form if form is not None else call_form(campaign, membership),
        "error": error,
        "notice": notice,
    }


def answering_character(
    call: CalledTest, membership: Membership, characters: list[Character]
) -> Character | None:
    """The character a composer answering `call` shows: the called one, else the viewer's
    first that may answer (for everyone: a player's own PC first)."""
    if call.character_id is not None:
        found = next((c for c in characters if c.pk == call.character_id), None)
        return found if found is not None and can_control(membership, found) else None
    pcs = [c for c in characters if not c.is_npc]
    return (pcs or characters or [None])[0]

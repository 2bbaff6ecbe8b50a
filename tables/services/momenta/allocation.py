"""The roller's choice of patterns for a roll awaiting it (PAT-02..PAT-09, PAT-R1, RS-01)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.d6 import AppliedRoll, IllegalRefund, RollResult, apply_allocation
from rules.patterns import IllegalAllocation
from rules.sentences import english
from tables import events
from tables.models import Campaign, Character, MomentaRoll, TableEvent
from tables.policy.access import audience_of, require_control
from tables.policy.roll_plans import result_of
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    change_pool,
    character_in,
    lock_campaign,
    require_playing,
)
from tables.services.momenta.cards import applied_data
from tables.services.momenta.common import visible_roll
from tables.words.said import said, words


def choose_allocation(
    campaign_id: int,
    actor,
    roll_id: int,
    allocation: Sequence[Sequence] | None,
    refund_to: Sequence[int] | None = None,
) -> TableEvent:
    """The roller allocates dice to patterns and their effects apply (PAT-02..PAT-09,
    PAT-R1, RS-01).

    `allocation` is a list of (pattern name, face), [] for none, None for the
    pre-selected best (PAT-09). Effortless gives spent Resolve back (PAT-08):
    `refund_to` names whose, one character id per point (default: in the order
    it was spent).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        roll = visible_roll(campaign, membership, roll_id)
        require_control(
            membership, roll.character, gettext("Only the roller chooses the patterns.")
        )
        # Checked under the lock: a double click applies the patterns (and
        # refunds Resolve) once, the second sees the roll resolved.
        if not roll.awaiting:
            raise ServiceError(gettext("The patterns of that roll are already chosen."))
        result = result_of(roll)
        applied = _apply(result, allocation, refund_to)
        back = words(gettext_noop("Effortless on %(who)s's roll: spent Resolve back (PAT-08)"),
                     who=roll.character.name)  # fmt: skip
        changes = [
            change_pool(
                campaign,
                "resolve",
                amount,
                english(back),
                character=character_in(campaign, character_id),
                reason_words=back,
            )
            for character_id, amount in applied.refunds
        ]
        roll.applied = applied.to_dict()
        roll.state = MomentaRoll.State.RESOLVED
        roll.patterns_event = _patterns_event(campaign, actor, roll, result, applied, changes)
        roll.save(update_fields=["applied", "state", "card", "patterns_event"])
        return roll.patterns_event


def _patterns_event(
    campaign: Campaign,
    actor,
    roll: MomentaRoll,
    result: RollResult,
    applied: AppliedRoll,
    changes: list[Change],
) -> TableEvent:
    """The card updated with the allocation's effects, and the event that says them;
    it reaches whoever saw the roll (TB-03)."""
    data = applied_data(applied, campaign)
    roll.card = dict(roll.card, applied=data, state=str(roll.state))
    triggered = ", ".join(f"{t.label} ({t.name})" for t in applied.triggered) or "no pattern"
    return append_event(
        campaign,
        events.MOMENTA_PATTERNS,
        actor,
        {
            "system": "momenta",
            "roll_id": roll.pk,
            "roll_seq": roll.event.seq if roll.event else None,
            "character_id": roll.character_id,
            "character": roll.character.name,
            "applied": data,
            "overflow": result.overflow,
            "overflow_effect": result.overflow_effect,
            "harm": result.spec.template.harm,
            **said(
                gettext_noop("%(character)s: %(triggered)s; %(outcome)s"),
                character=roll.character.name,
                triggered=triggered,
                outcome=applied.outcome,
            ),
        },
        audience=audience_of(roll),
        changes=changes,
    )


def _apply(
    result: RollResult, allocation: Sequence[Sequence] | None, refund_to: Sequence[int] | None
) -> AppliedRoll:
    """The allocation applied (PAT-02..PAT-09), Effortless's refunds sent where asked
    (PAT-08): only to those who spent Resolve on the roll."""
    spent = {who for who, _ in result.spec.resolve_spent}
    for who in refund_to or ():
        if who not in spent:
            name = Character.objects.filter(pk=who).values_list("name", flat=True).first()
            raise ServiceError(
                gettext("%(character)s spent no Resolve on this roll.")
                % {"character": name or "That character"}
            )
    try:
        if allocation is not None:
            allocation = [(str(name), int(face)) for name, face in allocation]
        applied = apply_allocation(result, allocation)
        points = sum(n for _, n in applied.refunds)
        if refund_to and points:
            refund_to = [int(c) for c in refund_to][:points]
            applied = apply_allocation(result, allocation, refund_to=refund_to)
    except (IllegalAllocation, IllegalRefund) as error:
        raise ServiceError(str(error)) from None
    except (TypeError, ValueError):
        raise ServiceError(gettext("Choose one of the listed allocations.")) from None
    return applied

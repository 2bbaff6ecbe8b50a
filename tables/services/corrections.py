"""Corrections: the GM voids a mistaken roll or spend (issue 15).

Nothing is deleted. A `voided` event reverses the target's pool changes with new
ledger lines ("Voided by <gm>: <why>"), and the target row records which event
voided it, so its card is drawn struck through. A reversal the pools cannot take
exactly (the points were spent since, or a cap would swallow some) is refused
whole: the transaction rolls back and nothing changes.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.sentences import english
from tables import events
from tables.models import PoolChange, TableEvent
from tables.policy.access import sees_event
from tables.services import harm
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    change_pool,
    lock_campaign,
    require_gm,
)
from tables.words.said import said, words

# PoolChange.reason holds 200; "Voided by <name>: " takes the rest.
REASON_MAX = 120
NO_REASON = "Give a reason for voiding: the log shows it to everyone who sees the card."
NO_SUCH_EVENT = "There is no such event in this campaign's log."


def voidable(event: TableEvent) -> bool:
    """A roll or a spend: an event about a play record or with ledger lines, not a void,
    not voided already. The log offers "Void…" only on these."""
    if event.kind == events.VOIDED.name or event.voided_by_id is not None:
        return False
    kind = events.get(event.kind)
    return bool(kind is not None and kind.records) or bool((event.payload or {}).get("changes"))


def void_event(campaign_id: int, actor, seq: int, reason: str) -> TableEvent:
    """The GM (or a co-GM) voids event `seq`: its pool changes reversed, its card struck."""
    why = " ".join((reason or "").split())[:REASON_MAX]
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        if not why:
            raise ServiceError(NO_REASON)
        target = TableEvent.objects.filter(campaign=campaign, seq=seq).first()
        # A whisper kept from the GMs (issue 37) answers as no event at all.
        if target is None or not sees_event(target, True, actor.pk):
            raise ServiceError(NO_SUCH_EVENT)
        if target.voided_by_id is not None:
            raise ServiceError(gettext("#%(seq)s is already voided.") % {"seq": seq})
        if not voidable(target):
            raise ServiceError(
                gettext("#%(seq)s is not a roll or a spend: there is nothing to void.")
                % {"seq": seq}
            )
        line = words(gettext_noop("Voided by %(who)s: %(why)s"), who=actor.get_username(), why=why)
        ledger = target.changes.select_related("character").order_by("id")
        changes = [_reverse(campaign, change, line, seq) for change in ledger if change.delta]
        void = append_event(
            campaign,
            events.VOIDED,
            actor,
            {
                "target_seq": seq,
                "target_kind": target.kind,
                "reason": why,
                **said(gettext_noop("#%(seq)s voided: %(why)s"), seq=seq, why=why),
            },
            # A secret roll's void is as secret as the roll (TB-03).
            audience=target.audience,
            changes=changes,
        )
        TableEvent.objects.filter(pk=target.pk).update(voided_by=void)
        # SC-02: a voided attack's hit leaves the target's tracks too (or the void is refused).
        harm.undo_hit(campaign, actor, target, why)
        return void


def _reverse(campaign, change: PoolChange, reason: dict, seq: int) -> Change:
    """The ledger line that undoes `change` exactly, else ServiceError (rolls back all)."""
    who = f"{change.character.name}'s " if change.character is not None else ""
    label = f"{who}{PoolChange.Pool(change.pool).label}"
    try:
        undone = change_pool(campaign, change.pool, -change.delta, english(reason)[:200],
                             character=change.character, reason_words=reason)  # fmt: skip
    except ServiceError as error:
        raise ServiceError(
            gettext(
                "#%(seq)s cannot be voided: %(label)s cannot give back %(delta)+d exactly "
                "(%(error)s) Nothing was changed."
            )
            % {"seq": seq, "label": label, "delta": change.delta, "error": error}
        ) from error
    if undone.delta != -change.delta or undone.lost:
        raise ServiceError(
            gettext(
                "#%(seq)s cannot be voided: %(label)s is too near its cap to take back %(delta)+d "
                "exactly. Nothing was changed."
            )
            % {"seq": seq, "label": label, "delta": -change.delta}
        )
    return undone

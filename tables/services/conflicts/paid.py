"""Turns paid for (issues 24 and 36, SC-01, SC-04, SC-05), each an ordered TableEvent.

- keep_initiative: the side that just acted pays to act again (SC-01, SC-05).

- interrupt: Conan (the players act first; the GM pays Doom for an NPC to act before a
  player, Conan quickstart) and Fallout (by Initiative; the GM pays Action Points for an
  NPC to act out of order, Fallout core, Combat).
- gm_opens_round: STA (the GM spends Threat for an NPC to take a round's first turn the
  players would take, STA dev blog 006).

The price is the line's (rules/turns.py) and comes from the GM's pool (change_pool: the
ledger and every screen show it). Both take the campaign lock first, so two presses at
once serialise there and the second finds someone acting and pays nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import turns as rules
from tables.models import Conflict, TableEvent
from tables.policy.turns import GM, PLAYERS, keep_cost, next_side, turn_rules, waiting
from tables.services.conflicts.turns import (
    _participant,
    _refuse_while_acting,
    _running,
    _set_acting,
    _side_words,
    side_title,
)
from tables.services.core import ServiceError, change_pool, lock_campaign, require_role
from tables.words.said import stored, words


def keep_initiative(campaign_id: int, actor, character_id, pay: str = rules.SPEND) -> TableEvent:
    """SC-01, SC-05 Keep the Initiative: the side that just acted pays the line's cost (or
    the campaign's) so that another of its characters acts next: the GM from Threat, the
    players from group Momentum or, on STA, by adding it to Threat (STA dev blog 006);
    `pay` says which. SC-01a, SC-01b."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        if pay not in (rules.SPEND, rules.ADD_THREAT):
            raise ServiceError(_("Choose how to pay for keeping the initiative."))
        if conflict.mode != Conflict.Mode.SIDES:
            raise ServiceError(_("In this turn order no one keeps the initiative."))
        _refuse_while_acting(conflict)
        side = conflict.last_side
        if participant.side != side:
            raise ServiceError(
                _("Only %(side)s, which just acted, can keep the initiative.")
                % {"side": _side_words(side) if side else _("a side that has acted")}
            )
        if side == GM and not membership.is_gm:
            raise PermissionDenied(_("Only the GM keeps the initiative for the GM's side."))
        if side == PLAYERS and membership.is_gm:
            raise PermissionDenied(_("The players keep the initiative with their Momentum."))
        if participant.acted:
            raise ServiceError(
                _("%(who)s has already acted this round.") % {"who": participant.character.name}
            )
        once = campaign.keep_once_in_a_row
        if conflict.last_kept and once:
            raise ServiceError(
                _("%(side)s already kept the initiative: it passes to the other side now.")
                % {"side": side_title(side)}
            )
        if not rules.may_keep(conflict.last_side, conflict.last_kept and once, waiting(conflict)):
            raise ServiceError(
                _("No need to keep the initiative: the other side has no one left to act.")
            )
        change = _pay_to_keep(campaign, participant, side, pay)
        return _set_acting(campaign, actor, conflict, participant, kept=True, changes=[change])


def _pay_to_keep(campaign, participant, side: str, pay: str):
    line, cost = campaign.line, keep_cost(campaign)
    pool, name = ("threat", line.gm_pool) if side == GM else ("group_momentum", line.group_pool)
    reason = words(
        gettext_noop("Keep the Initiative: %(who)s acts next"), who=participant.character.name
    )
    ways = rules.keep_payments(turn_rules(campaign), side, getattr(campaign, pool), cost)
    if pay not in ways:  # the row read under the lock
        if pay == rules.ADD_THREAT:
            raise ServiceError(
                _("In this game line the players cannot add to %(pool)s to keep the initiative.")
                % {"pool": line.gm_pool}
            )
        if rules.ADD_THREAT in ways:
            raise ServiceError(
                _(
                    "Keeping the initiative costs %(cost)d %(pool)s; there is not enough: "
                    "add %(cost)d to %(gm_pool)s instead."
                )
                % {"cost": cost, "pool": name, "gm_pool": line.gm_pool}
            )
        raise ServiceError(
            _("Keeping the initiative costs %(cost)d %(pool)s; there is not enough.")
            % {"cost": cost, "pool": name}
        )
    if pay == rules.ADD_THREAT:
        return change_pool(campaign, "threat", cost, reason, fresh=True)
    return change_pool(campaign, pool, -cost, reason, fresh=True)


def interrupt(campaign_id: int, actor, character_id) -> TableEvent:
    """SC-04: the GM pays the line's price for a waiting NPC to act before a player."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        line_rules = turn_rules(campaign)
        if conflict.mode not in (Conflict.Mode.FIRST, Conflict.Mode.INITIATIVE):
            raise ServiceError(_("In this turn order the GM does not interrupt."))
        _refuse_while_acting(conflict)
        _waiting_npc(participant)
        if not rules.may_interrupt(line_rules, next_side(campaign, conflict), True):
            raise ServiceError(_("No need to interrupt: the GM's side acts next anyway."))
        msgid = gettext_noop("The GM interrupts: %(who)s acts now.")
        return _buy(campaign, actor, conflict, participant, line_rules.interrupt_cost, msgid)


def gm_opens_round(campaign_id: int, actor, character_id) -> TableEvent:
    """SC-04 (STA dev blog 006): before anyone acts in a round the players would open,
    the GM pays for an NPC to take the first turn; not after the GM's side took the last
    turn, when an NPC acting next is Keeping the Initiative (SC-01a: once in a row)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        line_rules = turn_rules(campaign)
        if conflict.mode != Conflict.Mode.SIDES or not line_rules.open_round_cost:
            raise ServiceError(_("In this game line the GM does not buy a round's first turn."))
        _refuse_while_acting(conflict)
        _waiting_npc(participant)
        if conflict.last_side == GM:  # SC-01a: that turn is Keeping the Initiative
            raise ServiceError(
                _("The GM's side took the last turn: keep the initiative for an NPC instead.")
            )
        fresh = not conflict.participants.filter(acted=True).exists()
        side = next_side(campaign, conflict)
        if not rules.may_open_round(line_rules, fresh, side, True, conflict.last_side):
            raise ServiceError(
                _("Only before anyone acts in a round the players would open can the GM buy it.")
            )
        msgid = gettext_noop("The GM opens the round: %(who)s takes the first turn.")
        return _buy(campaign, actor, conflict, participant, line_rules.open_round_cost, msgid)


def _waiting_npc(participant) -> None:
    if participant.side != GM:
        raise ServiceError(
            _("Only an NPC can act out of turn for the GM, not %(who)s.")
            % {"who": participant.character.name}
        )
    if participant.acted:
        raise ServiceError(
            _("%(who)s has already acted this round.") % {"who": participant.character.name}
        )


def _buy(campaign, actor, conflict, participant, cost: int, msgid: str) -> TableEvent:
    name = participant.character.name
    pool = campaign.line.gm_pool
    if campaign.threat < cost:  # the row read under the lock
        raise ServiceError(
            _("That costs %(cost)d %(pool)s; there is not enough.") % {"cost": cost, "pool": pool}
        )
    reason = words(msgid, who=name)  # the ledger's and the log's, worded per reader
    change = change_pool(campaign, "threat", -cost, reason, fresh=True)
    paid = stored(reason)
    return _set_acting(campaign, actor, conflict, participant, changes=[change], paid=paid)

"""Read-only checks every 2d20 command makes: is this a 2d20 table, which test may the
member see, which spends exist. Nothing here writes."""

from __future__ import annotations

from contextlib import contextmanager

from django.utils.translation import gettext

from rules.errors import RulesError
from rules.momentum import (
    BONUS_DAMAGE,
    GM_SIDE,
    PLAYERS_SIDE,
    TASK_POINTS,
    SpendKind,
    custom_spend,
    spend_catalogue,
)
from tables.models import Campaign, Character, D20Test, Membership
from tables.policy.access import seen_by
from tables.services.core import ServiceError

NOTE_MAX = 120  # a spend's note; the pool ledger's reason holds 200


@contextmanager
def refused_by_rules():
    """Turn a refusal by the rules into a ServiceError with the same message."""
    try:
        yield
    except RulesError as error:
        raise ServiceError(str(error)) from error


def require_d20(campaign: Campaign) -> None:
    """2d20 commands need the d20 dice and the group Momentum economy."""
    if campaign.dice_system != Campaign.DiceSystem.D20 or not campaign.uses_group_economy:
        raise ServiceError(
            gettext(
                "2d20 tests need the d20 dice system and the group Momentum economy "
                "(see the campaign settings)."
            )
        )


def side_of(character: Character) -> str:
    """NPCs are the GM's characters (MO-13, CT-R1)."""
    return GM_SIDE if character.is_npc else PLAYERS_SIDE


def visible_test_record(campaign: Campaign, membership: Membership, test_id) -> D20Test:
    """A test of this campaign that the member may see (TB-03: secret ones are GM-only)."""
    tests = D20Test.objects.select_related("character", "contest", "contest__opposer")
    record = seen_by(membership, tests.filter(campaign=campaign)).filter(pk=test_id).first()
    if record is None:
        raise ServiceError(gettext("There is no such test at this table."))
    return record


def catalogue(campaign: Campaign) -> dict[str, SpendKind]:
    """Standard spends, the line's Bonus Damage where its book has it (SC-02), and the
    campaign's custom ones, by key (MO-09 … MO-11, MO-14)."""
    line = campaign.line
    line_spends = (BONUS_DAMAGE,) * line.bonus_damage + (TASK_POINTS,) * line.task_points
    custom = [
        custom_spend(s.name, s.cost, s.repeatable, s.description)
        for s in campaign.custom_spends.order_by("name")
    ]
    with refused_by_rules():
        return spend_catalogue(custom, line_spends)

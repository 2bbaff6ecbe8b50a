"""Read-only checks every 2d20 command makes: is this a 2d20 table, which test may the
member see, which spends exist. Nothing here writes."""

from __future__ import annotations

from django.utils.translation import gettext

from tables.models import Campaign, D20Test, Membership
from tables.policy.access import seen_by
from tables.services.core import ServiceError

NOTE_MAX = 120  # a spend's note; the pool ledger's reason holds 200


def require_d20(campaign: Campaign) -> None:
    """2d20 commands need the d20 dice and the group Momentum economy."""
    if campaign.dice_system != Campaign.DiceSystem.D20 or not campaign.uses_group_economy:
        raise ServiceError(
            gettext(
                "2d20 tests need the d20 dice system and the group Momentum economy "
                "(see the campaign settings)."
            )
        )


def visible_test_record(campaign: Campaign, membership: Membership, test_id) -> D20Test:
    """A test of this campaign that the member may see (TB-03: secret ones are GM-only)."""
    tests = D20Test.objects.select_related("character", "contest", "contest__opposer")
    record = seen_by(membership, tests.filter(campaign=campaign)).filter(pk=test_id).first()
    if record is None:
        raise ServiceError(gettext("There is no such test at this table."))
    return record

"""What a 2d20 test reads, read once, under the campaign lock (issue 22: one loader per
command).

The roll view checks its composer against these rows and roll_d20_test rolls from the
same rows, in the same transaction: nothing read before the lock is trusted after it,
and nothing is read twice. Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.momentum import SpendKind
from tables.models import Campaign, Character, Contest, Membership
from tables.models.sheets import prefetch_sheet
from tables.policy.access import can_control
from tables.policy.game_lines import catalogue
from tables.policy.turns import with_turn
from tables.services.core import lock_campaign, require_playing


@dataclass(frozen=True)
class D20Rows:
    """The locked campaign, the actor's membership, the spend catalogue, the campaign's
    characters (with their owners and the turn, policy.turns.with_turn) and, when the
    actor may roll for it, the roller (that same object, its sheet read) with the
    contests awaiting its roll (CT-01, each opposer read)."""

    campaign: Campaign
    membership: Membership
    spends: dict[str, SpendKind]
    everyone: list[Character]
    character: Character | None
    contests: tuple[Contest, ...] = ()


def load_test(campaign_id: int, actor, character_id: int | None) -> D20Rows:
    """Inside the caller's transaction: lock the campaign, then read what a test of
    `character_id` decides from and what its composer offers.

    Campaign.DoesNotExist if there is none; PermissionDenied unless the actor plays
    there. `character` is None when `character_id` is not one the actor may roll for
    (the composer says why)."""
    campaign = lock_campaign(campaign_id)
    membership = require_playing(campaign, actor)
    spends = catalogue(campaign)
    # with_turn: the roll's turn mark (issue 37) comes in this same statement.
    everyone = list(with_turn(campaign.characters.select_related("owner"), campaign.pk))
    character = next(
        (c for c in everyone if c.pk == character_id and can_control(membership, c)), None
    )
    if character is None:
        return D20Rows(campaign, membership, spends, everyone, None)
    prefetch_sheet(character)
    contests = Contest.objects.filter(
        campaign=campaign, active=character, state=Contest.State.AWAITING
    ).select_related("opposer")
    return D20Rows(campaign, membership, spends, everyone, character, tuple(contests))

"""What a Momenta roll reads, read once, under the campaign lock (issue 22: one loader
per command).

The roll view checks its form against these rows and roll_momenta rolls from the same
rows, in the same transaction: nothing read before the lock is trusted after it, and
nothing is read twice. Read-only: seeding a campaign's missing templates is the roll's.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.models import AssistRequest, Campaign, Character, Membership, RollTemplate
from tables.models.sheets import prefetch_sheet
from tables.policy.access import controllable
from tables.policy.turns import with_turn
from tables.services.core import lock_campaign, require_playing


@dataclass(frozen=True)
class RollRows:
    """The locked campaign, the actor's membership, the characters they may roll for
    (with their owners and the turn, policy.turns.with_turn) and, when the roller is
    one of them, the roller (that same object, its attributes and traits read), the
    campaign's templates in order and the roller's accepted Assists (each helper with
    its owner: the card names both). `everyone`: every character of the campaign, in
    the database's order (Character.Meta), the attack targets the composer offers."""

    campaign: Campaign
    membership: Membership
    characters: list[Character]
    character: Character | None
    templates: tuple[RollTemplate, ...]
    assists: tuple[AssistRequest, ...] = ()
    everyone: tuple[Character, ...] = ()


def load_roll(campaign_id: int, actor, character_id: int | None) -> RollRows:
    """Inside the caller's transaction: lock the campaign, then read what a roll of
    `character_id` decides from and what its composer offers.

    Campaign.DoesNotExist if there is none; PermissionDenied unless the actor plays
    there. `character` is None when `character_id` is not one the actor may roll for
    (the caller says why)."""
    campaign = lock_campaign(campaign_id)
    membership = require_playing(campaign, actor)
    # with_turn: the roll's turn mark (issue 37) comes in this same statement.
    # Read once: also the form's attack targets (SC-02), not read again for it.
    everyone = tuple(with_turn(campaign.characters.select_related("owner"), campaign.pk))
    characters = controllable(campaign, membership, everyone)
    character = next((c for c in characters if c.pk == character_id), None)
    templates = templates_of(campaign)
    if character is None:
        return RollRows(campaign, membership, characters, None, templates, everyone=everyone)
    prefetch_sheet(character, ("attributes", "traits"))
    assists = tuple(
        AssistRequest.objects.filter(
            roller=character, state=AssistRequest.State.ACCEPTED
        ).select_related("helper__owner")
    )
    return RollRows(campaign, membership, characters, character, templates, assists, everyone)


def templates_of(campaign: Campaign) -> tuple[RollTemplate, ...]:
    """The campaign's roll templates, in their order (D6-04)."""
    return tuple(RollTemplate.objects.filter(campaign=campaign))

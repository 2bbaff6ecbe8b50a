"""What several Momenta commands share: the lock and the reads under it, and the
check of a pool the person's page showed."""

from __future__ import annotations

from django.utils.translation import gettext

from tables.models import Campaign, Character, Membership, MomentaRoll
from tables.policy.access import require_control, seen_by
from tables.services.core import (
    ServiceError,
    check_seen,
    lock_campaign,
    require_playing,
)


def require_d6(campaign: Campaign) -> None:
    if not campaign.uses_d6:
        raise ServiceError(gettext("This campaign rolls 2d20 skill tests, not Momenta dice pools."))


def lock_for_play(
    campaign_id: int, actor, character_id: int
) -> tuple[Campaign, Membership, Character]:
    """Inside a transaction: the locked d6 campaign, the actor's playing membership and
    the character, which the actor must control -> (campaign, membership, character).

    The membership and the character are read after the lock, never before: a role
    change or a pool move that committed while the page was read is what the command
    decides from (two players spending the roller's last point serialise here)."""
    campaign = lock_campaign(campaign_id)
    membership = require_playing(campaign, actor)
    require_d6(campaign)
    # The owner comes along: the roll card and the pools name them.
    character = (
        Character.objects.select_related("owner").filter(campaign=campaign, pk=character_id).first()
    )
    if character is None:
        raise ServiceError(gettext("That character is not in this campaign."))
    require_control(membership, character)
    return campaign, membership, character


def check_pool_seen(character: Character, pool: str, expected: int | None, delta: int) -> None:
    """The form showed `expected`; a move since refuses only if it matters to a change
    of `delta` (core.check_seen): e.g. an Advantage the roller can no longer pay, which
    the rules would quietly drop (PM-07). `character` was read under the lock."""
    if expected is None:
        return
    label = "Momentum" if pool == "momentum" else "Resolve"
    check_seen(
        pool,
        getattr(character, pool),
        expected,
        delta,
        own_cap=character.resolve_max if pool == "resolve" else None,
        label=f"{character.name}'s {label}",
    )


def visible_roll(campaign: Campaign, membership: Membership, roll_id) -> MomentaRoll:
    """A roll of this campaign the member may see (TB-03: hidden ones are GM-only)."""
    rolls = MomentaRoll.objects.select_related("character", "event").filter(campaign=campaign)
    roll = seen_by(membership, rolls).filter(pk=roll_id).first()
    if roll is None:
        raise ServiceError(gettext("That roll is not at this table."))
    return roll

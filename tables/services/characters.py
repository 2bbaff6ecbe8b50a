"""Character sheets."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from tables.models import (
    Character,
    Membership,
    PoolChange,
)
from tables.services.access import can_control, membership_of
from tables.services.core import Change, ServiceError, StaleState, append_event, lock_campaign

# --- Character sheets ---------------------------------------------------------

SHEET_POOLS = ("momentum", "resolve", "determination")


def save_character(campaign_id: int, actor, form, formsets=()) -> Character:
    """Create or edit a character sheet from validated forms, under the campaign lock.

    Pool values the person did not touch keep their current value (a spend at
    the table meanwhile is not overwritten); a pool they did change must
    still hold what their page showed (StaleState otherwise). Each pool change
    is a ledger line (PM-13). Players own their characters; GMs may edit any.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = membership_of(actor, campaign)
        character = form.instance
        creating = character.pk is None
        if creating:
            if membership is None or membership.role not in (
                Membership.Role.GM,
                Membership.Role.PLAYER,
            ):
                raise PermissionDenied("Observers cannot create characters.")
            character.campaign = campaign
            before = {}
        else:
            if character.campaign_id != campaign.pk:
                raise PermissionDenied("That character is not in this campaign.")
            if membership is None or not can_control(membership, character):
                raise PermissionDenied("That character is not yours.")
            before = Character.objects.values(*SHEET_POOLS).get(pk=character.pk)
            for pool in SHEET_POOLS:
                if pool not in form.changed_data:
                    setattr(character, pool, before[pool])
                    continue
                seen = _seen_value(form, pool)
                if seen is not None and seen != before[pool]:
                    raise StaleState(
                        f"{character.name}'s {PoolChange.Pool(pool).label} changed to "
                        f"{before[pool]} since your page was drawn; check it and save again."
                    )
        if character.resolve > character.resolve_max:
            raise ServiceError(
                f"Resolve ({character.resolve}) cannot be above its maximum "
                f"({character.resolve_max})."
            )
        clash = Character.objects.filter(campaign=campaign, name__iexact=character.name)
        if clash.exclude(pk=character.pk).exists():
            raise ServiceError(f"This campaign already has a character named {character.name}.")
        character.save()
        for formset in formsets:
            formset.instance = character
            formset.save()
        changes = [
            Change(
                pool=pool,
                delta=getattr(character, pool) - before[pool],
                after=getattr(character, pool),
                reason="Sheet edited",
                character=character,
            )
            for pool in SHEET_POOLS
            if before and getattr(character, pool) != before[pool]
        ]
        append_event(
            campaign,
            "character_created" if creating else "character_updated",
            actor,
            {"character_id": character.pk, "name": character.name, "is_npc": character.is_npc},
            changes=changes,
        )
    return character


def _seen_value(form, field: str) -> int | None:
    """The value the person's page showed (Django's hidden initial input), if sent."""
    raw = form.data.get(form.add_initial_prefix(field))
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None

"""Who a table page is drawn for, and the context every part of it shares.

Two audiences: "gm" (GMs and co-GMs) and "all" (players and observers). The page's
views and the live push (tables/live/render.py) both start from base_context, so a
first render and a pushed fragment read the same pools and caps.
"""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects

from rules.pools import GROUP_MOMENTUM, PERSONAL_MOMENTUM_MAX, cap_of
from tables.models import Campaign, Character, Membership, TableEvent
from tables.policy.access import can_control
from tables.presenters.scene_board import task_offers

GM = TableEvent.Audience.GM.value
ALL = TableEvent.Audience.ALL.value


def audience_for(membership: Membership) -> str:
    return GM if membership.is_gm else ALL


def shows_threat(campaign: Campaign, audience: str) -> bool:
    """Threat is the GM's pool (MO-13); players see it only if the GM shows it."""
    return audience == GM or campaign.threat_visible


def table_characters(campaign: Campaign):
    return Character.objects.filter(campaign=campaign).select_related("owner")


def sheet_rollers(membership: Membership, characters: list[Character]) -> list[Character]:
    """The characters whose cards offer roll-from-the-sheet links (sheet_rolls.html):
    a player's own, a GM's NPCs (the players' cards stay as short as they are, so a
    phone's first screen still holds the GM's pools), their sheets read in one go."""
    rollers = [
        c for c in characters if can_control(membership, c) and (c.is_npc or not membership.is_gm)
    ]
    prefetch_related_objects(rollers, "attributes", "skills", "traits")
    for character in rollers:
        character.sheet_focuses = [t.text for t in character.traits.all() if t.kind == "focus"]
    return rollers


def base_context(campaign: Campaign, audience: str) -> dict[str, Any]:
    return {
        "campaign": campaign,
        "audience": audience,
        "is_gm": audience == GM,
        "show_threat": shows_threat(campaign, audience),
        "group_max": cap_of(GROUP_MOMENTUM, campaign.group_cap),  # the line's (GL-01, MO-06)
        "personal_max": PERSONAL_MOMENTUM_MAX,
        **task_offers(campaign),  # lazy: read only by a resolved 2d20 test's card
    }

"""Where a campaign's play stands, read only: its running scene, and the pools its dice
and economy use. The session commands (tables/services/sessions.py) and the GM's panel
ask the same questions here."""

from __future__ import annotations

from tables.models import Campaign, Scene


def current_scene(campaign: Campaign) -> Scene | None:
    return campaign.scenes.filter(ended_at__isnull=True).order_by("-number").first()


def pools_for(campaign: Campaign) -> dict[str, list[str]]:
    """Which pools this campaign's dice and economy use: campaign pools and character pools."""
    campaign_pools, character_pools = [], []
    if campaign.economy == Campaign.Economy.GROUP:
        campaign_pools += ["group_momentum", "threat"]
    else:
        character_pools.append("momentum")
    if campaign.dice_system == Campaign.DiceSystem.D6:
        character_pools.append("resolve")
    else:
        character_pools.append("determination")
    return {"campaign": campaign_pools, "character": character_pools}

"""Who may do what at a table: membership, roles, control of a character.

Services, views and consumers all ask here, so a rule about who may act is
written once.
"""

from __future__ import annotations

from tables.models import Campaign, Character, Membership

# Roles that satisfy each requirement.
ALLOWED = {
    "member": {Membership.Role.GM, Membership.Role.PLAYER, Membership.Role.OBSERVER},
    "player": {Membership.Role.GM, Membership.Role.PLAYER},
    "gm": {Membership.Role.GM},
}


def membership_of(user, campaign: Campaign | int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    return Membership.objects.filter(campaign_id=campaign_id, user=user).first()


def can_control(membership: Membership, character: Character) -> bool:
    """Owner and GMs act for a character (roll, edit); observers never do."""
    if membership.role == Membership.Role.GM:
        return True
    return membership.role == Membership.Role.PLAYER and character.owner_id == membership.user_id


def default_character(characters, membership: Membership) -> Character | None:
    """The character a composer shows first: a player's own first PC; a GM's first
    NPC (else the first character). `characters`: those the member may roll for."""
    characters = list(characters)
    if membership.is_gm:
        npcs = [c for c in characters if c.is_npc]
        return (npcs or characters or [None])[0]
    own = [c for c in characters if c.owner_id == membership.user_id and not c.is_npc]
    return (own or characters or [None])[0]

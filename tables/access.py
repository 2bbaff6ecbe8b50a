"""Who may do what: one call fetches a campaign *and* checks the viewer's role.

Views call `campaign_for(request, pk, role=...)`; consumers call `membership_of`.
No view can forget the check, because the fetch is the check.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Campaign, Character, Membership

# Roles that satisfy each requirement.
_ALLOWED = {
    "member": {Membership.Role.GM, Membership.Role.PLAYER, Membership.Role.OBSERVER},
    "player": {Membership.Role.GM, Membership.Role.PLAYER},
    "gm": {Membership.Role.GM},
}


def membership_of(user, campaign: Campaign | int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    return Membership.objects.filter(campaign_id=campaign_id, user=user).first()


def campaign_for(request, pk: int, role: str = "member") -> tuple[Campaign, Membership]:
    """The campaign and the viewer's membership; 404 if absent, 403 if the role is short."""
    campaign = get_object_or_404(Campaign, pk=pk)
    membership = membership_of(request.user, campaign)
    if membership is None or membership.role not in _ALLOWED[role]:
        raise PermissionDenied("You do not have that role at this table.")
    return campaign, membership


def can_control(membership: Membership, character: Character) -> bool:
    """Owner and GMs act for a character (roll, edit); observers never do."""
    if membership.role == Membership.Role.GM:
        return True
    return membership.role == Membership.Role.PLAYER and character.owner_id == membership.user_id


def character_for(request, pk: int, character_pk: int) -> tuple[Campaign, Membership, Character]:
    """A character of the campaign that the viewer controls, else 404/403."""
    campaign, membership = campaign_for(request, pk)
    character = get_object_or_404(Character, pk=character_pk, campaign=campaign)
    if not can_control(membership, character):
        raise PermissionDenied("That character is not yours.")
    return campaign, membership, character


def default_character(characters, membership: Membership) -> Character | None:
    """The character a composer shows first: a player's own first PC; a GM's first
    NPC (else the first character). `characters`: those the member may roll for."""
    characters = list(characters)
    if membership.is_gm:
        npcs = [c for c in characters if c.is_npc]
        return (npcs or characters or [None])[0]
    own = [c for c in characters if c.owner_id == membership.user_id and not c.is_npc]
    return (own or characters or [None])[0]

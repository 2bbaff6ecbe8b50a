"""Fetch-and-check for views: one call fetches a campaign *and* checks the viewer's role.

No view can forget the check, because the fetch is the check.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from tables.models import Campaign, Character, Membership
from tables.policy.access import has_role, membership_of, require_control
from tables.views.locale import seen_at


def posted_id(request, key: str = "character") -> int | None:
    """The id posted as `key`; None when missing or not a number (the form says so)."""
    raw = request.POST.get(key, "")
    return int(raw) if raw.isascii() and raw.isdigit() else None  # "²".isdigit(), yet no int


def campaign_for(request, pk: int, role: str = "member") -> tuple[Campaign, Membership]:
    """The campaign and the viewer's membership; 404 if absent, 403 if the role is short."""
    campaign = get_object_or_404(Campaign, pk=pk)
    membership = membership_of(request.user, campaign)
    if not has_role(membership, role):
        raise PermissionDenied(gettext("You do not have that role at this table."))
    seen_at(request, campaign, membership)
    return campaign, membership


def player_at(request, pk: int) -> tuple[Campaign, Membership]:
    """campaign_for(role="player") in one query: the membership with its campaign."""
    # campaign__pk, not campaign_id: a pk beyond the column's range finds none (404).
    membership = (
        Membership.objects.select_related("campaign").filter(campaign__pk=pk, user=request.user)
    ).first()
    if membership is None or not has_role(membership, "player"):
        return campaign_for(request, pk, role="player")  # says 404 or 403
    seen_at(request, membership.campaign, membership)
    return membership.campaign, membership


def character_for(request, pk: int, character_pk: int) -> tuple[Campaign, Membership, Character]:
    """A character of the campaign that the viewer controls, else 404/403."""
    campaign, membership = campaign_for(request, pk)
    return campaign, membership, controlled_character(campaign, membership, character_pk)


def controlled_character(
    campaign: Campaign, membership: Membership, character_pk: int
) -> Character:
    """The campaign's character `character_pk` if this member controls it, else 404/403."""
    character = get_object_or_404(Character, pk=character_pk, campaign=campaign)
    require_control(membership, character)
    return character

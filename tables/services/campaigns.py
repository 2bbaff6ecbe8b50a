"""Campaigns, their settings and who is in them."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from tables import events
from tables.models import (
    SETTINGS_FIELDS,
    Campaign,
    Membership,
    TableEvent,
    new_invite_token,
)
from tables.models.limits import MAX_INVITE_USES
from tables.policy.access import membership_of
from tables.services import discord, game_lines
from tables.services.core import ServiceError, append_event, lock_campaign, require_gm
from tables.services.roll_templates import seed_default_templates
from tables.words.wording import moment

PRESETS = {
    Campaign.Preset.MOMENTA: (Campaign.DiceSystem.D6, Campaign.Economy.PERSONAL),
    Campaign.Preset.D20: (Campaign.DiceSystem.D20, Campaign.Economy.GROUP),
}


def create_campaign(owner, name: str, preset: str) -> Campaign:
    """A new campaign whose creator is its GM; the preset fills dice and economy."""
    if preset not in PRESETS:
        raise ServiceError(gettext("Choose a rule set."))
    dice_system, economy = PRESETS[preset]
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name.strip(),
            owner=owner,
            preset=preset,
            dice_system=dice_system,
            economy=economy,
        )
        Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.GM)
        campaign = lock_campaign(campaign.pk)
        seed_default_templates(campaign)  # D6-04: the composer never seeds on a GET
        append_event(campaign, events.CAMPAIGN_CREATED, owner, {"name": campaign.name})
    return campaign


def update_campaign_settings(campaign_id: int, actor, values: dict) -> TableEvent | None:
    """Change campaign settings and rulings (PAT-R1, PAT-R2, PM-R1, T-R1, T-03, CT-R1).

    Returns the event, or None when nothing changed.
    """
    unknown = set(values) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"not a campaign setting: {sorted(unknown)}")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        changes = []
        if "game_line" in values and values["game_line"] != campaign.game_line:
            # GL-01: what the new line's cap cannot hold is lost, in the ledger, first.
            changes = game_lines.fit_group_pool(campaign, values["game_line"])
        changed = {}
        for field, value in values.items():
            old = getattr(campaign, field)
            if old != value:
                changed[field] = [old, value]
                setattr(campaign, field, value)
        if not changed:
            return None
        # update_fields: never write the pools or last_seq from this stale copy.
        campaign.save(update_fields=list(changed))
        if "dice_system" in changed:
            seed_default_templates(campaign)  # switched to d6: templates to roll with (D6-04)
        return append_event(
            campaign, events.SETTINGS_CHANGED, actor, {"fields": changed}, changes=changes
        )


# --- Membership ---------------------------------------------------------------


class InviteInvalid(ServiceError):
    """The invite token matches no campaign (never issued, or regenerated since)."""


class InviteSpent(InviteInvalid):
    """The invite link is the current one, but it has expired or been used up."""


def _when(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%d %b %Y, %H:%M %Z")


def _new_link_words(expires_at: datetime | None, uses_left: int | None) -> str:
    limits = []
    if expires_at is not None:
        limits.append(f"until {_when(expires_at)}")
    if uses_left is not None:
        limits.append(f"for {uses_left} join{'s' if uses_left != 1 else ''}")
    return "New invite link" + (f", {' and '.join(limits)}." if limits else ", no limits.")


def invite_refusal(campaign: Campaign, now: datetime | None = None) -> str | None:
    """Why the campaign's current invite link no longer lets anyone join, or None."""
    now = now or timezone.now()
    if campaign.invite_expires_at is not None and now >= campaign.invite_expires_at:
        when = moment(campaign.invite_expires_at)  # the reader's zone and locale
        return gettext("This invite link expired on %(when)s. Ask your GM for a new one.") % {
            "when": when
        }
    if campaign.invite_uses_left is not None and campaign.invite_uses_left <= 0:
        return gettext(
            "This invite link has been used as many times as the GM allowed. Ask for a new one."
        )
    return None


def join_campaign(token: str, user, role: str) -> Membership:
    """A signed-in person joins through the invite link as player or observer."""
    if role not in (Membership.Role.PLAYER, Membership.Role.OBSERVER):
        raise ServiceError(gettext("Join as a player or as an observer."))
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(gettext("Log in to join a campaign."))
    campaign_id = Campaign.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    if campaign_id is None:
        raise InviteInvalid(_INVITE_INVALID)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        # Re-checked under the lock: a regeneration that committed between the
        # lookup and the lock must still turn this old link away.
        if campaign.invite_token != token:
            raise InviteInvalid(_INVITE_INVALID)
        existing = membership_of(user, campaign)
        if existing is not None:
            raise ServiceError(
                gettext("You are already in %(campaign)s as %(role)s.")
                % {"campaign": campaign.name, "role": existing.get_role_display()}
            )
        # Checked under the lock: two people joining at once through a link with one
        # use left are serialised here, and the second finds it used up.
        refusal = invite_refusal(campaign)
        if refusal is not None:
            raise InviteSpent(refusal)
        membership = Membership.objects.create(campaign=campaign, user=user, role=role)
        if campaign.invite_uses_left is not None:
            Campaign.objects.filter(pk=campaign.pk).update(
                invite_uses_left=F("invite_uses_left") - 1
            )
        append_event(
            campaign,
            events.MEMBER_JOINED,
            user,
            {"user": user.get_username(), "user_id": user.pk, "role": role},
        )
    return membership


_INVITE_INVALID = (
    "This invite link is not valid. It may have been replaced by a new one: "
    "ask your GM for the current link."
)


def regenerate_invite(
    campaign_id: int,
    actor,
    *,
    expires_at: datetime | None = None,
    uses_left: int | None = None,
) -> str:
    """A new invite token; the old link stops working at once. The GM may limit the
    new link: it stops working at `expires_at`, or after `uses_left` joins (None: no
    limit)."""
    if expires_at is not None and (timezone.is_naive(expires_at) or expires_at <= timezone.now()):
        raise ServiceError(gettext("Choose an expiry in the future."))
    if uses_left is not None and (
        isinstance(uses_left, bool)
        or not isinstance(uses_left, int)
        or not 1 <= uses_left <= MAX_INVITE_USES
    ):
        raise ServiceError(
            gettext("Allow between 1 and %(max_invite_uses)s uses, or leave it empty.")
            % {"max_invite_uses": MAX_INVITE_USES}
        )
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        campaign.invite_token = new_invite_token()
        campaign.invite_expires_at, campaign.invite_uses_left = expires_at, uses_left
        campaign.save(update_fields=["invite_token", "invite_expires_at", "invite_uses_left"])
        # The token itself stays out of the log: the log outlives the link.
        payload = {
            "expires_at": expires_at.isoformat() if expires_at else None,
            "uses_left": uses_left,
            "summary": _new_link_words(expires_at, uses_left),
        }
        append_event(
            campaign, events.INVITE_REGENERATED, actor, payload, audience=TableEvent.Audience.GM
        )
    return campaign.invite_token


def _member_of(campaign: Campaign, membership_id: int) -> Membership:
    membership = (
        Membership.objects.select_related("user")
        .filter(campaign=campaign, pk=membership_id)
        .first()
    )
    if membership is None:
        raise ServiceError(gettext("That person is not a member of this campaign."))
    return membership


def remove_member(
    campaign_id: int, actor, membership_id: int, *, clear_webhooks: bool = False
) -> TableEvent:
    """The GM removes a member; the owner cannot be removed. Their characters stay.
    `clear_webhooks`: the Discord webhooks they set go too (a co-GM who leaves still
    holds those URLs, and the GM one receives secret rolls)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        membership = _member_of(campaign, membership_id)
        if membership.user_id == campaign.owner_id:
            raise ServiceError(gettext("The campaign's owner cannot be removed."))
        payload = {
            "user": membership.user.get_username(),
            "user_id": membership.user_id,
            "role": membership.role,
        }
        membership.delete()
        removed = append_event(campaign, events.MEMBER_REMOVED, actor, payload)
        if clear_webhooks:
            discord.clear_webhooks_set_by(campaign, actor, membership.user_id)
        return removed


def promote_member(campaign_id: int, actor, membership_id: int) -> TableEvent:
    """The GM makes a player a co-GM (role gm)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        membership = _member_of(campaign, membership_id)
        if membership.role != Membership.Role.PLAYER:
            raise ServiceError(
                gettext("Only players can be made co-GM; %(user)s is %(role)s.")
                % {"user": membership.user, "role": membership.get_role_display()}
            )
        membership.role = Membership.Role.GM
        membership.save(update_fields=["role"])
        return append_event(
            campaign,
            events.MEMBER_PROMOTED,
            actor,
            {"user": membership.user.get_username(), "user_id": membership.user_id, "role": "gm"},
        )

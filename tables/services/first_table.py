"""A hosted table's first run (`manage.py host`): the GM's account, their first
campaign and its invite link, all at once or not at all."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tables.models import Campaign
from tables.services.campaigns import create_campaign, regenerate_invite

# The first invite lets a group in over the next week; the GM makes new ones on the
# campaign's page (with their own limits) whenever they like.
INVITE_DAYS = 7
INVITE_JOINS = 12


class FirstRunError(Exception):
    """The GM's name or password cannot be used: one line, nothing created."""


@dataclass(frozen=True)
class FirstTable:
    campaign: Campaign
    invite_token: str
    expires_at: object
    uses_left: int


def check_gm(username: str, password: str) -> None:
    """FirstRunError when the account could not be made (before anything is)."""
    User = get_user_model()
    username = username.strip()
    if not username:
        raise FirstRunError("the GM's username is empty")
    try:
        User.username_validator(username)
        validate_password(password, user=User(username=username))
    except ValidationError as error:
        raise FirstRunError(" ".join(error.messages)) from None


def needs_first_run() -> bool:
    return not get_user_model().objects.exists()


def create_first_table(username: str, password: str, campaign_name: str) -> FirstTable:
    """The GM (a superuser: the table is theirs, /admin/ included), a Momenta campaign
    and its invite link, limited in time and joins."""
    check_gm(username, password)
    expires_at = timezone.now() + timedelta(days=INVITE_DAYS)
    with transaction.atomic():
        gm = get_user_model().objects.create_superuser(username.strip(), password=password)
        campaign = create_campaign(gm, campaign_name, Campaign.Preset.MOMENTA)
        token = regenerate_invite(campaign.pk, gm, expires_at=expires_at, uses_left=INVITE_JOINS)
    return FirstTable(campaign, token, expires_at, INVITE_JOINS)

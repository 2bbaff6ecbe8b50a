"""Whether a username may try to log in now (issue 12): a read, never a write.

After LOGIN_FAILURE_LIMIT wrong passwords for one username within
LOGIN_LOCKOUT_SECONDS, the username is locked until the window ends. The
failures are recorded and cleared by tables/services/logins.py.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tables.models import LoginFailure
from tables.models.logins import USERNAME_MAX

# The clock, a module attribute so tests can move time without sleeping.
clock = timezone.now


def login_name(username: str) -> str:
    """The username as failures are counted: case-folded, cut to the column's size."""
    return username.casefold()[:USERNAME_MAX]


def window() -> timedelta:
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


def locked_until(username: str) -> datetime | None:
    """When this username's lockout ends, or None if it may try now (one query)."""
    now, limit = clock(), settings.LOGIN_FAILURE_LIMIT
    # Locked while `limit` failures lie within the window: until the oldest of
    # the last `limit` leaves it.
    nth_latest = (
        LoginFailure.objects.filter(username=login_name(username), at__gt=now - window())
        .order_by("-at")
        .values_list("at", flat=True)[limit - 1 : limit]
    )
    at = next(iter(nth_latest), None)
    return None if at is None else at + window()


def minutes_left(until: datetime) -> int:
    """Whole minutes until `until`, at least 1: what the refusal says."""
    return max(1, math.ceil((until - clock()).total_seconds() / 60))

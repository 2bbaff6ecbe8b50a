"""Login throttling (issue 12): after LOGIN_FAILURE_LIMIT wrong passwords for one
username within LOGIN_LOCKOUT_SECONDS, the username is locked until the window
ends: every attempt is refused, even with the right password. A success clears
the count.

By username, not by address: behind a proxy every request comes from the
proxy's address, and one guesser would lock everybody out.

The failures are rows in the database (LoginFailure), so the count holds across
server processes with or without Redis. Attempts refused while locked are not
recorded: the lock ends with the window, however long a guesser keeps trying.
Guesses already past the check when the limit is reached still run, so a
guesser gets at most the limit plus the guesses it has in flight at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.models import LoginFailure
from tables.models.logins import USERNAME_MAX

# The clock, a module attribute so tests can move time without sleeping.
clock = timezone.now


def _name(username: str) -> str:
    return username.casefold()[:USERNAME_MAX]


def _window() -> timedelta:
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


def locked_until(username: str) -> datetime | None:
    """When this username's lockout ends, or None if it may try now (one query)."""
    now, limit = clock(), settings.LOGIN_FAILURE_LIMIT
    # Locked while `limit` failures lie within the window: until the oldest of
    # the last `limit` leaves it.
    nth_latest = (
        LoginFailure.objects.filter(username=_name(username), at__gt=now - _window())
        .order_by("-at")
        .values_list("at", flat=True)[limit - 1 : limit]
    )
    at = next(iter(nth_latest), None)
    return None if at is None else at + _window()


def record_failure(username: str) -> None:
    now = clock()
    with transaction.atomic():
        # Rows out of every window count for nobody: the table stays small.
        LoginFailure.objects.filter(at__lte=now - _window()).delete()
        LoginFailure.objects.create(username=_name(username), at=now)


def clear_failures(username: str) -> None:
    LoginFailure.objects.filter(username=_name(username)).delete()

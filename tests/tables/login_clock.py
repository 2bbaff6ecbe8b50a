"""The login lockout's clock, moved without sleeping (tests of tables/lockout.py).

django-axes stamps each failure with the real time and compares it with the real time,
so moving the clock forward by some seconds is moving every recorded failure back by
as many."""

from __future__ import annotations

from datetime import timedelta

from axes.models import AccessAttempt
from django.db.models import F, Sum


class LoginClock:
    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self, seconds: float) -> None:
        """Set the clock `seconds` after the start of the test."""
        step = timedelta(seconds=seconds - self.seconds)
        AccessAttempt.objects.update(attempt_time=F("attempt_time") - step)
        self.seconds = seconds


def failures(**match: str) -> int:
    """The failed logins axes holds for a username or an address (ip_address=…)."""
    rows = AccessAttempt.objects.filter(**match)
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0

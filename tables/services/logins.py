"""Login throttling (issues 12, 26): the failures a lockout counts, recorded and cleared.

After LOGIN_FAILURE_LIMIT wrong passwords for one username within
LOGIN_LOCKOUT_SECONDS, the username is locked until the window ends: every
attempt is refused, even with the right password (the check, a read, is
tables/policy/logins.py). A success clears that username's count. One client
address is bounded too (LOGIN_ADDRESS_FAILURE_LIMIT), so rotating made-up
usernames does not get past the per-username count; a success does not clear
an address's count, or a guesser with an account of its own could reset it.

Every login path records here: tables/login_signals.py listens to Django's own
user_login_failed / user_logged_in, which authenticate() and login() send, so
/login/ and /admin/login/ count the same failures.

The failures are rows in the database (LoginFailure), so the count holds across
server processes with or without Redis. Attempts refused while locked are not
recorded: the lock ends with the window, however long a guesser keeps trying.
"""

from __future__ import annotations

from django.db import transaction

from tables.models import LoginFailure
from tables.models.logins import ADDRESS_MAX
from tables.policy import logins as policy


def record_failure(username: str, address: str = "") -> None:
    now = policy.clock()
    with transaction.atomic():
        # Rows out of every window count for nobody: the table stays small.
        LoginFailure.objects.filter(at__lte=now - policy.window()).delete()
        LoginFailure.objects.create(
            username=policy.login_name(username), address=address[:ADDRESS_MAX], at=now
        )


def clear_failures(username: str) -> int:
    """Lift a username's lockout (a login, a password reset, manage.py unlock_login)."""
    deleted, _ = LoginFailure.objects.filter(username=policy.login_name(username)).delete()
    return deleted


def clear_address_failures(address: str) -> int:
    """Lift an address's lockout (manage.py unlock_login --address); how many rows went."""
    deleted, _ = LoginFailure.objects.filter(address=policy.address_key(address)).delete()
    return deleted

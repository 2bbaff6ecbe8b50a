"""Login throttling (issue 12): the failures a lockout counts, recorded and cleared.

After LOGIN_FAILURE_LIMIT wrong passwords for one username within
LOGIN_LOCKOUT_SECONDS, the username is locked until the window ends: every
attempt is refused, even with the right password (the check, a read, is
tables/policy/logins.py). A success clears the count.

By username, not by address: behind a proxy every request comes from the
proxy's address, and one guesser would lock everybody out.

The failures are rows in the database (LoginFailure), so the count holds across
server processes with or without Redis. Attempts refused while locked are not
recorded: the lock ends with the window, however long a guesser keeps trying.
Guesses already past the check when the limit is reached still run, so a
guesser gets at most the limit plus the guesses it has in flight at once.
"""

from __future__ import annotations

from django.db import transaction

from tables.models import LoginFailure
from tables.policy import logins as policy


def record_failure(username: str) -> None:
    now = policy.clock()
    with transaction.atomic():
        # Rows out of every window count for nobody: the table stays small.
        LoginFailure.objects.filter(at__lte=now - policy.window()).delete()
        LoginFailure.objects.create(username=policy.login_name(username), at=now)


def clear_failures(username: str) -> None:
    LoginFailure.objects.filter(username=policy.login_name(username)).delete()

"""The login forms, throttled (issues 12, 26): one lockout for every login path.

The site's /login/ and the admin's /admin/login/ both refuse a username, or a
client address, with too many recent wrong passwords, even with the right
password, and say which and for how long (tables/lockout.py, over django-axes).
Axes records the failures from Django's auth signals, whichever form checked them,
and its authentication backend refuses a locked-out login on any other path.

A password check hashes for a good part of a second of CPU. One process checks
LOGIN_CHECKS_AT_ONCE at a time, lockout read included, so a storm of guesses
queues here instead of taking every core from the other pages, and a guess
waiting its turn sees the failures of those before it. The check runs in a thread
of its own (momenta_site/http_handler.py), which is given a lower CPU priority
(Linux), so the pages go first when the cores are busy.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import threading

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connections
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

LOCKOUT_MESSAGES = {
    "locked_out": _("Too many failed logins for this account. Try again in %(wait)s."),
    "address_locked_out": _("Too many failed logins from your address. Try again in %(wait)s."),
}


# How much lower than the pages a password check runs (a nice value, Linux).
PASSWORD_CHECK_NICE = 10


@functools.cache
def _checks(at_once: int) -> threading.BoundedSemaphore:
    """The process's turns for password checks (one per setting value, for tests)."""
    return threading.BoundedSemaphore(at_once)


def _give_back_connections() -> None:
    """Return this thread's database connections before waiting for a turn: a queue
    of guesses must not hold the pool's connections while it waits."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _yield_cpu_to_pages() -> None:
    """Lower this thread's CPU priority, if it is a request's own thread (discarded
    with its request: the priority cannot be raised back without privileges)."""
    if threading.current_thread() is threading.main_thread():
        return  # e.g. the test client's: the whole process would run lower
    with contextlib.suppress(AttributeError, OSError):  # not Linux
        # On Linux, PRIO_PROCESS with a thread's id sets that thread's nice value;
        # raised from the process's own (which may be niced already), 19 at most.
        thread = threading.get_native_id()
        now = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, now + PASSWORD_CHECK_NICE))


class LockoutMixin:
    """The lockout every login form shares; mixed in before an AuthenticationForm."""

    def clean(self):
        _give_back_connections()
        with _checks(settings.LOGIN_CHECKS_AT_ONCE):
            _yield_cpu_to_pages()
            self._refuse_if_locked()
            return super().clean()

    def _refuse_if_locked(self) -> None:
        # Asked before the password check (axes' backend would refuse it too, but
        # without saying which lockout, or until when). Without a request, axes'
        # backend refuses to check a password at all.
        if self.request is None:
            return
        AxesProxyHandler.update_request(self.request)
        credentials = {"username": self.attempted_username()}
        found = AxesProxyHandler.get_implementation().lockout(self.request, credentials)
        if found is not None:
            seconds = (found.until - self.request.axes_attempt_time).total_seconds()
            minutes = max(1, math.ceil(seconds / 60))
            wait = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
            # One code for both: the view answers 429 for it.
            raise ValidationError(
                self.error_messages[found.code], code="locked_out", params={"wait": wait}
            )

    def attempted_username(self) -> str:
        """The username as typed (empty if missing): what failures are counted by."""
        return self.cleaned_data.get("username") or ""

    def locked_out(self) -> bool:
        return self.has_error(NON_FIELD_ERRORS, "locked_out")


class ThrottledAuthenticationForm(LockoutMixin, AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, **LOCKOUT_MESSAGES}


class ThrottledAdminAuthenticationForm(LockoutMixin, AdminAuthenticationForm):
    """The admin's login form (staff only), behind the same lockout (tables/admin.py)."""

    error_messages = {**AdminAuthenticationForm.error_messages, **LOCKOUT_MESSAGES}

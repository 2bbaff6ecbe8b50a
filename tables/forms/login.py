"""The login form, throttled (issue 12): after LOGIN_FAILURE_LIMIT wrong passwords for
one username within LOGIN_LOCKOUT_SECONDS, every attempt for it is refused until the
window ends, even with the right password. A success clears the count.

By username, not by address: behind a proxy every request comes from the proxy's
address, and one guesser would lock everybody out.

The counters live in Django's cache: per process by default (as the in-memory
channel layer is), shared by every process with REDIS_URL.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError


def _key(username: str) -> str:
    return f"login-failures:{username.casefold()}"


def locked_out(username: str) -> bool:
    return (cache.get(_key(username)) or 0) >= settings.LOGIN_FAILURE_LIMIT


def record_failure(username: str) -> None:
    key, window = _key(username), settings.LOGIN_LOCKOUT_SECONDS
    # add() starts the window on the first failure; incr() keeps its expiry.
    if not cache.add(key, 1, timeout=window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.add(key, 1, timeout=window)


def clear_failures(username: str) -> None:
    cache.delete(_key(username))


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "locked_out": (
            "Too many failed logins for this account. Try again in %(minutes)d minutes."
        ),
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if locked_out(username):
            raise ValidationError(
                self.error_messages["locked_out"],
                code="locked_out",
                params={"minutes": max(1, settings.LOGIN_LOCKOUT_SECONDS // 60)},
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                record_failure(username)
            raise
        clear_failures(username)
        return cleaned

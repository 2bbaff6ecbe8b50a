"""Every login path counts its failures (issue 26): Django's authenticate() sends
user_login_failed and login() sends user_logged_in, whichever form or view asked,
so the site's login and the admin's share one count (tables/services/logins.py)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in, user_login_failed

from tables.models import PersonSettings
from tables.policy.locale import remember
from tables.policy.logins import client_address
from tables.services import logins


def _failed(sender, credentials, request=None, **kwargs) -> None:
    username = credentials.get("username") or ""
    logins.record_failure(username, client_address(request))


def _logged_in(sender, request, user, **kwargs) -> None:
    logins.clear_failures(user.get_username())
    # The person's language and time zone, read once here for every page of the session.
    if getattr(request, "session", None) is not None:
        remember(request.session, PersonSettings.of(user))


def connect() -> None:
    user_login_failed.connect(_failed, dispatch_uid="tables-login-failed")
    user_logged_in.connect(_logged_in, dispatch_uid="tables-logged-in")

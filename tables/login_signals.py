"""On every login, whichever form or view asked (Django's user_logged_in): the
person's language and time zone into the session (issue 28). The failures a
lockout counts are django-axes' own receivers' (tables/lockout.py)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in

from tables.models import PersonSettings
from tables.policy.locale import remember


def _logged_in(sender, request, user, **kwargs) -> None:
    # Read once here for every page of the session.
    if getattr(request, "session", None) is not None:
        remember(request.session, PersonSettings.of(user))


def connect() -> None:
    user_logged_in.connect(_logged_in, dispatch_uid="tables-logged-in")

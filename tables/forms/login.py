"""The login form, throttled (issue 12): a username with too many recent wrong
passwords is refused, even with the right one (tables/services/logins.py)."""

from __future__ import annotations

import math

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from tables.services import logins


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "locked_out": ("Too many failed logins for this account. Try again in %(wait)s."),
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        until = logins.locked_until(username)
        if until is not None:
            minutes = max(1, math.ceil((until - logins.clock()).total_seconds() / 60))
            raise ValidationError(
                self.error_messages["locked_out"],
                code="locked_out",
                params={"wait": f"{minutes} minute" + ("s" if minutes > 1 else "")},
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                logins.record_failure(username)
            raise
        logins.clear_failures(username)
        return cleaned

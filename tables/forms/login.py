"""The login form, throttled (issue 12): a username with too many recent wrong
passwords is refused, even with the right one (tables/policy/logins.py). The
view records each wrong password and clears them on success (views/site.py)."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from tables.policy.logins import locked_until, minutes_left


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "locked_out": ("Too many failed logins for this account. Try again in %(wait)s."),
    }

    def clean(self):
        until = locked_until(self.attempted_username())
        if until is not None:
            minutes = minutes_left(until)
            raise ValidationError(
                self.error_messages["locked_out"],
                code="locked_out",
                params={"wait": f"{minutes} minute" + ("s" if minutes > 1 else "")},
            )
        return super().clean()

    def attempted_username(self) -> str:
        """The username as typed (empty if missing): what failures are counted by."""
        return self.cleaned_data.get("username") or ""

    def wrong_password(self) -> bool:
        """Refused for its credentials (not for a lockout): a failure to count."""
        return self.has_error(NON_FIELD_ERRORS, "invalid_login")

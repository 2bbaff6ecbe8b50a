"""Password reset by email: Django's own views and forms, in our templates
(templates/registration/password_reset_*). The mail goes out through EMAIL_URL
(momenta_site/email_url.py); a link works once, for PASSWORD_RESET_TIMEOUT.

Two additions: one mail per account every few minutes at most
(tables/forms/passwords.py); and a new password set through the link lifts that
username's login lockout (tables/lockout.py). Whoever can read the
account's mail could reset it anyway, and a person locked out by someone guessing
gets in at once.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views

from tables import lockout
from tables.forms.passwords import SpacedPasswordResetForm


class PasswordResetView(auth_views.PasswordResetView):
    form_class = SpacedPasswordResetForm


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        response = super().form_valid(form)
        lockout.unlock_username(form.user.get_username())
        return response

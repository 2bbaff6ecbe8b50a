"""The password reset request (issue 27): Django's form, with one mail per account
per MAIL_INTERVAL_SECONDS, so the form cannot be used to flood someone's inbox (or
the site's mail quota). The page's answer is the same either way."""

from __future__ import annotations

from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache

MAIL_INTERVAL_SECONDS = 5 * 60


class SpacedPasswordResetForm(PasswordResetForm):
    def get_users(self, email):
        for user in super().get_users(email):
            # get, then set (not add): when Redis is away the get misses and the mail
            # goes out; a reset must not depend on the cache. Two requests racing
            # may both send: harmless.
            key = f"password-reset-mail:{user.pk}"
            if cache.get(key) is None:
                cache.set(key, True, MAIL_INTERVAL_SECONDS)
                yield user

"""Wrong passwords, kept in the database so a lockout holds across server processes."""

from django.db import models

USERNAME_MAX = 150  # auth.User's username length


class LoginFailure(models.Model):
    """One wrong password for a username (issue 12). The login form counts the
    recent rows for a name (tables/services/logins.py); a success deletes them."""

    username = models.CharField(max_length=USERNAME_MAX)  # casefolded: one count per name
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["username", "at"], name="login_failure_name_at"),
            models.Index(fields=["at"], name="login_failure_at"),
        ]

    def __str__(self) -> str:
        return f"{self.username} at {self.at:%Y-%m-%d %H:%M:%S}"

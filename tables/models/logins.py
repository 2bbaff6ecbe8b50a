"""Wrong passwords, kept in the database so a lockout holds across server processes."""

from django.db import models

USERNAME_MAX = 150  # auth.User's username length
ADDRESS_MAX = 45  # an IPv6 network as text ("2001:db8:1:2::/64")


class LoginFailure(models.Model):
    """One wrong password for a username, from a client address (issues 12, 26). The
    login form counts the recent rows for a name and for an address
    (tables/policy/logins.py); a success deletes the name's."""

    username = models.CharField(max_length=USERNAME_MAX)  # casefolded: one count per name
    # The client's address, an IPv6 one as its /64 network; blank when unknown. A
    # database default too: during a rolling restart, old code inserts rows without it.
    address = models.CharField(max_length=ADDRESS_MAX, blank=True, default="", db_default="")
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["username", "at"], name="login_failure_name_at"),
            models.Index(fields=["at"], name="login_failure_at"),
            models.Index(fields=["address", "at"], name="login_failure_address_at"),
        ]

    def __str__(self) -> str:
        return f"{self.username} at {self.at:%Y-%m-%d %H:%M:%S}"

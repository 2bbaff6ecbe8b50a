"""What a secret roll is, shared by Momenta rolls and 2d20 tests (TB-03)."""

from django.db import models


class SecretRecord(models.Model):
    """A play record that may be rolled in secret: GM-only until revealed (TB-03)."""

    secret = models.BooleanField(default=False)
    revealed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    @property
    def hidden(self) -> bool:
        """GM-only right now (TB-03)."""
        return self.secret and not self.revealed

"""What a secret roll is, shared by Momenta rolls and 2d20 tests (TB-03)."""

from django.db import models
from django.utils.translation import gettext_lazy


class SecretRecord(models.Model):
    """A play record that may be rolled in secret: GM-only until revealed (TB-03)."""

    secret = models.BooleanField(default=False, verbose_name=gettext_lazy("Secret"))
    revealed = models.BooleanField(default=False, verbose_name=gettext_lazy("Revealed"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    @property
    def hidden(self) -> bool:
        """GM-only right now (TB-03)."""
        return self.secret and not self.revealed

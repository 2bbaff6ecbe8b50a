"""One person's own settings: how the site looks to them, not game state (issue 14)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class PersonSettings(models.Model):
    """A person's display preferences, one row per user, made on their first save.
    Nobody else reads or changes them; no campaign owns them, so no export carries them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_settings"
    )
    # Off by default: motion is opt-in; site.css also drops it under prefers-reduced-motion.
    animate_dice = models.BooleanField(
        gettext_lazy("Animate new dice"),
        default=False,
        help_text=gettext_lazy(
            "A short tumble of the newest roll's dice. Never when your system asks "
            "for reduced motion."
        ),
    )

    class Meta:
        verbose_name_plural = "person settings"

    def __str__(self) -> str:
        return f"settings of {self.user}"

    @classmethod
    def of(cls, user) -> PersonSettings:
        """The user's settings, or the defaults (unsaved) for one who never saved any."""
        if not user.is_authenticated:
            return cls()
        return cls.objects.filter(user=user).first() or cls(user=user)

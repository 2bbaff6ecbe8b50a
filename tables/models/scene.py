"""The running scene's board (issue 23, MO-09b): traits, complications and Threads.

Data only; every change goes through tables/services/scene_board.py as an ordered
TableEvent. A removed entry keeps its row (removed_at set), so a GM veto of the spend
that removed it can put it back, and a command naming it can say it is gone.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from .core import Campaign, Character, Scene

__all__ = ["SceneTrait", "TRAIT_TEXT_MAX"]

TRAIT_TEXT_MAX = 200


class SceneTrait(models.Model):
    class Kind(models.TextChoices):
        TRAIT = "trait", _("Trait")
        COMPLICATION = "complication", _("Complication")
        THREAD = "thread", _("Thread")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="scene_traits",
        verbose_name=gettext_lazy("Campaign"),
    )
    scene = models.ForeignKey(
        Scene, on_delete=models.CASCADE, related_name="traits", verbose_name=gettext_lazy("Scene")
    )
    kind = models.CharField(
        max_length=12, choices=Kind.choices, default=Kind.TRAIT, verbose_name=gettext_lazy("Kind")
    )
    text = models.CharField(max_length=TRAIT_TEXT_MAX, verbose_name=gettext_lazy("Text"))
    # Who or what made it, in words for the board ("Kara's Create Trait spend").
    origin = models.CharField(max_length=200, blank=True, verbose_name=gettext_lazy("Origin"))
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Made by"),
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Character"),
    )
    # The Create Trait spend that made it (MO-09): a veto of that spend finds it here.
    test = models.ForeignKey(
        "tables.D20Test",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Test"),
    )
    spend_index = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Spend number")
    )
    hidden = models.BooleanField(
        default=False, verbose_name=gettext_lazy("Hidden")
    )  # GM-only until revealed
    lasting = models.BooleanField(
        default=False, verbose_name=gettext_lazy("Lasting")
    )  # kept when the scene ends
    # The GM's ruling that it does not count for rolls: a roll that marks it is refused.
    refused = models.BooleanField(default=False, verbose_name=gettext_lazy("Refused"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))
    removed_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("Removed at")
    )

    class Meta:
        verbose_name = gettext_lazy("scene trait")
        verbose_name_plural = gettext_lazy("scene traits")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="scene_trait_text_not_empty"),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def standing(self) -> bool:
        return self.removed_at is None

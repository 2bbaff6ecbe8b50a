"""The running scene's board (issue 23, MO-09b): traits, complications and Threads.

Data only; every change goes through tables/services/scene_board.py as an ordered
TableEvent. A removed entry keeps its row (removed_at set), so a GM veto of the spend
that removed it can put it back, and a command naming it can say it is gone.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .core import Campaign, Character, Scene

__all__ = ["SceneTrait", "TRAIT_TEXT_MAX"]

TRAIT_TEXT_MAX = 200


class SceneTrait(models.Model):
    class Kind(models.TextChoices):
        TRAIT = "trait", _("Trait")
        COMPLICATION = "complication", _("Complication")
        THREAD = "thread", _("Thread")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scene_traits")
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="traits")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TRAIT)
    text = models.CharField(max_length=TRAIT_TEXT_MAX)
    # Who or what made it, in words for the board ("Kara's Create Trait spend").
    origin = models.CharField(max_length=200, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The Create Trait spend that made it (MO-09): a veto of that spend finds it here.
    test = models.ForeignKey(
        "tables.D20Test", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    spend_index = models.PositiveSmallIntegerField(null=True, blank=True)
    hidden = models.BooleanField(default=False)  # GM-only until revealed
    lasting = models.BooleanField(default=False)  # kept when the scene ends
    # The GM's ruling that it does not count for rolls: a roll that marks it is refused.
    refused = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="scene_trait_text_not_empty"),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def standing(self) -> bool:
        return self.removed_at is None

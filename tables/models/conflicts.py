"""A conflict's turn order (issue 24, SC-01): who takes part, who acts, who has acted.

Data only; every change goes through tables/services/conflicts/turns.py as an ordered
TableEvent. One conflict at a time runs in a campaign (ended_at null).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from .core import Campaign, Character, Scene

__all__ = ["Conflict", "Participant"]


class Conflict(models.Model):
    """The participant acting is the one marked `acting` (Conflict.acting finds it)."""

    class Mode(models.TextChoices):
        # 2d20: the sides alternate, a side may Keep the Initiative (SC-01).
        SIDES = "sides", _("Sides alternate")
        # Momenta's structured play: the GM's order, each acts once a round.
        ORDERED = "ordered", _("The GM's order")
        # SC-04 (Conan): the player characters first, in any order; the GM pays to interrupt.
        FIRST = "first", _("Players first")
        # SC-04 (Fallout): by Initiative, highest first; the GM pays to interrupt.
        INITIATIVE = "init", _("By Initiative")

    class Side(models.TextChoices):
        PLAYERS = "players", _("The players' side")
        GM = "gm", _("The GM's side")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="conflicts",
        verbose_name=gettext_lazy("Campaign"),
    )
    scene = models.ForeignKey(
        Scene,
        on_delete=models.CASCADE,
        related_name="conflicts",
        verbose_name=gettext_lazy("Scene"),
    )
    mode = models.CharField(max_length=8, choices=Mode.choices, verbose_name=gettext_lazy("Mode"))
    round = models.PositiveIntegerField(default=1, verbose_name=gettext_lazy("Round"))
    # The side whose character acted last ("" before the first turn), and whether that
    # turn was itself bought by Keep the Initiative (SC-01: not kept twice in a row).
    last_side = models.CharField(
        max_length=8, choices=Side.choices, blank=True, verbose_name=gettext_lazy("Last side")
    )
    last_kept = models.BooleanField(default=False, verbose_name=gettext_lazy("Last turn kept"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("Ended at"))

    class Meta:
        verbose_name = gettext_lazy("conflict")
        verbose_name_plural = gettext_lazy("conflicts")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(ended_at__isnull=True),
                name="one_running_conflict",
            ),
        ]

    def __str__(self) -> str:
        return f"Conflict {self.pk} (round {self.round})"

    @property
    def acting(self):
        """The participant acting now, or None (read once per instance)."""
        if not hasattr(self, "_acting"):
            found = self.participants.filter(acting=True).select_related("character")
            self._acting = found.first()
        return self._acting

    def remember_acting(self, participant: "Participant | None") -> None:
        """A command that just marked who acts (or that no one does) says so here, so
        `acting` answers from it without reading the rows again."""
        self._acting = participant


class Participant(models.Model):
    conflict = models.ForeignKey(
        Conflict,
        on_delete=models.CASCADE,
        related_name="participants",
        verbose_name=gettext_lazy("Conflict"),
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=gettext_lazy("Character"),
    )
    side = models.CharField(
        max_length=8, choices=Conflict.Side.choices, verbose_name=gettext_lazy("Side")
    )
    position = models.PositiveIntegerField(verbose_name=gettext_lazy("Position"))
    acting = models.BooleanField(
        default=False, verbose_name=gettext_lazy("Acting")
    )  # at most one per conflict
    acted = models.BooleanField(
        default=False, verbose_name=gettext_lazy("Acted")
    )  # this round (a skipped turn counts)
    # SC-04 (Fallout): the Initiative it was ordered by; None in the other orders.
    initiative = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Initiative")
    )

    class Meta:
        verbose_name = gettext_lazy("participant")
        verbose_name_plural = gettext_lazy("participants")
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["conflict", "character"], name="one_place_per_character"
            ),
            models.UniqueConstraint(
                fields=["conflict"], condition=Q(acting=True), name="one_acting_per_conflict"
            ),
        ]

    def __str__(self) -> str:
        return str(self.character)

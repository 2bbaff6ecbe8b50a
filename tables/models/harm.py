"""Harm tracks (SC-02) and extended tasks (SC-03): data only.

Changes go through tables/services/harm.py and tables/services/extended_tasks.py, each
as an ordered TableEvent; `HarmEntry` is the tracks' ledger (like PoolChange for pools)
and also what stops one roll being applied twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from .core import Campaign, Character, Scene
from .d20 import D20Test
from .events import TableEvent
from .momenta import MomentaRoll

__all__ = ["ExtendedTask", "ExtendedTaskRoll", "HarmEntry", "HarmTrack"]


class HarmTrack(models.Model):
    """One of a character's tracks (rules.harm.LINE_TRACKS): `taken` of `maximum`."""

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="harm_tracks",
        verbose_name=gettext_lazy("Campaign"),
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="harm_tracks",
        verbose_name=gettext_lazy("Character"),
    )
    track = models.CharField(max_length=20, verbose_name=gettext_lazy("Track"))
    taken = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Taken"))
    maximum = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Maximum"))
    # An NPC's harm the GM keeps to themself: its events go to the GM audience only.
    hidden = models.BooleanField(default=False, verbose_name=gettext_lazy("Hidden"))

    class Meta:
        verbose_name = gettext_lazy("harm track")
        verbose_name_plural = gettext_lazy("harm tracks")
        ordering = ["character_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["character", "track"], name="unique_harm_track"),
            models.CheckConstraint(condition=Q(taken__lte=F("maximum")), name="harm_within_track"),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.track} {self.taken}/{self.maximum}"


class HarmEntry(models.Model):
    """One move of a track: damage or recovery, why, and the roll it came from."""

    event = models.ForeignKey(
        TableEvent,
        on_delete=models.CASCADE,
        related_name="harm_entries",
        verbose_name=gettext_lazy("Event"),
    )
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="harm_entries",
        verbose_name=gettext_lazy("Campaign"),
    )
    track = models.ForeignKey(
        HarmTrack,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=gettext_lazy("Track"),
    )
    delta = models.SmallIntegerField(verbose_name=gettext_lazy("Delta"))
    after = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("After"))
    lost = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Lost"))
    reason = models.CharField(max_length=200, verbose_name=gettext_lazy("Reason"))
    momenta_roll = models.ForeignKey(
        MomentaRoll,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Momenta roll"),
    )
    d20_test = models.ForeignKey(
        D20Test,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("2d20 test"),
    )
    # The hit's first line (its harms ride beside it): one hit per roll (SC-02).
    hit = models.BooleanField(default=False, verbose_name=gettext_lazy("Hit"))

    class Meta:
        verbose_name = gettext_lazy("harm entry")
        verbose_name_plural = gettext_lazy("harm entries")
        ordering = ["-event__seq", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["momenta_roll"], condition=Q(hit=True), name="one_hit_per_momenta_roll"
            ),
            models.UniqueConstraint(
                fields=["d20_test"], condition=Q(hit=True), name="one_hit_per_d20_test"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.track} {self.delta:+d} ({self.reason})"


class ExtendedTask(models.Model):
    """An extended task in a scene (rules.extended): Work/progress, Magnitude, Resistance."""

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="extended_tasks",
        verbose_name=gettext_lazy("Campaign"),
    )
    scene = models.ForeignKey(
        Scene,
        on_delete=models.CASCADE,
        related_name="extended_tasks",
        verbose_name=gettext_lazy("Scene"),
    )
    name = models.CharField(_("name"), max_length=100)
    rule = models.CharField(
        max_length=10, verbose_name=gettext_lazy("Rule")
    )  # rules.extended.RULES
    work = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Work"))
    magnitude = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Magnitude"))
    resistance = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Resistance")
    )
    difficulty = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Difficulty")
    )
    breakthrough_at = models.JSONField(
        default=list, blank=True, verbose_name=gettext_lazy("Breakthrough every")
    )
    progress = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Progress"))
    breakthroughs = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Breakthroughs")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("Closed at"))

    class Meta:
        verbose_name = gettext_lazy("extended task")
        verbose_name_plural = gettext_lazy("extended tasks")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__lte=F("work")), name="task_progress_within_work"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class ExtendedTaskRoll(models.Model):
    """A 2d20 test linked to a task, and what it added (a test feeds one task, once)."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="+", verbose_name=gettext_lazy("Campaign")
    )
    task = models.ForeignKey(
        ExtendedTask,
        on_delete=models.CASCADE,
        related_name="rolls",
        verbose_name=gettext_lazy("Task"),
    )
    test = models.OneToOneField(
        D20Test,
        on_delete=models.CASCADE,
        related_name="extended_task",
        verbose_name=gettext_lazy("Test"),
    )
    event = models.ForeignKey(
        TableEvent, on_delete=models.CASCADE, related_name="+", verbose_name=gettext_lazy("Event")
    )
    value = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Value"))
    amount = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Amount"))
    breakthroughs = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Breakthroughs"))

    class Meta:
        verbose_name = gettext_lazy("extended task roll")
        verbose_name_plural = gettext_lazy("extended task rolls")

    def __str__(self) -> str:
        return f"{self.test} -> {self.task} (+{self.amount})"

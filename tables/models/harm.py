"""Harm tracks (SC-02) and extended tasks (SC-03): data only.

Changes go through tables/services/harm.py and tables/services/extended_tasks.py, each
as an ordered TableEvent; `HarmEntry` is the tracks' ledger (like PoolChange for pools)
and also what stops one roll being applied twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .core import Campaign, Character, Scene
from .d20 import D20Test
from .events import TableEvent
from .momenta import MomentaRoll

__all__ = ["ExtendedTask", "ExtendedTaskRoll", "HarmEntry", "HarmTrack"]


class HarmTrack(models.Model):
    """One of a character's tracks (rules.harm.LINE_TRACKS): `taken` of `maximum`."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="harm_tracks")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="harm_tracks")
    track = models.CharField(max_length=20)
    taken = models.PositiveSmallIntegerField(default=0)
    maximum = models.PositiveSmallIntegerField()
    # An NPC's harm the GM keeps to themself: its events go to the GM audience only.
    hidden = models.BooleanField(default=False)

    class Meta:
        ordering = ["character_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["character", "track"], name="unique_harm_track"),
            models.CheckConstraint(condition=Q(taken__lte=F("maximum")), name="harm_within_track"),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.track} {self.taken}/{self.maximum}"


class HarmEntry(models.Model):
    """One move of a track: damage or recovery, why, and the roll it came from."""

    event = models.ForeignKey(TableEvent, on_delete=models.CASCADE, related_name="harm_entries")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="harm_entries")
    track = models.ForeignKey(HarmTrack, on_delete=models.CASCADE, related_name="entries")
    delta = models.SmallIntegerField()
    after = models.PositiveSmallIntegerField()
    lost = models.PositiveSmallIntegerField(default=0)
    reason = models.CharField(max_length=200)
    momenta_roll = models.ForeignKey(
        MomentaRoll, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    d20_test = models.ForeignKey(
        D20Test, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The hit's first line (its harms ride beside it): one hit per roll (SC-02).
    hit = models.BooleanField(default=False)

    class Meta:
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

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="extended_tasks")
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="extended_tasks")
    name = models.CharField(_("name"), max_length=100)
    rule = models.CharField(max_length=10)  # rules.extended.RULES
    work = models.PositiveSmallIntegerField()
    magnitude = models.PositiveSmallIntegerField(default=0)
    resistance = models.PositiveSmallIntegerField(default=0)
    difficulty = models.PositiveSmallIntegerField(default=0)
    breakthrough_at = models.JSONField(default=list, blank=True)
    progress = models.PositiveSmallIntegerField(default=0)
    breakthroughs = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
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

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    task = models.ForeignKey(ExtendedTask, on_delete=models.CASCADE, related_name="rolls")
    test = models.OneToOneField(D20Test, on_delete=models.CASCADE, related_name="extended_task")
    event = models.ForeignKey(TableEvent, on_delete=models.CASCADE, related_name="+")
    value = models.PositiveSmallIntegerField()
    amount = models.PositiveSmallIntegerField()
    breakthroughs = models.PositiveSmallIntegerField()

    def __str__(self) -> str:
        return f"{self.test} -> {self.task} (+{self.amount})"

"""A test the GM calls for: one character's, or everyone's at the table.

Imported into tables.models, so this is an ordinary `tables` model. The call holds
what the GM decided before the roll (2d20: attribute, skill, focus, Difficulty,
complication range; Momenta: attribute, action or luck roll, opposition dice,
Disadvantage and a situational edge) and,
once answered, the roll that answered it. `hidden` keeps the Difficulty (2d20) or the
opposition dice (Momenta) from players until the dice land
(tables/services/calls.py, tables/presenters/calls.py).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

__all__ = ["CalledTest"]


class CalledTest(models.Model):
    class System(models.TextChoices):
        D20 = "d20", gettext_lazy("2d20 skill test")
        MOMENTA = "momenta", gettext_lazy("Momenta roll")

    class State(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for the roll")
        ANSWERED = "answered", gettext_lazy("Rolled")
        CANCELLED = "cancelled", gettext_lazy("Called off")

    class Kind(models.TextChoices):  # Momenta only (D6-08, D6-11)
        ACTION = "action", gettext_lazy("Action roll")
        LUCK = "luck", gettext_lazy("Luck roll")

    campaign = models.ForeignKey(
        "tables.Campaign",
        on_delete=models.CASCADE,
        related_name="called_tests",
        verbose_name=gettext_lazy("Campaign"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Actor"),
    )
    # None: everyone at the table is called; each player answers with one character.
    character = models.ForeignKey(
        "tables.Character",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="called_tests",
        verbose_name=gettext_lazy("Character"),
    )
    system = models.CharField(
        max_length=8, choices=System.choices, verbose_name=gettext_lazy("System")
    )
    attribute = models.CharField(max_length=40, verbose_name=gettext_lazy("Attribute"))
    skill = models.CharField(max_length=40, blank=True, verbose_name=gettext_lazy("Skill"))  # 2d20
    focus = models.CharField(
        max_length=120, blank=True, verbose_name=gettext_lazy("Focus")
    )  # 2d20, optional
    difficulty = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Difficulty")
    )  # 2d20: 0..5
    complication_range = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Complication range")
    )  # 2d20
    kind = models.CharField(
        max_length=8, choices=Kind.choices, blank=True, verbose_name=gettext_lazy("Kind")
    )  # Momenta
    opposition_pool = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Opposition pool")
    )  # Momenta
    # Momenta: what the GM calls where players do not declare it (PM-02, PM-05): the roll
    # is made with Disadvantage; a situational edge is the roller's Advantage to pay for.
    # db_default: the previous release's INSERTs leave them out while an upgrade runs.
    disadvantage = models.BooleanField(
        default=False, db_default=False, verbose_name=gettext_lazy("Disadvantage")
    )
    edge = models.BooleanField(default=False, db_default=False, verbose_name=gettext_lazy("Edge"))
    # The Difficulty (or opposition) is the GM's until the dice land.
    hidden = models.BooleanField(default=False, verbose_name=gettext_lazy("Hidden"))
    note = models.CharField(max_length=120, blank=True, verbose_name=gettext_lazy("Note"))
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.OPEN, verbose_name=gettext_lazy("State")
    )
    answered_by = models.ForeignKey(
        "tables.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Answered by"),
    )
    d20_test = models.ForeignKey(
        "tables.D20Test",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("2d20 test"),
    )
    momenta_roll = models.ForeignKey(
        "tables.MomentaRoll",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Momenta roll"),
    )
    event = models.ForeignKey(
        "tables.TableEvent",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=gettext_lazy("The event that made the call."),
        verbose_name=gettext_lazy("Event"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))

    class Meta:
        verbose_name = gettext_lazy("called test")
        verbose_name_plural = gettext_lazy("called tests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(difficulty__isnull=True) | Q(difficulty__lte=5),
                name="called_test_difficulty_0_5",
            ),
        ]

    def __str__(self) -> str:
        who = self.character.name if self.character_id else "everyone"
        return f"Test called for {who}: {self.attribute}"

    @property
    def is_open(self) -> bool:
        return self.state == self.State.OPEN

    @property
    def for_everyone(self) -> bool:
        return self.character_id is None

    @property
    def secret_now(self) -> bool:
        """Is the Difficulty (or opposition) still the GM's alone?"""
        return self.hidden and self.state != self.State.ANSWERED

"""2d20 play: skill tests, contests and the GM's custom Momentum spends.

Imported into tables.models (the app's model module), so these are ordinary
`tables` models. What a test *means* is decided by rules/; a D20Test row keeps
the plain values rules/ needs to score it again: the spec (everything decided
before the roll) and the faces. `result` and `ledger` are stored for display
and for the spend ledger, which lives between HTTP requests (MO-02).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from .secret import SecretRecord

__all__ = ["Contest", "CustomSpend", "D20Test"]


class Contest(models.Model):
    """CT-01 … CT-05: the opposer rolls first; the active character then rolls against it."""

    class State(models.TextChoices):
        AWAITING = "awaiting", gettext_lazy("Waiting for the active character's roll")
        ROLLED = "rolled", gettext_lazy("Active character has rolled")
        RESOLVED = "resolved", gettext_lazy("Resolved")
        CANCELLED = "cancelled", gettext_lazy("Called off")

    campaign = models.ForeignKey(
        "tables.Campaign",
        on_delete=models.CASCADE,
        related_name="contests",
        verbose_name=gettext_lazy("Campaign"),
    )
    opposer = models.ForeignKey(
        "tables.Character",
        on_delete=models.CASCADE,
        related_name="contests_opposed",
        verbose_name=gettext_lazy("Opposer"),
    )
    active = models.ForeignKey(
        "tables.Character",
        on_delete=models.CASCADE,
        related_name="contests_active",
        verbose_name=gettext_lazy("Active"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Actor"),
    )
    # Factors hindering the opposer: each lowers the Difficulty they set by 1 (CT-02).
    hindrances = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Hindrances")
    )
    # The opposer's successes less hindrances, not below 0 (CT-01, CT-02).
    difficulty = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Difficulty")
    )
    state = models.CharField(
        max_length=10,
        choices=State.choices,
        default=State.AWAITING,
        verbose_name=gettext_lazy("State"),
    )
    active_won = models.BooleanField(
        null=True, blank=True, verbose_name=gettext_lazy("Active side won")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))

    class Meta:
        verbose_name = gettext_lazy("contest")
        verbose_name_plural = gettext_lazy("contests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(opposer=models.F("active")), name="contest_two_characters"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.opposer} opposes {self.active}"

    @property
    def is_open(self) -> bool:
        return self.state in (self.State.AWAITING, self.State.ROLLED)


class D20Test(SecretRecord):
    """One 2d20 skill test (T-R1 … T-05) and its Momentum (MO-01 … MO-12, CT-03, CT-04).

    spec:   target, attribute, skill, focus_name, focus, difficulty, factors,
            bought_dice, paid {from_momentum, to_threat, threat_spent},
            assistants [{character_id, name, attribute, skill, target, focus}],
            bonus_momentum, bonus_restricted_to, complication_range,
            assistance_needs_leader_success, opposed.
    result: the scored faces (rules.d20.SkillTestResult as plain values).
    ledger: the open spend ledger (rules.momentum.MomentumSpendLedger as plain
            values): side, holder, holder_character_id, roll and bonus
            Momentum left, each spend with where its points came from, refunds
            and vetoes, and once resolved where the rest went.
    """

    class State(models.TextChoices):
        ROLLED = "rolled", gettext_lazy("Rolled")  # Determination may still reroll (T-04)
        SPENDING = (
            "spending",
            gettext_lazy("Spending Momentum"),
        )  # a spend was made: no more rerolls
        RESOLVED = "resolved", gettext_lazy("Resolved")

    class Role(models.TextChoices):
        TEST = "test", gettext_lazy("Skill test")
        OPPOSER = "opposer", gettext_lazy("Contest: opposer's roll")
        ACTIVE = "active", gettext_lazy("Contest: active character's roll")

    campaign = models.ForeignKey(
        "tables.Campaign",
        on_delete=models.CASCADE,
        related_name="d20_tests",
        verbose_name=gettext_lazy("Campaign"),
    )
    character = models.ForeignKey(
        "tables.Character",
        on_delete=models.CASCADE,
        related_name="d20_tests",
        verbose_name=gettext_lazy("Character"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Actor"),
    )
    event = models.ForeignKey(
        "tables.TableEvent",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=gettext_lazy("The event that announced the roll."),
        verbose_name=gettext_lazy("Event"),
    )
    role = models.CharField(
        max_length=10, choices=Role.choices, default=Role.TEST, verbose_name=gettext_lazy("Role")
    )
    contest = models.ForeignKey(
        Contest,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tests",
        verbose_name=gettext_lazy("Contest"),
    )
    spec = models.JSONField(default=dict, verbose_name=gettext_lazy("Specification"))
    result = models.JSONField(default=dict, verbose_name=gettext_lazy("Result"))
    ledger = models.JSONField(default=dict, blank=True, verbose_name=gettext_lazy("Ledger"))
    state = models.CharField(
        max_length=10,
        choices=State.choices,
        default=State.ROLLED,
        verbose_name=gettext_lazy("State"),
    )
    # T-04: Determination needs the GM's leave, given per test.
    determination_permitted = models.BooleanField(
        default=False, verbose_name=gettext_lazy("Determination allowed")
    )

    def __str__(self) -> str:
        return f"{self.character} test #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.state != self.State.RESOLVED

    class Meta:
        verbose_name = gettext_lazy("2d20 test")
        verbose_name_plural = gettext_lazy("2d20 tests")


class CustomSpend(models.Model):
    """MO-14: a Momentum spend the GM defines for the campaign."""

    campaign = models.ForeignKey(
        "tables.Campaign",
        on_delete=models.CASCADE,
        related_name="custom_spends",
        verbose_name=gettext_lazy("Campaign"),
    )
    name = models.CharField(max_length=60, verbose_name=gettext_lazy("Name"))
    cost = models.PositiveSmallIntegerField(default=1, verbose_name=gettext_lazy("Cost"))
    repeatable = models.BooleanField(
        default=False,
        help_text=gettext_lazy("May be used more than once a test."),
        verbose_name=gettext_lazy("Repeatable"),
    )
    description = models.CharField(
        max_length=200, blank=True, verbose_name=gettext_lazy("Description")
    )

    class Meta:
        verbose_name = gettext_lazy("custom spend")
        verbose_name_plural = gettext_lazy("custom spends")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_custom_spend_name"),
            models.CheckConstraint(condition=Q(cost__gte=1), name="custom_spend_cost_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.cost})"

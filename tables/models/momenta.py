"""Momenta play: rolls, roll templates, custom patterns and Assists (D6, PAT, PM, RS).

Data only; decisions live in rules/ and changes in tables/services_momenta.py.
A roll stores the engine's own serialised spec and result, so it can be read
back (and its patterns applied later) exactly as it fell.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from rules.templates import RollTemplate as RulesTemplate

from .core import Campaign, Character
from .events import TableEvent
from .secret import SecretRecord

__all__ = ["AssistRequest", "CustomPattern", "MomentaRoll", "RollTemplate"]


class RollTemplate(models.Model):
    """What each band of a roll means (D6-04), editable by the GM per campaign.

    `data` is rules.templates.RollTemplate.to_dict(). With `campaign_labels`
    the band texts are the campaign's PAT-R2 labels at the time of the roll.
    """

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="roll_templates",
        verbose_name=gettext_lazy("Campaign"),
    )
    name = models.CharField(max_length=60, verbose_name=gettext_lazy("Name"))
    data = models.JSONField(default=dict, verbose_name=gettext_lazy("Data"))
    campaign_labels = models.BooleanField(
        gettext_lazy("Use the campaign's band labels (PAT-R2)"), default=False
    )
    position = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Position"))

    class Meta:
        verbose_name = gettext_lazy("roll template")
        verbose_name_plural = gettext_lazy("roll templates")
        ordering = ["position", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_roll_template_name")
        ]

    def __str__(self) -> str:
        return self.name

    def to_rules(self, campaign: Campaign | None = None) -> RulesTemplate:
        data = dict(self.data, name=self.name)
        if self.campaign_labels:
            data["bands"] = list((campaign or self.campaign).band_labels())
        return RulesTemplate.from_dict(data)

    @property
    def deals_harm(self) -> bool:
        return self.data.get("damage") is not None


class CustomPattern(models.Model):
    """A pattern the GM added (PAT-01..PAT-04); `data` is rules.patterns.Pattern.to_dict()."""

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="custom_patterns",
        verbose_name=gettext_lazy("Campaign"),
    )
    name = models.CharField(max_length=60, verbose_name=gettext_lazy("Name"))
    data = models.JSONField(default=dict, verbose_name=gettext_lazy("Data"))
    active = models.BooleanField(default=True, verbose_name=gettext_lazy("Active"))

    class Meta:
        verbose_name = gettext_lazy("custom pattern")
        verbose_name_plural = gettext_lazy("custom patterns")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_custom_pattern_name")
        ]

    def __str__(self) -> str:
        return self.name


class AssistRequest(models.Model):
    """One character offering to fund another's Advantage (PM-08..PM-10)."""

    class State(models.TextChoices):
        REQUESTED = "requested", gettext_lazy("Requested")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        DECLINED = "declined", gettext_lazy("Declined")
        USED = "used", gettext_lazy("Used")
        FAILED = "failed", gettext_lazy("Failed (the helper's test failed)")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="assist_requests",
        verbose_name=gettext_lazy("Campaign"),
    )
    roller = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="assists_asked",
        verbose_name=gettext_lazy("Roller"),
    )
    helper = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="assists_given",
        verbose_name=gettext_lazy("Helper"),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Requested by"),
    )
    state = models.CharField(
        max_length=10,
        choices=State.choices,
        default=State.REQUESTED,
        verbose_name=gettext_lazy("State"),
    )
    # PM-09: asked for in structured time. A hint only: the roll's own play mode
    # decides whether the Assist is the helper's action.
    structured = models.BooleanField(default=False, verbose_name=gettext_lazy("Structured"))
    # PM-08: the helper *may* pay: their player (the GM for an NPC) agreed. Without
    # it the GM's acceptance alone spends nothing of theirs.
    helper_agreed = models.BooleanField(default=False, verbose_name=gettext_lazy("Helper agreed"))
    # PM-10: the GM called a test from the helper; the Momentum is spent only if it passes.
    uncertain = models.BooleanField(default=False, verbose_name=gettext_lazy("Uncertain"))
    test_passed = models.BooleanField(
        null=True, blank=True, verbose_name=gettext_lazy("Test passed")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))

    class Meta:
        verbose_name = gettext_lazy("assist request")
        verbose_name_plural = gettext_lazy("assist requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(helper=F("roller")), name="assist_helper_not_roller"
            )
        ]

    def __str__(self) -> str:
        return f"{self.helper} assists {self.roller} ({self.state})"

    @property
    def is_open(self) -> bool:
        return self.state in (self.State.REQUESTED, self.State.ACCEPTED)


class MomentaRoll(SecretRecord):
    """One Momenta roll as it fell (TB-02: dice rolled on the server)."""

    class State(models.TextChoices):
        AWAITING_ALLOCATION = "awaiting_allocation", gettext_lazy("Awaiting the pattern allocation")
        RESOLVED = "resolved", gettext_lazy("Resolved")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="momenta_rolls",
        verbose_name=gettext_lazy("Campaign"),
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="momenta_rolls",
        verbose_name=gettext_lazy("Character"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Actor"),
    )
    # The event that announced the roll, and the ones that followed it.
    event = models.OneToOneField(
        TableEvent,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="momenta_roll",
        verbose_name=gettext_lazy("Event"),
    )
    patterns_event = models.OneToOneField(
        TableEvent,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Patterns' event"),
    )
    reveal_event = models.OneToOneField(
        TableEvent,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("Reveal event"),
    )
    assist = models.ForeignKey(
        AssistRequest,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
        verbose_name=gettext_lazy("Assist"),
    )
    spec = models.JSONField(
        verbose_name=gettext_lazy("Specification")
    )  # rules.d6.RollSpec.to_dict()
    result = models.JSONField(verbose_name=gettext_lazy("Result"))  # rules.d6.RollResult.to_dict()
    applied = models.JSONField(
        null=True, blank=True, verbose_name=gettext_lazy("Applied")
    )  # rules.d6.AppliedRoll.to_dict()
    # What the card shows (the event payload): names, sources, who paid.
    card = models.JSONField(default=dict, verbose_name=gettext_lazy("Card"))
    state = models.CharField(
        max_length=20,
        choices=State.choices,
        default=State.AWAITING_ALLOCATION,
        verbose_name=gettext_lazy("State"),
    )

    def __str__(self) -> str:
        return f"{self.character} roll #{self.pk} ({self.state})"

    @property
    def awaiting(self) -> bool:
        return self.state == self.State.AWAITING_ALLOCATION

    class Meta:
        verbose_name = gettext_lazy("Momenta roll")
        verbose_name_plural = gettext_lazy("Momenta rolls")

"""The ordered event log and the pool ledger."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from tables import events
from tables.words.said import worded

from .core import Campaign, Character


class TableEvent(models.Model):
    """One committed state change. seq is unique and gap-free per campaign."""

    class Audience(models.TextChoices):
        ALL = "all", gettext_lazy("Everyone at the table")
        GM = "gm", gettext_lazy("GM only")
        # Only the people the event names (a whisper the GMs do not read, issue 37).
        NAMED = "named", gettext_lazy("Only those it names")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="events",
        verbose_name=gettext_lazy("Campaign"),
    )
    seq = models.PositiveBigIntegerField(verbose_name=gettext_lazy("Number in the log"))
    # Choices from the registry: a kind means what its entry in tables/events.py says.
    # The callable itself (not its list): migrations name it, so a new kind needs none.
    kind = models.CharField(
        max_length=40, choices=events.choices, verbose_name=gettext_lazy("Kind")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=gettext_lazy("Actor"),
    )
    payload = models.JSONField(default=dict, blank=True, verbose_name=gettext_lazy("Payload"))
    audience = models.CharField(
        max_length=5,
        choices=Audience.choices,
        default=Audience.ALL,
        verbose_name=gettext_lazy("Audience"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))
    # The `voided` event that struck this one out (tables/services/corrections.py); the
    # row itself is never changed otherwise, so history stays whole.
    voided_by = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="voids",
        verbose_name=gettext_lazy("Voided by"),
    )
    # The browser's key for the submission that made this event (issue 27): a retry of a
    # command whose answer was lost carries the same key and is refused, not applied twice.
    idempotency_key = models.UUIDField(
        null=True, blank=True, editable=False, verbose_name=gettext_lazy("Request key")
    )

    class Meta:
        verbose_name = gettext_lazy("table event")
        verbose_name_plural = gettext_lazy("table events")
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="unique_event_seq"),
            # Also the index the repeat check reads (tables/services/idempotency.py).
            models.UniqueConstraint(
                fields=["campaign", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="unique_event_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class PoolChange(models.Model):
    """One line of a pool's ledger: who changed it, by how much, why, what was lost."""

    class Pool(models.TextChoices):
        GROUP_MOMENTUM = "group_momentum", gettext_lazy("Group Momentum")
        THREAT = "threat", gettext_lazy("Threat")
        MOMENTUM = "momentum", gettext_lazy("Momentum")
        RESOLVE = "resolve", gettext_lazy("Resolve")
        DETERMINATION = "determination", gettext_lazy("Determination")

    event = models.ForeignKey(
        TableEvent,
        on_delete=models.CASCADE,
        related_name="changes",
        verbose_name=gettext_lazy("Event"),
    )
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="pool_changes",
        verbose_name=gettext_lazy("Campaign"),
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="pool_changes",
        verbose_name=gettext_lazy("Character"),
    )
    pool = models.CharField(max_length=20, choices=Pool.choices, verbose_name=gettext_lazy("Pool"))
    delta = models.IntegerField(verbose_name=gettext_lazy("Delta"))
    after = models.IntegerField(verbose_name=gettext_lazy("After"))
    lost = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("Lost"))
    reason = models.CharField(max_length=200, verbose_name=gettext_lazy("Reason"))
    # The reason as a stored sentence where the code worded it (tables/words/said.py), so each
    # reader reads it in their language; None for what a person typed, and older rows.
    reason_words = models.JSONField(
        null=True, blank=True, editable=False, verbose_name=gettext_lazy("Reason (worded)")
    )

    class Meta:
        verbose_name = gettext_lazy("pool change")
        verbose_name_plural = gettext_lazy("pool changes")
        ordering = ["-event__seq", "-id"]

    def __str__(self) -> str:
        who = self.character or self.campaign
        return f"{who} {self.pool} {self.delta:+d} ({self.reason})"

    @property
    def reason_text(self) -> str:
        """The reason in the reader's words (the stored English for older rows)."""
        return worded({"summary": self.reason, "summary_words": self.reason_words})


# Play records live in their own modules; imported here so Django finds them.

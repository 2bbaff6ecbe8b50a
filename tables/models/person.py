"""One person's own settings: how the site looks to them, not game state (issue 14)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from tables.models.locale import validate_time_zone


class PersonSettings(models.Model):
    """A person's display preferences, one row per user, made on their first save.
    Nobody else reads or changes them; no campaign owns them, so no export carries them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_settings",
        verbose_name=gettext_lazy("User"),
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

    # On by default: the roll stage is the table's moment (issue 29); off, a roll goes
    # straight to the log, still said once to a screen reader (static/tables/stage.js).
    show_stage = models.BooleanField(
        _("Show each roll large as it lands"),
        default=True,
        db_default=True,  # the previous release's INSERTs do not name it (migration_safety)
        help_text=_(
            "Who rolled, the dice and the outcome, large for a moment, then in the log. "
            "Off: rolls go straight to the log."
        ),
    )
    # Blank: the browser's (Accept-Language), as for someone not logged in (issue 28).
    # db_default: a running older release inserts rows without the column.
    language = models.CharField(
        gettext_lazy("Language"),
        max_length=10,
        blank=True,
        default="",
        db_default="",
        choices=[("", gettext_lazy("The browser's language"))] + list(settings.LANGUAGES),
    )
    # Blank: the campaign's time zone on its pages, UTC elsewhere.
    time_zone = models.CharField(
        gettext_lazy("Time zone"),
        max_length=64,
        blank=True,
        default="",
        db_default="",
        validators=[validate_time_zone],
        help_text=gettext_lazy("The log's times are shown in it. Blank: the campaign's time zone."),
    )

    # Issue 37: the § marks naming a rule's clause. Blank: the table decides (shown to a
    # campaign's GMs, hidden from players), tables/policy/rule_marks.py.
    rule_marks = models.CharField(
        _("Rule marks (§)"),
        max_length=3,
        blank=True,
        default="",
        db_default="",  # the previous release's INSERTs do not name it (migration_safety)
        choices=[
            ("", _("On the campaigns I run, not where I play")),
            ("on", _("Everywhere")),
            ("off", _("Nowhere")),
        ],
        help_text=_("A small § after a rule's effect names the rule; it opens the rules at it."),
    )

    class Meta:
        verbose_name = gettext_lazy("personal settings")
        verbose_name_plural = gettext_lazy("personal settings")

    def __str__(self) -> str:
        return f"settings of {self.user}"

    @classmethod
    def of(cls, user) -> PersonSettings:
        """The user's settings, or the defaults (unsaved) for one who never saved any."""
        if not user.is_authenticated:
            return cls()
        return cls.objects.filter(user=user).first() or cls(user=user)

"""A campaign's Discord webhooks: set, resume, cleared with a co-GM, parked by failures.

Not a setting of the game: set_campaign_settings never sees the URLs, so they can
never reach a settings_changed event. The log gets a GM-only note that says which
webhook changed, never the URL (a secret: whoever holds it can post to the channel).
Each webhook remembers who set it (removing that co-GM offers to clear it) and how
many deliveries failed in a row: at DISCORD_PARK_AFTER (default 5) it is parked, no
post goes to it, and the GMs are told (a GM-only note) until one resumes or replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import events
from tables.discord import webhooks
from tables.models import Campaign, TableEvent
from tables.services.core import append_event, lock_campaign, require_gm


@dataclass(frozen=True)
class Hook:
    """One of the campaign's two webhooks: its fields on Campaign."""

    target: str  # "public" or "gm", as embeds.py and the sender name them
    url: str
    set_by: str
    failures: str
    parked_at: str

    def label(self) -> str:
        return _("Table webhook") if self.target == "public" else _("GM webhook")

    def lower_label(self) -> str:
        return _("table webhook") if self.target == "public" else _("GM webhook")


TABLE = Hook(
    "public",
    "discord_webhook_url",
    "discord_webhook_set_by",
    "discord_webhook_failures",
    "discord_webhook_parked_at",
)
GM = Hook(
    "gm",
    "discord_gm_webhook_url",
    "discord_gm_webhook_set_by",
    "discord_gm_webhook_failures",
    "discord_gm_webhook_parked_at",
)
HOOKS = {hook.target: hook for hook in (TABLE, GM)}
FIELDS = [
    *(f for h in HOOKS.values() for f in (h.url, h.set_by, h.failures, h.parked_at)),
    "discord_last_error",
    "discord_last_error_at",
]


def park_after() -> int:
    return max(1, getattr(settings, "DISCORD_PARK_AFTER", 5))


def set_webhooks(
    campaign_id: int,
    actor,
    *,
    table: str | None = None,
    gm: str | None = None,
    resume: tuple[str, ...] = (),
) -> TableEvent | None:
    """Store the webhook URLs ("" removes one, None keeps it) and resume the parked
    webhooks named in `resume` ("public", "gm"); None when nothing changed.

    Each URL is checked again here (webhooks.check), whatever the caller validated, and
    the two may not be one webhook however spelled (a secret roll would reach the
    players' channel): ValidationError, nothing changed. A webhook set or resumed starts
    again with no failures, and the last delivery error is cleared: it was about the old one.
    """
    given = {
        TABLE: webhooks.check(table) if table else table,
        GM: webhooks.check(gm) if gm else gm,
    }
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        values = {
            hook: getattr(campaign, hook.url) if url is None else url for hook, url in given.items()
        }
        if webhooks.same_webhook(values[TABLE], values[GM]):
            raise ValidationError(webhooks.SAME_WEBHOOK, code="same_webhook")
        words = []
        for hook, url in values.items():
            if url != getattr(campaign, hook.url):
                setattr(campaign, hook.url, url)
                setattr(campaign, hook.set_by, actor if url else None)
                _reset(campaign, hook)
                words.append(
                    (_("%(hook)s set") if url else _("%(hook)s removed"))
                    % {"hook": hook.lower_label()}
                )
            elif hook.target in resume and getattr(campaign, hook.parked_at) and url:
                _reset(campaign, hook)
                words.append(_("%(hook)s resumed") % {"hook": hook.lower_label()})
        if not words:
            return None
        campaign.discord_last_error, campaign.discord_last_error_at = "", None
        campaign.save(update_fields=FIELDS)
        summary = _("Discord: %(changes)s.") % {"changes": "; ".join(words)}
        return append_event(
            campaign, events.NOTE, actor, {"summary": summary}, audience=TableEvent.Audience.GM
        )


def _reset(campaign: Campaign, hook: Hook) -> None:
    setattr(campaign, hook.failures, 0)
    setattr(campaign, hook.parked_at, None)


def clear_webhooks_set_by(campaign: Campaign, actor, user_id: int) -> list[str]:
    """Remove the webhooks `user_id` set (a co-GM leaving knows their URLs); the caller
    holds the campaign's lock and has checked the actor is a GM. The targets cleared."""
    cleared = [h for h in HOOKS.values() if getattr(campaign, f"{h.set_by}_id") == user_id]
    cleared = [h for h in cleared if getattr(campaign, h.url)]
    if not cleared:
        return []
    for hook in cleared:
        setattr(campaign, hook.url, "")
        setattr(campaign, hook.set_by, None)
        _reset(campaign, hook)
    campaign.discord_last_error, campaign.discord_last_error_at = "", None
    campaign.save(update_fields=FIELDS)
    words = "; ".join(_("%(hook)s removed") % {"hook": h.lower_label()} for h in cleared)
    append_event(
        campaign,
        events.NOTE,
        actor,
        {"summary": _("Discord: %(changes)s.") % {"changes": words}},
        audience=TableEvent.Audience.GM,
    )
    return [h.target for h in cleared]


def record_delivery(
    campaign_id: int, target: str, error: str | None, *, count=True, url: str | None = None
) -> bool:
    """What came of a post to one webhook (the sender calls this); True if it is parked.
    `url`: the webhook the post went to; a failure of one since replaced or removed
    counts nothing against the new one (its queued posts fail after the GM's change).

    A success clears that webhook's failures and last error (read first: a success,
    nearly every post, then writes nothing). A failure is stored for the GMs; unless
    `count` is false (the post was dropped here, not refused there) it adds one to the
    webhook's failures in a row, and the one that reaches DISCORD_PARK_AFTER parks it
    and tells the GMs in a GM-only note.
    """
    hook = HOOKS[target]
    label = hook.label()
    rows = Campaign.objects.filter(pk=campaign_id)
    if error is None:
        _clear_failures(rows, hook, label)
        return False
    text = f"{label}: {error}"[: Campaign._meta.get_field("discord_last_error").max_length]
    if not count:
        rows.update(discord_last_error=text, discord_last_error_at=timezone.now())
        return False
    # Under the campaign's lock: two processes failing at once count two, and only one
    # of them parks the webhook and writes the note.
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        if not getattr(campaign, hook.url) or url not in (None, getattr(campaign, hook.url)):
            return False  # removed or replaced meanwhile: not the stored webhook's failure
        if getattr(campaign, hook.parked_at):
            return True
        rows.update(
            discord_last_error=text,
            discord_last_error_at=timezone.now(),
            **{hook.failures: F(hook.failures) + 1},
        )
        failures = getattr(campaign, hook.failures) + 1
        if failures < park_after():
            return False
        _park(campaign, hook, failures, error)
        return True


def _clear_failures(rows, hook, label: str) -> None:
    """A success clears the webhook's failures and its last error; read first, so the
    success of nearly every post writes nothing."""
    failing = Q(**{f"{hook.failures}__gt": 0})
    mine = Q(discord_last_error__startswith=label)
    if rows.filter(failing | mine).exists():
        rows.update(**{hook.failures: 0})
        rows.filter(mine).update(discord_last_error="", discord_last_error_at=None)


def _park(campaign: Campaign, hook, failures: int, error: str) -> None:
    """Pause the webhook (under the lock) and tell the GMs in a GM-only note."""
    setattr(campaign, hook.parked_at, timezone.now())
    campaign.save(update_fields=[hook.parked_at])
    summary = _(
        "Discord: %(hook)s paused after %(count)s failed posts in a row (%(error)s). "
        "Nothing is posted to it until a GM resumes it or sets a new one in the "
        "campaign's settings."
    ) % {"hook": hook.lower_label(), "count": failures, "error": error}
    append_event(campaign, events.NOTE, None, {"summary": summary}, audience=TableEvent.Audience.GM)

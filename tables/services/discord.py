"""Set a campaign's Discord webhooks (GMs only).

Not a setting of the game: set_campaign_settings never sees the URLs, so they can
never reach a settings_changed event. The log gets a GM-only note that says which
webhook changed, never the URL (a secret: whoever holds it can post to the channel).
"""

from __future__ import annotations

from django.db import transaction

from tables import events
from tables.discord import webhooks
from tables.models import TableEvent
from tables.services.core import append_event, lock_campaign, require_gm

FIELDS = {"discord_webhook_url": "table", "discord_gm_webhook_url": "GM"}


def set_webhooks(campaign_id: int, actor, *, table: str, gm: str) -> TableEvent | None:
    """Store both webhook URLs ("" removes one); None when nothing changed.

    Each URL is checked again here (webhooks.check), whatever the caller validated.
    Changing a webhook clears the last delivery error: it was about the old one.
    """
    values = {
        "discord_webhook_url": webhooks.check(table) if table else "",
        "discord_gm_webhook_url": webhooks.check(gm) if gm else "",
    }
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        changed = [f for f, v in values.items() if getattr(campaign, f) != v]
        if not changed:
            return None
        for field in changed:
            setattr(campaign, field, values[field])
        campaign.discord_last_error, campaign.discord_last_error_at = "", None
        campaign.save(update_fields=[*changed, "discord_last_error", "discord_last_error_at"])
        words = [f"{FIELDS[f]} webhook {'set' if values[f] else 'removed'}" for f in changed]
        summary = "Discord: " + "; ".join(words) + "."
        return append_event(
            campaign,
            events.NOTE,
            actor,
            {"summary": summary},
            audience=TableEvent.Audience.GM,
        )

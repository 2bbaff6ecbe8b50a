"""The after-commit hook: queue the event's Discord post, if it makes one.

Called through tables/services/publish.py once the event's transaction has committed (a
rolled-back command posts nothing). It runs on the request's thread, so it only
builds the post from the rows in memory and queues it; the worker sends it.
"""

from __future__ import annotations

import logging

from django.utils import translation
from django.utils.translation import gettext

from tables.discord import embeds, sender

log = logging.getLogger(__name__)


def notify(event) -> None:
    """Never raises: the event is stored and answered whatever becomes of its post."""
    try:
        campaign = event.campaign  # the command's locked row, cached on the event
        if not (campaign.discord_webhook_url or campaign.discord_gm_webhook_url):
            return
        # Everyone in the channel reads one copy: worded in the campaign's language,
        # whatever the actor's page is in (issue 28).
        with translation.override(campaign.language):
            post = embeds.post_for(event, campaign)
        if post is None:
            return
        job = sender.Job(campaign.pk, post.target, post.url, post.body, campaign.language)
        if not sender.get_sender().submit(job):
            log.warning(
                "Discord queue full: post of campaign %s #%s dropped", campaign.pk, event.seq
            )
            # Dropped here, not refused by Discord: no failure counts against the webhook.
            with translation.override(campaign.language):
                dropped = gettext("too many posts waiting; one dropped")
            sender.record_outcome(campaign.pk, post.target, dropped, count=False)
    except Exception:  # a broken webhook must never turn a committed roll into an error
        log.exception("Discord post of event %s not queued", getattr(event, "pk", "?"))

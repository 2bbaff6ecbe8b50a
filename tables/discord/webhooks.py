"""Which URLs the GM may give as a Discord webhook.

A webhook URL is https://discord.com/api/webhooks/<id>/<token> (discordapp.com, and the
ptb./canary. hosts, name the same service). The origins are a setting,
`DISCORD_WEBHOOK_HOSTS`, so tests can point campaigns at a local fake server; the path
is checked everywhere, so a channel's address pasted by mistake gets a clear message.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

DEFAULT_HOSTS = (
    "https://discord.com",
    "https://discordapp.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
)
_PATH = re.compile(r"/api(?:/v\d+)?/webhooks/\d+/[A-Za-z0-9_-]+/?")
_QUERY = re.compile(r"(?:thread_id=\d+)?")  # a post into one thread of a forum channel
MAX_LENGTH = 300  # Campaign.discord_webhook_url's max_length

HELP = (
    "Paste the URL Discord shows under Server Settings → Integrations → Webhooks → "
    "Copy Webhook URL; it looks like https://discord.com/api/webhooks/123…/abc…"
)


def allowed_origins() -> tuple[str, ...]:
    hosts = getattr(settings, "DISCORD_WEBHOOK_HOSTS", None) or DEFAULT_HOSTS
    return tuple(h.rstrip("/").lower() for h in hosts)


def check(url: str) -> str:
    """The URL, stripped, if it is a webhook of an allowed origin; else ValidationError."""
    url = (url or "").strip()
    if len(url) > MAX_LENGTH:
        raise ValidationError(f"That is too long for a webhook URL (at most {MAX_LENGTH}).")
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    if origin not in allowed_origins():
        if parts.scheme == "http" and origin.replace("http://", "https://") in allowed_origins():
            raise ValidationError("A webhook URL starts with https://, not http://.")
        raise ValidationError(f"That is not a Discord webhook URL. {HELP}")
    if not _PATH.fullmatch(parts.path) or parts.fragment or not _QUERY.fullmatch(parts.query):
        raise ValidationError(
            f"That is a Discord address, but not a webhook's (a channel's, perhaps). {HELP}"
        )
    return url


def describe(url: str) -> str:
    """How the settings page names a stored webhook without showing its token."""
    parts = urlsplit(url)
    hook_id = parts.path.rstrip("/").split("/")[-2] if parts.path.count("/") >= 2 else ""
    return f"webhook {hook_id} on {parts.hostname}" if hook_id else "a webhook"

"""Which URLs the GM may give as a Discord webhook, and which two are the same one.

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
from django.utils.translation import gettext_lazy as _

DEFAULT_HOSTS = (
    "https://discord.com",
    "https://discordapp.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
)
_PATH = re.compile(r"/api(?:/v\d+)?/webhooks/(?P<id>\d+)/(?P<token>[A-Za-z0-9_-]+)/?")
_QUERY = re.compile(r"(?:thread_id=\d+)?")  # a post into one thread of a forum channel
MAX_LENGTH = 300  # Campaign.discord_webhook_url's max_length

HELP = _(
    "Paste the URL Discord shows under Server Settings → Integrations → Webhooks → "
    "Copy Webhook URL; it looks like https://discord.com/api/webhooks/123…/abc…"
)
SAME_WEBHOOK = _(
    "The GM's webhook must not be the table's (the same webhook, however spelled): "
    "players read that one."
)


def allowed_origins() -> tuple[str, ...]:
    hosts = getattr(settings, "DISCORD_WEBHOOK_HOSTS", None) or DEFAULT_HOSTS
    return tuple(h.rstrip("/").lower() for h in hosts)


def check(url: str) -> str:
    """The URL, stripped, if it is a webhook of an allowed origin; else ValidationError."""
    url = (url or "").strip()
    if len(url) > MAX_LENGTH:
        raise ValidationError(
            _("That is too long for a webhook URL (at most %(max)s).") % {"max": MAX_LENGTH}
        )
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    if origin not in allowed_origins():
        if parts.scheme == "http" and origin.replace("http://", "https://") in allowed_origins():
            raise ValidationError(_("A webhook URL starts with https://, not http://."))
        raise ValidationError(_("That is not a Discord webhook URL. %(help)s") % {"help": HELP})
    if not _PATH.fullmatch(parts.path) or parts.fragment or not _QUERY.fullmatch(parts.query):
        raise ValidationError(
            _("That is a Discord address, but not a webhook's (a channel's, perhaps). %(help)s")
            % {"help": HELP}
        )
    return url


def webhook_id(url: str) -> str | None:
    """The webhook's id, whatever the spelling (host, API version, slash, query); None
    for no webhook URL. Discord names a webhook by its id: one id, one channel."""
    match = _PATH.fullmatch(urlsplit((url or "").strip()).path)
    return match["id"] if match else None


def same_webhook(a: str, b: str) -> bool:
    return bool(a and b) and webhook_id(a) is not None and webhook_id(a) == webhook_id(b)


def describe(url: str) -> str:
    """How the settings page names a stored webhook without showing its token."""
    hook_id = webhook_id(url)
    host = urlsplit(url).hostname
    if not hook_id:
        return str(_("a webhook"))
    return str(_("webhook %(id)s on %(host)s") % {"id": hook_id, "host": host})

"""Ring the doorbell: tell the campaign's live sockets that an event committed.

The channel layer may drop or reorder this message; sockets catch up from the
database by sequence number, so only the event's coordinates travel here.
"""

import hashlib
import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from momenta_site.channel_layer import reachability
from tables.live import frames
from tables.live.metrics import EVENTS_PUSHED

log = logging.getLogger(__name__)

# After a doorbell fails, this process rings none for this long (their pages catch up
# by heartbeat), so a hung Redis costs one command per second its timeout, not each.
QUIET_AFTER_FAILURE_S = 1.0
_quiet_until = 0.0  # time.monotonic()


def group_name(campaign_id: int) -> str:
    return f"table-{campaign_id}"


def announce(event) -> None:
    """Called after commit. Never raises: the change is already stored, and a
    lost doorbell is healed by the next one or by the pages' heartbeat."""
    EVENTS_PUSHED.labels(event.kind).inc()
    try:  # before the doorbell: this process's hub then draws from the command's rows
        frames.hold(event)
    except Exception:  # then they are read again; the doorbell still rings
        log.exception("rows of %s #%s not held", group_name(event.campaign_id), event.seq)
    global _quiet_until
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _quiet_until:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(event.campaign_id),
            {"type": "table.event", "seq": event.seq, "event_id": event.pk},
        )
    except Exception as error:  # a down Redis must not turn a committed roll into an error page
        # A hung Redis costs a command its timeout (settings.py): not every command's.
        _quiet_until = time.monotonic() + QUIET_AFTER_FAILURE_S
        reachability.noted(error)  # the pages are told their updates are late (issue 39)
        # A warning, not a traceback per roll: pages catch up by heartbeat or on reconnect.
        log.warning(
            "doorbell for %s #%s not sent: %r", group_name(event.campaign_id), event.seq, error
        )


def end_session(sender, request, user, **kwargs) -> None:
    """On logout, close the sockets this browser session opened (user_logged_out)."""

    session_key = getattr(getattr(request, "session", None), "session_key", None)
    layer = get_channel_layer()
    if layer is None or not session_key:
        return
    try:
        async_to_sync(layer.group_send)(session_group(session_key), {"type": "session.ended"})
    except Exception:  # logging out must work even with the channel layer down
        log.exception("sockets of an ended session not told")


def session_group(session_key: str) -> str:
    """The group of every socket opened by one login session (closed at logout)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:32]

"""One websocket per open table page. Thin: authenticate, check membership, join, replay, forward.

The socket keeps a cursor, `last_seq`: the highest sequence number it has
accounted for (sent, or skipped because this audience may not see it), and
`shown_seq`: the highest the page has been told of. An event this audience
may not see sends nothing at all: a frame at that moment would tell players
that something secret just happened. The same holds per person: a message to
the GM reaches the GMs' sockets and its sender's, and no other player's.
The next event the page does get says what it follows (`prev`), which covers
the hidden ones in between. The channel layer is only a doorbell ("seq S
committed"). The process's hub for the table (live/fanout.py) reads the new
events once and offers each socket its audience's frame; a socket whose
cursor is not right behind a frame (a gap, a new connection, a resync) reads
the missing events from the database itself. So a dropped or reordered
doorbell delays an event until the next doorbell or heartbeat, and never
loses or repeats one.

Everything a socket sends goes through its own bounded queue and one sender
task, in order; a socket whose queue fills (a stalled client) is closed with
TOO_SLOW, which the page answers by reconnecting and replaying from its cursor.

However a socket ends (closed by us, by the client, by the client vanishing while
a reply is sent, or by an error in the consumer), nothing is sent after its close
and its consumer leaves the hub, the session's group and presence (issue 41).

Messages to the page (JSON):
  {"type": "event", "seq": N, "prev": P, "html": "<hx-swap-oob fragments>"}
                                       events P+1..N-1 are not for this viewer
  {"type": "ready", "seq": N}          replay done; live from here
  {"type": "pong", "seq": N}           answer to a heartbeat
  (in ready and pong, N is shown_seq: never a hidden event's seq)
  {"type": "presence", "html": "..."}  who is at the table
  {"type": "layer", "state": "down"}   Redis (the doorbells) is away: events come
                                       only with heartbeats; the page beats faster
  {"type": "layer", "state": "up"}     it answers again: the page catches up once
Messages from the page:
  {"type": "resync", "after": N}       send everything after N again (a gap)
  {"type": "ping", "seq": N}           heartbeat: keeps presence, catches up
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from momenta_site.channel_layer import reachability
from tables import events
from tables.live import fanout, frames, presence
from tables.live import render as live
from tables.live.broadcast import group_name, session_group
from tables.live.metrics import SOCKETS_OPEN
from tables.policy.access import membership_of
from tables.policy.locale import Reader, socket_reader
from tables.presenters.table import audience_for

log = logging.getLogger(__name__)

REFUSED = 4403  # close code: not (or no longer) a member of this table
TOO_SLOW = 4408  # close code: fell too far behind; the page reconnects and replays
LOGGED_OUT = 4401  # close code: the session ended; the page's reconnect is refused
FLOODING = 1008  # close code (policy violation): too many frames from the page
FRAME_MAX = 1024  # bytes: the page's messages are a few dozen
# The page sends a heartbeat every 25 s and a resync per gap; this allows bursts.
FRAMES_PER_WINDOW, WINDOW_S = 30, 10.0
QUEUE_MAX = 500  # frames waiting for one socket before it counts as stalled
# Kinds after which a socket re-checks its member: it may be gone or see more now.
MEMBERSHIP_KINDS = frozenset(k.name for k in events.REGISTRY.values() if k.membership)


_as_seq = fanout.as_seq


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number the table uses")


@contextlib.contextmanager
def _layer_away(campaign_id: int):
    """A channel-layer call that may fail while Redis is away: logged, not raised."""
    try:
        yield
    except Exception as error:
        reachability.noted(error)
        log.warning("table %s: channel layer unreachable: %r", campaign_id, error)


class TableConsumer(AsyncJsonWebsocketConsumer):
    audience: str | None = None  # set once the socket is accepted; None: sends nothing
    reader: Reader | None = None  # its person's language and time zone (issue 28)
    last_seq = 0
    shown_seq = 0
    hub: fanout.TableHub | None = None
    _sender: asyncio.Task | None = None
    _closing: asyncio.Task | None = None  # a close begun outside a handler (TOO_SLOW)
    _closed = False  # the close is sent or the client is gone: nothing more goes out
    _left = False
    _counted = False  # in SOCKETS_OPEN: accepted, not yet ended
    session_group: str | None = None

    async def __call__(self, scope, receive, send):
        async def send_until_closed(message):
            if self._closed:
                return  # a close went out: a server raises for anything after it
            if message["type"] == "websocket.close":
                self._closed = True
                self._stop()
            try:
                await send(message)
            except (OSError, RuntimeError) as error:
                # The client left: servers raise an OSError (ASGI; uvicorn's
                # ClientDisconnected), or uvicorn a RuntimeError when it closed the socket
                # itself (a keepalive timeout) before telling us. Not an error of ours.
                self._closed = True
                self._stop()
                table = getattr(self, "campaign_id", None)
                log.debug("table %s: the client left before %s (%r)", table, message["type"], error)

        try:
            await super().__call__(scope, receive, send_until_closed)
        finally:
            if self._counted:  # first: the socket is gone even if leaving fails below
                self._counted = False
                SOCKETS_OPEN.dec()
            # However the socket ended (an exception in a handler skips disconnect()).
            await self._leave()

    async def connect(self):
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.group = group_name(self.campaign_id)
        self.user = self.scope.get("user")
        membership = await database_sync_to_async(membership_of)(self.user, self.campaign_id)
        if membership is None:
            await self.close(code=REFUSED)
            return
        # Read once: a change in the person's settings reaches the next page (a new socket).
        self.reader = await database_sync_to_async(socket_reader)(self.scope, self.campaign_id)
        self.audience = audience_for(membership)
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_MAX)
        # Join the hub (which is in the table's group, for every socket of this process)
        # before reading the head: an event committed in between is then either behind
        # the cursor (replayed) or offered by the hub, never neither.
        self._frames: list[float] = []
        self.hub = await fanout.join(self.campaign_id, self, self.channel_layer)
        session_key = getattr(self.scope.get("session"), "session_key", None)
        self.session_group = session_group(session_key) if session_key else None
        if self.session_group:
            await self.channel_layer.group_add(self.session_group, self.channel_name)
        await self.accept()
        self._counted = True
        SOCKETS_OPEN.inc()
        head = await self.hub.current_head()
        query = parse_qs(self.scope.get("query_string", b"").decode())
        after = _as_seq((query.get("after") or [None])[0])
        # No cursor given: live from now. A cursor beyond the head (a page
        # from a reset database) is answered with ready(head) and reloads.
        self.last_seq = self.shown_seq = head if after is None else min(after, head)
        self._sender = asyncio.create_task(self._send_loop())
        self._put(("resync", self.last_seq))
        if reachability.away:  # later changes come from the hub (layer_changed_nowait)
            self._put(("layer", True))
        await presence.store().join(self.campaign_id, self.channel_name, self.user.pk)
        with _layer_away(self.campaign_id):  # Redis gone since the join: the socket stays
            await self.channel_layer.group_send(self.group, {"type": "presence.changed"})

    async def disconnect(self, code):
        await self._leave()

    def _stop(self) -> None:
        """Offer and queue nothing more: out of the hub at once (no await)."""
        self.audience = None
        if self.hub is not None:
            fanout.leave(self.campaign_id, self)

    async def _leave(self) -> None:
        """Undo what connect() did, once: the hub, the session's group, presence."""
        if self.hub is None or self._left:
            return  # refused before accept (or failed before the hub), or already left
        self._left = True
        self._stop()
        if self._sender is not None and self._sender is not asyncio.current_task():
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        # With Redis away neither can be said; leaving must still finish (presence).
        if self.session_group:
            with _layer_away(self.campaign_id):
                await self.channel_layer.group_discard(self.session_group, self.channel_name)
        await presence.store().leave(self.campaign_id, self.channel_name, self.user.pk)
        with _layer_away(self.campaign_id):
            await self.channel_layer.group_send(self.group, {"type": "presence.changed"})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Whatever the page (or anyone) sends, the socket survives it or closes cleanly."""
        if self.audience is None:
            return
        if self._flooding():
            await self.close(code=FLOODING)
            return
        if text_data is None or len(text_data) > FRAME_MAX:
            return  # binary or oversized: not a message of ours
        try:
            content = json.loads(text_data, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content, **kwargs)

    def _flooding(self) -> bool:
        now = time.monotonic()
        self._frames = [t for t in self._frames if now - t < WINDOW_S]
        self._frames.append(now)
        return len(self._frames) > FRAMES_PER_WINDOW

    async def receive_json(self, content, **kwargs):
        if not isinstance(content, dict) or self.audience is None:
            return
        kind = content.get("type")
        if kind in ("resync", "hello"):
            after = _as_seq(content.get("after"))
            if after is not None:
                self._put(("resync", after))
        elif kind == "ping":
            await presence.store().touch(self.campaign_id, self.channel_name, self.user.pk)
            # The doorbell of the very last event may have been lost, and no
            # later one would come: the hub compares with the database head
            # (at most every fanout.HEAD_CHECK_S per table and process).
            await self.hub.heartbeat()
            self._put(("pong",))
            self._put(("presence",))

    # --- group messages (the table's doorbells come to the hub: fanout.TableHub) ---

    async def session_ended(self, message):
        """The user logged out: this session's sockets stop receiving at once."""
        await self.disconnect(LOGGED_OUT)
        await self.close(code=LOGGED_OUT)

    # --- the hub's side (fanout.Subscriber) -------------------------------------

    def offer(self, frame: fanout.Frame) -> None:
        self._put(frame)

    def presence_changed_nowait(self) -> None:
        self._put(("presence",))

    def layer_changed_nowait(self, away: bool) -> None:
        self._put(("layer", away))

    def _put(self, item) -> None:
        if self.audience is None:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            # A stalled client must not hold frames for everyone else: drop it;
            # the page reconnects with its cursor and replays from the database.
            self._stop()
            # Kept: the loop holds tasks weakly.
            self._closing = asyncio.get_running_loop().create_task(self.close(code=TOO_SLOW))

    # --- the one sender -----------------------------------------------------

    async def _send_loop(self):
        try:
            while await self._send_next():
                pass
        except Exception:
            log.exception("socket of table %s stopped; closing it", self.campaign_id)
            await self.close(code=1011)

    async def _send_next(self) -> bool:
        """Send the next queued item; False once the socket is done."""
        item = await self.queue.get()
        if isinstance(item, fanout.Frame):
            await self._send_frame(item)
        elif item[0] == "resync":
            # The page says it has everything up to `after`: the next event it
            # gets follows that.
            self.shown_seq = after = min(item[1], self.last_seq)
            await self._catch_up(after=after)
            await self.send_json({"type": "ready", "seq": self.shown_seq})
        elif item[0] == "pong":
            await self.send_json({"type": "pong", "seq": self.shown_seq})
        elif item[0] == "presence":
            await self._send_presence()
        elif item[0] == "layer":
            await self.send_json({"type": "layer", "state": "down" if item[1] else "up"})
        return self.audience is not None

    async def _send_frame(self, frame: fanout.Frame):
        if frame.seq <= self.last_seq:
            return  # already sent (by a catch-up that read past it)
        known, html = frame.for_audience(self.audience, self.user.pk, self.reader)
        if frame.seq != self.last_seq + 1 or not known:
            await self._catch_up()  # behind the hub, or rendered for another audience
            return
        await self._send_event(frame.seq, frame.kind, html)

    async def _send_event(self, seq: int, kind: str, html: str | None) -> bool:
        """Send one event (nothing if hidden); False when the audience changed after it."""
        if html is not None:
            message = {"type": "event", "seq": seq, "prev": self.shown_seq, "html": html}
            await self.send_json(message)
            self.shown_seq = seq
        self.last_seq = max(self.last_seq, seq)
        return not (kind in MEMBERSHIP_KINDS and await self._recheck_membership())

    async def _catch_up(self, after: int | None = None):
        """Send every event after `after` (default: the cursor) up to the head, from the DB."""
        cursor = self.last_seq if after is None else after
        if cursor >= max(self.hub.head or 0, self.last_seq):
            return  # nothing this process knows of is newer: no database read
        while self.audience is not None:
            batch = await database_sync_to_async(frames.events_after)(
                self.campaign_id,
                cursor,
                self.audience,
                viewer=self.user.pk,
                limit=live.REPLAY_BATCH,
                reader=self.reader,
            )
            for seq, kind, html in batch:
                cursor = seq
                if not await self._send_event(seq, kind, html):
                    break  # audience changed: render the rest for the new one
            else:
                if len(batch) < live.REPLAY_BATCH:
                    return

    async def _recheck_membership(self) -> bool:
        """After a membership event: close if removed; True if the audience changed."""
        membership = await database_sync_to_async(membership_of)(self.user, self.campaign_id)
        if membership is None:
            await self.disconnect(REFUSED)
            await self.close(code=REFUSED)
            return True
        audience = audience_for(membership)
        changed, self.audience = audience != self.audience, audience
        return changed

    async def _send_presence(self):
        roster = await presence.store().roster(self.campaign_id)
        html = await self.hub.presence_html(roster, self.reader)
        await self.send_json({"type": "presence", "html": html})

"""One websocket per open table page. Thin: authenticate, check membership, join, replay, forward.

The socket keeps a cursor, `last_seq`: the highest sequence number it has
accounted for (sent, or skipped because this audience may not see it). The
channel layer is only a doorbell ("seq S committed"); whatever it says, the
socket reads every event after its cursor from the database, in order. So a
dropped or reordered doorbell delays an event until the next doorbell or
heartbeat, and never loses or repeats one.

Messages to the page (JSON):
  {"type": "event", "seq": N, "html": "<hx-swap-oob fragments>"}
  {"type": "cursor", "seq": N}         event N exists but is not for this viewer
  {"type": "ready", "seq": N}          replay done; live from here
  {"type": "pong", "seq": N}           answer to a heartbeat
  {"type": "presence", "html": "..."}  who is at the table
Messages from the page:
  {"type": "resync", "after": N}       send everything after N again (a gap)
  {"type": "ping", "seq": N}           heartbeat: keeps presence, catches up
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import aclose_old_connections, database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tables import events
from tables.live import presence
from tables.live import render as live
from tables.live.broadcast import group_name
from tables.services.access import membership_of

REFUSED = 4403  # close code: not (or no longer) a member of this table
# Kinds after which a socket re-checks its member: it may be gone or see more now.
MEMBERSHIP_KINDS = frozenset(k.name for k in events.REGISTRY.values() if k.membership)


def _as_seq(value) -> int | None:
    try:
        seq = int(value)
    except (TypeError, ValueError):
        return None
    return seq if seq >= 0 else None


class TableConsumer(AsyncJsonWebsocketConsumer):
    audience: str | None = None  # set once the socket is accepted
    last_seq = 0

    async def connect(self):
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.group = group_name(self.campaign_id)
        self.user = self.scope.get("user")
        membership = await database_sync_to_async(membership_of)(self.user, self.campaign_id)
        if membership is None:
            await self.close(code=REFUSED)
            return
        self.audience = live.audience_for(membership)
        # Join before reading the head: an event committed in between is then
        # either in the replay or rung at the door, never in neither.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await presence.store().join(self.campaign_id, self.channel_name, self.user.pk)
        await self.channel_layer.group_send(self.group, {"type": "presence.changed"})
        head = await database_sync_to_async(live.head_seq)(self.campaign_id)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        after = _as_seq((query.get("after") or [None])[0])
        # No cursor given: live from now. A cursor beyond the head (a page
        # from a reset database) is answered with ready(head) and reloads.
        self.last_seq = head if after is None else min(after, head)
        await self._catch_up()
        await self.send_json({"type": "ready", "seq": self.last_seq})

    async def disconnect(self, code):
        if self.audience is None:
            return  # refused before accept: never joined anything
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await presence.store().leave(self.campaign_id, self.channel_name, self.user.pk)
        await self.channel_layer.group_send(self.group, {"type": "presence.changed"})

    async def receive_json(self, content, **kwargs):
        if not isinstance(content, dict) or self.audience is None:
            return
        kind = content.get("type")
        if kind in ("resync", "hello"):
            after = _as_seq(content.get("after"))
            if after is not None:
                await self._catch_up(after=min(after, self.last_seq))
                await self.send_json({"type": "ready", "seq": self.last_seq})
        elif kind == "ping":
            await presence.store().touch(self.campaign_id, self.channel_name, self.user.pk)
            # A heartbeat also catches up: the doorbell of the very last event
            # may have been dropped, and no later doorbell would come.
            await self._catch_up()
            await self.send_json({"type": "pong", "seq": self.last_seq})
            await self._send_presence()

    # --- group messages ---------------------------------------------------

    async def table_event(self, message):
        """The doorbell: seq S committed. Fill everything from our cursor up to the head."""
        if _as_seq(message.get("seq")) is not None and message["seq"] <= self.last_seq:
            return  # already sent (a late or repeated doorbell)
        await aclose_old_connections()
        await self._catch_up()

    async def presence_changed(self, message):
        await self._send_presence()

    # --- helpers ------------------------------------------------------------

    async def _catch_up(self, after: int | None = None):
        """Send every event after `after` (default: the cursor) up to the head, in order."""
        cursor = self.last_seq if after is None else after
        while self.audience is not None:
            batch = await database_sync_to_async(live.events_after)(
                self.campaign_id, cursor, self.audience, live.REPLAY_BATCH
            )
            for seq, kind, html in batch:
                if html is None:
                    await self.send_json({"type": "cursor", "seq": seq})
                else:
                    await self.send_json({"type": "event", "seq": seq, "html": html})
                cursor = seq
                self.last_seq = max(self.last_seq, seq)
                if kind in MEMBERSHIP_KINDS and await self._recheck_membership():
                    break  # audience changed: render the rest for the new one
            else:
                if len(batch) < live.REPLAY_BATCH:
                    return

    async def _recheck_membership(self) -> bool:
        """After a membership event: close if removed; True if the audience changed."""
        membership = await database_sync_to_async(membership_of)(self.user, self.campaign_id)
        if membership is None:
            await self.disconnect(REFUSED)
            self.audience = None
            await self.close(code=REFUSED)
            return True
        audience = live.audience_for(membership)
        changed, self.audience = audience != self.audience, audience
        return changed

    async def _send_presence(self):
        roster = await presence.store().roster(self.campaign_id)
        html = await database_sync_to_async(live.render_presence)(self.campaign_id, roster)
        await self.send_json({"type": "presence", "html": html})

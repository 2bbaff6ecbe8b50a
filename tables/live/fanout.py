"""One reader per table per process: a doorbell's events are read and rendered once.

Every socket of campaign C in this process registers with C's `TableHub`.
When a doorbell rings, the hub (not each socket) reads the events after its
own cursor from the database, renders each once per audience present, and
offers the frames to every local socket, in seq order. A socket that is not
exactly at the hub's cursor (new, resyncing, or behind after a gap) fills the
difference from the database by itself; see consumers.TableConsumer.

The database stays the truth: the hub's cursor only decides what to read
next, and a lost doorbell is healed by the next one or by a heartbeat's
(rate-limited) head check.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

from channels.db import database_sync_to_async

from tables.live import render
from tables.services.access import private_viewer

HEAD_CHECK_S = 5.0  # a heartbeat reads the table's head at most this often per process
BATCH = render.REPLAY_BATCH


@dataclass(frozen=True)
class Frame:
    """One event as each audience gets it: html None means "not for you" (nothing is sent)."""

    seq: int
    kind: str
    html: dict[str, str | None]
    # A PRIVATE kind's one viewer besides the GMs (access.private_viewer): its html for
    # players is rendered for that person alone; every other player gets None.
    private_to: int | None = None

    def for_audience(self, audience: str, viewer: int | None = None) -> tuple[bool, str | None]:
        """(known, html): known is False when this audience was not rendered."""
        if audience not in self.html:
            return False, None
        if self.private_to is not None and audience != render.GM and viewer != self.private_to:
            return True, None
        return True, self.html[audience]


class Subscriber(Protocol):
    audience: str | None

    def offer(self, frame: Frame) -> None: ...


def load_frames(campaign_id: int, after: int, audiences: frozenset[str]) -> list[Frame]:
    """The events after `after`, each rendered once per audience (one query for the events).

    A private event (a message to the GM) is rendered for the players' audience too, for
    its sender's sockets only: Frame.for_audience gives every other player None."""
    frames = []
    for e in render.next_events(campaign_id, after, BATCH):
        private_to = private_viewer(e)
        html = {
            a: render.render_event_fragments(e, a) if render.visible(e, a, private_to) else None
            for a in audiences
        }
        frames.append(Frame(e.seq, e.kind, html, private_to))
    return frames


class TableHub:
    """The local sockets of one campaign and how far this process has read its log."""

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id
        self.sockets: set[Subscriber] = set()
        self.head: int | None = None  # highest seq offered to the sockets
        self._lock = asyncio.Lock()
        self._checked_at = 0.0
        self.reads = 0  # database reads of events, for tests and benchmarks
        self._presence: tuple[tuple, str] | None = None

    async def current_head(self) -> int:
        """The hub's cursor, read from the database only for the first socket."""
        if self.head is None:
            async with self._lock:
                if self.head is None:
                    self.head = await database_sync_to_async(render.head_seq)(self.campaign_id)
                    self._checked_at = time.monotonic()
        return self.head

    async def ring(self, seq: int | None = None) -> None:
        """A doorbell for `seq` (None: unknown). Read and offer what is new, once."""
        if seq is not None and self.head is not None and seq <= self.head:
            return  # a late or repeated doorbell, or one a sibling socket already served
        async with self._lock:
            if self.head is None or (seq is not None and seq <= self.head):
                return
            while self.sockets:
                audiences = frozenset(s.audience for s in self.sockets if s.audience)
                frames = await database_sync_to_async(load_frames)(
                    self.campaign_id, self.head, audiences
                )
                self.reads += 1
                for frame in frames:
                    self.head = frame.seq
                    for socket in list(self.sockets):
                        socket.offer(frame)
                if len(frames) < BATCH:
                    return

    async def heartbeat(self) -> None:
        """Heal a lost doorbell: compare with the database head, at most every HEAD_CHECK_S."""
        now = time.monotonic()
        if self.head is None or now - self._checked_at < HEAD_CHECK_S:
            return
        self._checked_at = now
        head = await database_sync_to_async(render.head_seq)(self.campaign_id)
        if head > self.head:
            await self.ring(head)

    async def presence_html(self, roster: dict[int, int]) -> str:
        """Who is here, rendered once per roster however many sockets ask."""
        key = tuple(sorted(roster.items()))
        if self._presence is None or self._presence[0] != key:
            html = await database_sync_to_async(render.render_presence)(self.campaign_id, roster)
            self._presence = (key, html)
        return self._presence[1]


_hubs: dict[int, TableHub] = {}


def join(campaign_id: int, socket: Subscriber) -> TableHub:
    hub = _hubs.get(campaign_id)
    if hub is None:
        hub = _hubs[campaign_id] = TableHub(campaign_id)
    hub.sockets.add(socket)
    return hub


def leave(campaign_id: int, socket: Subscriber) -> None:
    hub = _hubs.get(campaign_id)
    if hub is None:
        return
    hub.sockets.discard(socket)
    if not hub.sockets:
        # Nobody local is watching: the next socket starts from the database head.
        del _hubs[campaign_id]


def hub_for(campaign_id: int) -> TableHub | None:
    return _hubs.get(campaign_id)


def reset() -> None:
    """Forget every hub (tests that reset the database between cases)."""
    _hubs.clear()

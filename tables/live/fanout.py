"""One reader per table per process: a doorbell's events are read and rendered once.

Every socket of campaign C in this process registers with C's `TableHub`.
The hub, not each socket, is in C's channel-layer group: a doorbell reaches a
process once however many of C's sockets it holds. The hub reads the events
after its own cursor from the database, renders each once per view present
(audience, and reader: language and time zone, issue 28), and offers the frames to
every local socket, in seq order. A socket
that is not exactly at the hub's cursor (new, resyncing, or behind after a
gap) fills the difference from the database by itself; see
consumers.TableConsumer.

The database stays the truth: the hub's cursor only decides what to read
next, and a lost doorbell is healed by the next one or by a heartbeat's
(rate-limited) head check.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from dataclasses import dataclass, field
from typing import Protocol

from channels.db import database_sync_to_async

from momenta_site.channel_layer import reachability
from tables.live import frames, presence, render
from tables.live.broadcast import group_name
from tables.policy.access import WHISPER_KINDS, private_viewer, private_viewers
from tables.policy.locale import Reader, reading_as
from tables.presenters.table import ALL, GM

log = logging.getLogger(__name__)

HEAD_CHECK_S = 5.0  # a heartbeat reads the table's head at most this often per process
# Arrivals and departures within this are told to the table's sockets as one roster:
# eight sockets opening at once (a restart, a table sitting down) send 8 rosters, not 64.
PRESENCE_DEBOUNCE_S = 0.25
# Every this often a hub re-reads its table's roster and tells its sockets if it
# changed: no one says goodbye for a crashed process's sockets (presence.py).
PRESENCE_CHECK_S = 2.0
BATCH = render.REPLAY_BATCH
UNKNOWN = math.inf  # a doorbell without a usable seq: beyond any head, so it reads


def as_seq(value) -> int | None:
    """A sequence number from outside (a page, a doorbell): a whole number ≥ 0 or its digits."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if value >= 0 else None


# What a socket is drawn for: its audience, and its reader (language and time zone).
# A bare audience is drawn for the reader active where load_frames runs.
View = tuple[str, Reader] | str


def view_of(socket) -> View | None:
    """The view a socket's frames are drawn for (None: it is leaving)."""
    if not socket.audience:
        return None
    reader = getattr(socket, "reader", None)
    return socket.audience if reader is None else (socket.audience, reader)


@dataclass(frozen=True)
class Frame:
    """One event as each view gets it: html None means "not for you" (nothing is sent)."""

    seq: int
    kind: str
    html: dict[View, str | None]
    # A PRIVATE kind's one viewer besides the GMs (access.private_viewer): its html for
    # players is rendered for that person alone; every other player gets None.
    private_to: int | None = None
    # A whisper (issue 37): {(user id, view): html} drawn for the sender and the recipient
    # in every view present; everyone else gets `html`, which only GMs who read it have.
    personal: dict[tuple[int, View], str] = field(default_factory=dict)

    def for_audience(
        self, audience: str, viewer: int | None, reader: Reader | None = None
    ) -> tuple[bool, str | None]:
        """(known, html): known is False when this view was not rendered."""
        view = audience if reader is None else (audience, reader)
        if view not in self.html:
            return False, None
        if (viewer, view) in self.personal:
            return True, self.personal[(viewer, view)]
        if self.private_to is not None and audience != GM and viewer != self.private_to:
            return True, None
        return True, self.html[view]


class Subscriber(Protocol):
    audience: str | None
    reader: Reader | None

    def offer(self, frame: Frame) -> None: ...

    def presence_changed_nowait(self) -> None: ...

    def layer_changed_nowait(self, away: bool) -> None: ...


def load_frames(campaign_id: int, after: int, views: frozenset[View]) -> list[Frame]:
    """The events after `after`, each drawn once per view (one query for the events,
    then the render seam's, frames.py: the command's answer may have drawn one already;
    the rows an event shows are read once for all its views).

    A private event (a message to the GM) is rendered for the players' audience too, for
    its sender's sockets only: Frame.for_audience gives every other player None."""
    loaded = []
    for e in render.next_events(campaign_id, after, BATCH):
        private_to = private_viewer(e)
        drawn = {}
        allowed = {a for a in (ALL, GM) if render.visible(e, a, private_to)}
        for reader, seeing in _by_reader(views, allowed):
            for audience, html in frames.fragments(e, seeing, reader).items():
                drawn[audience if reader is None else (audience, reader)] = html
        personal = _whispered(e, views) if e.kind in WHISPER_KINDS else {}
        loaded.append(Frame(e.seq, e.kind, {v: drawn.get(v) for v in views}, private_to, personal))
    return loaded


def _whispered(event, views: frozenset[View]) -> dict[tuple[int, View], str]:
    """A whisper drawn for its sender and its recipient in every view present (the hub
    does not know which view is whose): a few draws, for a rare event."""
    personal = {}
    for viewer in private_viewers(event):
        for view in views:
            audience, reader = (view, None) if isinstance(view, str) else view
            html = frames.seen(event, audience, viewer=viewer, reader=reader)
            if html is not None:
                personal[(viewer, view)] = html
    return personal


def _by_reader(views, allowed: set[str]) -> list[tuple[Reader | None, list[str]]]:
    """The audiences to draw for each reader among `views`, those in `allowed` only."""
    grouped: dict[Reader | None, list[str]] = {}
    for view in views:
        audience, reader = (view, None) if isinstance(view, str) else view
        if audience in allowed:
            grouped.setdefault(reader, []).append(audience)
    return [(reader, sorted(audiences)) for reader, audiences in grouped.items()]


class TableHub:
    """The local sockets of one campaign and how far this process has read its log."""

    def __init__(self, campaign_id: int, layer=None) -> None:
        self.campaign_id = campaign_id
        self.layer = layer
        self.sockets: set[Subscriber] = set()
        self.head: int | None = None  # highest seq offered to the sockets
        self._lock = asyncio.Lock()
        self._checked_at = 0.0
        self.reads = 0  # database reads of events, for tests and benchmarks
        self.doorbells = 0  # doorbells received, for tests and benchmarks
        self._presence: dict[Reader | None, tuple[tuple | None, str]] = {}
        self.channel: str | None = None  # this hub's own channel in the table's group
        self._listening = asyncio.Event()
        self._failed: BaseException | None = None
        self._tasks: list[asyncio.Task] = []
        self._presence_task: asyncio.Task | None = None
        self._pending: float | None = None  # the highest doorbell not answered yet
        self._rung = asyncio.Event()
        self._back: asyncio.Task | None = None  # catching up as the layer is back

    # --- the doorbell: one channel per table and process -----------------------------

    async def listen(self) -> None:
        """Join the table's group with this hub's own channel, then receive its doorbells."""
        try:
            if self.layer is not None:
                self.channel = await self.layer.new_channel("hub.")
                await self.layer.group_add(group_name(self.campaign_id), self.channel)
                reachability.watch(self._layer_changed)
                # A context of their own: the hub serves every socket of the table, so its
                # log lines must not name the first socket's request and user (logs.py).
                self._tasks = [
                    asyncio.create_task(work, context=contextvars.Context())
                    for work in (self._receive(), self._answer(), self._watch_presence())
                ]
        except BaseException as error:
            self._failed = error
            raise
        finally:
            self._listening.set()

    async def listening(self) -> None:
        """Wait until the hub is in the group (another socket of this table started it)."""
        await self._listening.wait()
        if self._failed is not None:
            raise RuntimeError("the table's doorbell channel could not be joined")

    async def _receive(self) -> None:
        # Drain the channel at once, whatever ring() is doing: a message left waiting
        # in a layer's queue can expire, and the in-memory layer then drops the channel
        # from its groups. Doorbells are coalesced; ring() reads all that is new anyway.
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                reachability.noted(error)
                log.exception("doorbells of table %s: receive failed", self.campaign_id)
                await asyncio.sleep(1.0)
                continue
            kind = message.get("type")
            if kind == "table.event":
                self.doorbells += 1
                seq = as_seq(message.get("seq"))
                seq = UNKNOWN if seq is None else seq
                self._pending = seq if self._pending is None else max(self._pending, seq)
                self._rung.set()
            elif kind == "presence.changed" and self._presence_task is None:
                self._presence_task = asyncio.create_task(self._tell_presence())

    async def _watch_presence(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_CHECK_S)
            try:
                roster = await presence.store().roster(self.campaign_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence of table %s not read", self.campaign_id)
                continue
            told = {key for key, _ in self._presence.values()} or {None}
            if {_roster_key(roster)} != told and self._presence_task is None:
                self._presence_task = asyncio.create_task(self._tell_presence())

    async def _tell_presence(self) -> None:
        try:
            await asyncio.sleep(PRESENCE_DEBOUNCE_S)
        finally:
            self._presence_task = None  # a change from now on is told again
        for socket in list(self.sockets):
            socket.presence_changed_nowait()

    async def _answer(self) -> None:
        while True:
            await self._rung.wait()
            self._rung.clear()
            seq, self._pending = self._pending, None
            try:
                await self.ring(None if seq in (None, UNKNOWN) else int(seq))
            except asyncio.CancelledError:
                raise
            except Exception:  # the next doorbell or heartbeat tries again
                log.exception("events of table %s not read", self.campaign_id)

    def _layer_changed(self, away: bool) -> None:
        """Redis went away or came back (channel_layer.reachability): every page is told,
        once it is back after what the lost doorbells did not bring (read once here)."""
        if away:
            self._tell_layer(away)
        elif self._back is None:
            self._back = asyncio.get_running_loop().create_task(self._caught_up())

    async def _caught_up(self) -> None:
        try:
            await self._check_head()
        except Exception:  # the pages' heartbeats still catch up
            log.exception("events of table %s not read after the layer's return", self.campaign_id)
        finally:
            self._back = None
        self._tell_layer(reachability.away)

    def _tell_layer(self, away: bool) -> None:
        for socket in list(self.sockets):
            socket.layer_changed_nowait(away)

    async def stop(self) -> None:
        """Leave the group: this process has no socket of the table any more."""
        reachability.unwatch(self._layer_changed)
        for task in [*self._tasks, self._presence_task, self._back]:
            if task is not None:
                task.cancel()
        if self.layer is not None and self.channel is not None:
            try:
                await self.layer.group_discard(group_name(self.campaign_id), self.channel)
            except Exception:  # a down layer forgets the group with the connection anyway
                log.exception("table %s: hub channel not discarded", self.campaign_id)

    # --- reading the log --------------------------------------------------------------

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
                views = frozenset(v for s in self.sockets if (v := view_of(s)) is not None)
                frames = await database_sync_to_async(load_frames)(
                    self.campaign_id, self.head, views
                )
                self.reads += 1
                for frame in frames:
                    self.head = frame.seq
                    for socket in list(self.sockets):
                        socket.offer(frame)
                if len(frames) < BATCH:
                    return

    async def heartbeat(self) -> None:
        """Heal a lost doorbell: compare with the database head, at most every HEAD_CHECK_S.
        While Redis is away, also see whether it is back (pages beat faster then)."""
        if reachability.away and self.layer is not None:
            reachability.probe_soon(self.layer)
        if self.head is None or time.monotonic() - self._checked_at < HEAD_CHECK_S:
            return
        await self._check_head()

    async def _check_head(self) -> None:
        self._checked_at = time.monotonic()
        head = await database_sync_to_async(render.head_seq)(self.campaign_id)
        if self.head is not None and head > self.head:
            await self.ring(head)

    async def presence_html(
        self, roster: dict[int, int] | None, reader: Reader | None = None
    ) -> str:
        """Who is here (None: not known), rendered once per roster and reader however many
        sockets ask."""
        key = _roster_key(roster)
        kept = self._presence.get(reader)
        if kept is None or kept[0] != key:
            html = await database_sync_to_async(_presence_for)(self.campaign_id, roster, reader)
            kept = self._presence[reader] = (key, html)
        return kept[1]


def _presence_for(campaign_id: int, roster, reader: Reader | None) -> str:
    if reader is None:
        return render.render_presence(campaign_id, roster)
    with reading_as(reader):
        return render.render_presence(campaign_id, roster)


def _roster_key(roster: dict[int, int] | None) -> tuple | None:
    return None if roster is None else tuple(sorted(roster.items()))


_hubs: dict[int, TableHub] = {}
_stopping: set[asyncio.Task] = set()  # hubs leaving their group (kept from the GC)


async def join(campaign_id: int, socket: Subscriber, layer=None) -> TableHub:
    """Register a socket with its table's hub; the first one puts the hub in the group.

    Returns once the hub receives the table's doorbells, so a socket that reads the
    head after this either finds an event in the database or is offered it."""
    hub = _hubs.get(campaign_id)
    if hub is None:
        hub = _hubs[campaign_id] = TableHub(campaign_id, layer)
        hub.sockets.add(socket)
        try:
            await hub.listen()
        except BaseException:
            if _hubs.get(campaign_id) is hub:
                del _hubs[campaign_id]
            raise
    else:
        hub.sockets.add(socket)
        await hub.listening()
    return hub


def leave(campaign_id: int, socket: Subscriber) -> None:
    hub = _hubs.get(campaign_id)
    if hub is None or socket not in hub.sockets:
        return  # left already (a socket may say so more than once)
    hub.sockets.discard(socket)
    if not hub.sockets:
        # Nobody local is watching: the next socket starts from the database head.
        del _hubs[campaign_id]
        task = asyncio.get_running_loop().create_task(hub.stop())
        _stopping.add(task)
        task.add_done_callback(_stopping.discard)


def hub_for(campaign_id: int) -> TableHub | None:
    return _hubs.get(campaign_id)


def reset() -> None:
    """Forget every hub (tests that reset the database between cases)."""
    for hub in _hubs.values():
        reachability.unwatch(hub._layer_changed)
        for task in hub._tasks:
            try:
                task.cancel()
            except RuntimeError:  # its event loop (a finished test's) is closed
                pass
    _hubs.clear()

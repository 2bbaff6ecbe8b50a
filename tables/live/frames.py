"""The render seam: one event's live fragments, drawn at most once per audience per process.

A roll is drawn for the actor's HTTP answer (views/answers.py) and, a moment later,
by this process's hub for every audience its sockets have (fanout.load_frames), and
again for a socket that replays it (events_after, below). All of them ask here. The
first to ask for an audience draws it and keeps the string; the first to ask for any
audience reads the event's rows (campaign, cards, play record: render.event_rows) and
keeps them for the other audiences. The command's own rows (hold, called after commit by
the doorbell, broadcast.announce) spare reading the campaign and the cards it wrote.
What it saves is measured in bench/README.md ("render seam: what it saves, kept").

The contract (what a page relies on):
- The frames of event N show the state just after N committed (the command's rows:
  services read what they write under the campaign lock, and change_pool keeps the
  objects in step), or as read once in this process after that. Never older than N.
- A later event pushes later state, and each page applies events in order, so a page
  ends current. A replay of N served from here shows N's state (not today's),
  followed by N+1's and onwards.
- Fragments depend on the audience and the reader's language, time zone (issue 28) and
  wish for rule marks (issue 37), never on the person: the key is (event id, its
  created_at, audience, Reader), so a GM-only event's GM frames are never another
  audience's, and a German reader's never a French one's. The rows are read once for all of them.
  Who may see an event is decided by the callers (render.visible) before asking.
- Kept per process, bounded, least recently used dropped first: the drawn strings by
  their size (DRAWN_BYTES), the rows and the held rows by count (ROWS each). Measured
  in deploy/README.md ("Sizing"). created_at is in the key: a database reset reuses
  ids, never (id, timestamp).

LIVE_FRAME_MEMO = False in the settings (or LIVE_FRAME_MEMO=0 in the environment)
bypasses it: every call is render.event_fragments, read and drawn afresh.
"""

from __future__ import annotations

import copy
import sys
import threading
from collections import OrderedDict

from django.conf import settings

from tables.live import render
from tables.models import MomentaRoll, TableEvent
from tables.policy.access import WHISPER_KINDS
from tables.policy.locale import Reader, current_reader, reading_as

# A frame is wanted again within moments (the hub after the answer, a socket catching
# up after a reconnect), so a few minutes of a busy worker's frames is plenty. A bound in
# bytes, not frames: a frame is 1-20 kB by audience and event, and a count of 2,048 held
# 8 MB at two tables of seven and more at larger ones (issue 41, bench/memory_soak.py).
DRAWN_BYTES = 4 * 1024 * 1024
# Rows are whole model graphs (campaign, cards with owners and tracks, board, tracker;
# ~14 kB each at a table of seven, more at a larger one), needed from a command's answer
# until the hub has drawn its other views, a few calls later on the same thread: 128
# covers 125 tables each rolling at once (bench/live_bench.py's "all tables at once").
ROWS = 128

_drawn: OrderedDict[tuple, str] = OrderedDict()
_drawn_bytes = 0  # sys.getsizeof of every string in _drawn
_rows: OrderedDict[tuple, render.Rows] = OrderedDict()
_held: OrderedDict[tuple, tuple] = OrderedDict()  # (campaign, characters) a command committed
# The hub draws on the consumers' one database thread, an answer on a request's: the
# lock keeps a draw from being stored while another thread evicts or reads the dicts.
_lock = threading.Lock()


def enabled() -> bool:
    return settings.LIVE_FRAME_MEMO


def hold(event: TableEvent) -> None:
    """Keep the rows the command that appended `event` holds as it committed them: the
    campaign it locked and wrote, the characters its changes wrote (core.append_event),
    a Momenta roll's record and its roller.
    Called after commit, on the command's thread, before its answer is drawn."""
    if not enabled() or event.created_at is None:
        return
    # Copies: the command's objects are its own, and may change in a later transaction.
    campaign = copy.copy(event.campaign)
    characters = tuple(copy.copy(c) for c in getattr(event, "written_characters", ()))
    # A Momenta roll's record: `roll.event = append_event(…)` caches it on the event.
    roll = TableEvent.momenta_roll.related
    record = copy.copy(roll.get_cached_value(event)) if roll.is_cached(event) else None
    roller = MomentaRoll._meta.get_field("character")
    if record is not None and roller.is_cached(record):  # read under the lock (lock_for_play)
        characters += (copy.copy(record.character),)
    with _lock:
        key = (event.pk, event.created_at.isoformat())
        _put(_held, key, (campaign, characters, record), ROWS)


def fragments(event: TableEvent, audiences, reader: Reader | None = None) -> dict[str, str]:
    """{audience: its fragments} for one event and one reader (default: the language and
    time zone active now), each drawn at most once in this process."""
    reader = reader or current_reader()
    if not enabled():
        with reading_as(reader):
            return render.event_fragments(event, audiences)
    return {audience: fragment(event, audience, reader) for audience in audiences}


def fragment(event: TableEvent, audience: str, reader: Reader | None = None) -> str:
    """One audience's fragments for the event (drawn lazily: only the audiences asked
    for), in `reader`'s language and time zone (default: those active now)."""
    reader = reader or current_reader()
    if not enabled():
        with reading_as(reader):
            return render.render_event_fragments(event, audience)
    event_key = (event.pk, event.created_at.isoformat())
    key = (*event_key, audience, reader)
    with _lock:
        html = _get(_drawn, key)
        if html is not None:
            return html
        rows = _get(_rows, event_key)
        held = _held.pop(event_key, None)
    # Two threads asking at once both draw (no wait for the other: it measured nothing
    # saved, bench/README.md); the second's string replaces the first's, the same.
    if rows is None:
        rows = render.event_rows(event, *(held or ()))
        with _lock:
            _put(_rows, event_key, rows, ROWS)
    with reading_as(reader):
        html = render.draw(event, audience, rows)
    with _lock:
        _keep_drawn(key, html)
    return html


def seen(event: TableEvent, audience: str, *, viewer: int | None, reader: Reader | None = None):
    """What one person (their audience and user id) gets for `event`: None if they may not
    see it; a whisper drawn for them alone, worded for its sender, its recipient or a GM
    looking on (issue 37), and never kept; anything else, the audience's frame."""
    if not render.visible(event, audience, viewer):
        return None
    if event.kind not in WHISPER_KINDS:
        return fragment(event, audience, reader)
    with reading_as(reader or current_reader()), render.reading_for(viewer):
        return render.render_event_fragments(event, audience)


def _get(memo: OrderedDict, key):
    found = memo.get(key)
    if found is not None:
        memo.move_to_end(key)
    return found


def _put(memo: OrderedDict, key, value, size: int) -> None:
    memo[key] = value
    while len(memo) > size:
        memo.popitem(last=False)


def _keep_drawn(key: tuple, html: str) -> None:
    """Store a frame, then drop the least recently used ones past DRAWN_BYTES. Under _lock."""
    global _drawn_bytes
    old = _drawn.pop(key, None)
    if old is not None:
        _drawn_bytes -= sys.getsizeof(old)
    _drawn[key] = html
    _drawn_bytes += sys.getsizeof(html)
    while _drawn_bytes > DRAWN_BYTES and len(_drawn) > 1:
        _, dropped = _drawn.popitem(last=False)
        _drawn_bytes -= sys.getsizeof(dropped)


def drawn_bytes() -> int:
    """What the drawn frames take now (bench/memory_soak.py, tests)."""
    return _drawn_bytes


def clear() -> None:
    """Forget every frame and row (tests that reset the database between cases)."""
    global _drawn_bytes
    with _lock:
        _drawn_bytes = 0
        _drawn.clear()
        _rows.clear()
        _held.clear()


def events_after(
    campaign_id: int,
    after: int,
    audience: str,
    *,
    viewer: int | None,
    limit: int = render.REPLAY_BATCH,
    reader: Reader | None = None,
):
    """The next events after seq `after`, in order, as (seq, kind, html-or-None), drawn
    for `reader` (default: the language and time zone active now).

    html is None for an event this viewer (audience, and user id) may not see: the
    socket still advances its cursor past it, but nothing of it leaves the server.
    """
    return [
        (e.seq, e.kind, seen(e, audience, viewer=viewer, reader=reader))
        for e in render.next_events(campaign_id, after, limit)
    ]

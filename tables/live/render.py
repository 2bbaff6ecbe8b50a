"""What the table page shows, rendered once per audience for the page and for live push.

The page and the websocket use the same partials, so a first render and a live
update cannot drift. A pushed event is a string of hx-swap-oob fragments:

    <div hx-swap-oob="afterbegin:#roll-log"><li id="event-N" data-seq="N">…</li></div>
    <section id="pools" hx-swap-oob="true" data-seq="N">…</section>
    <article id="character-7" hx-swap-oob="true" data-seq="N">…</article>  (each affected one)
    …plus the push template its entry names (tables/partials/push/), if any.

What each kind of event means (its label, whether it refreshes every card, the
play record it is about, its templates) is its entry in tables/events.py.

There are two audiences: "gm" (GMs and co-GMs) and "all" (players and
observers). Pushed partials may depend on the audience, never on the person,
so the fan-out renders each event once per audience for all of a process's sockets.
The one exception is a whisper (issue 37), worded for its sender, its recipient or a
GM looking on: drawn for the person inside `reading_for`, never kept (frames.seen).

A card about a play record (a 2d20 test, a Momenta roll, an Assist) shows the
record as it is now (LogEntry.record), and later events about it push its
state block again: docs/live.md, "Cards that change after the event".
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from tables import events as kinds
from tables.live.log_filters import topics as log_topics
from tables.live.muting import is_muted
from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    D20Test,
    Membership,
    MomentaRoll,
    PoolChange,
    TableEvent,
)
from tables.policy import rule_marks
from tables.policy.access import WHISPER_KINDS, sees_event
from tables.presenters import event_words
from tables.presenters.conflicts import tracker_context, tracker_rows
from tables.presenters.scene_board import board_context, board_rows
from tables.presenters.table import (
    GM,
    base_context,
    shows_threat,
    table_characters,
)
from tables.words.said import localized, worded
from tables.words.wording import pool_adjusted, pool_label, pool_name

LOG_LIMIT = 30  # entries on a freshly drawn page; older ones load on demand (log_page.py)
REPLAY_BATCH = 200


def ws_path(campaign_id: int) -> str:
    return f"/ws/campaigns/{campaign_id}/"


def visible(event: TableEvent, audience: str, viewer: int | None) -> bool:
    """May this audience see the event? `viewer` (a user id) also lets the one person a
    PRIVATE kind names see it (access.sees_event); None, it is the GMs' alone."""
    return sees_event(event, audience == GM, viewer)


# Who the page is drawn for, by user id: only a whisper's card reads it (its wording).
_reading_for: ContextVar[int | None] = ContextVar("reading_for", default=None)


@contextlib.contextmanager
def reading_for(viewer: int | None):
    """Word what is drawn inside for this person (a whisper's card: "whispers to you")."""
    token = _reading_for.set(viewer)
    try:
        yield
    finally:
        _reading_for.reset(token)


def whisper_side(event: TableEvent) -> str:
    """How the person drawn for stands to a whisper: "sender", "recipient" or, a GM
    looking on, "onlooker"; "" for any other event."""
    if event.kind not in WHISPER_KINDS:
        return ""
    viewer = _reading_for.get()
    if viewer is not None and viewer == event.actor_id:
        return "sender"
    if viewer is not None and viewer == (event.payload or {}).get("recipient_id"):
        return "recipient"
    return "onlooker"


def kind_label(kind: str, line=None) -> str:
    """The log's name for a kind, by `line`'s pool names (GL-01; tables/events.py)."""
    return kinds.label_of(kind, line)


# --- Log entries ----------------------------------------------------------------


@dataclass(frozen=True)
class ChangeLine:
    """One pool change as a viewer may read it: `after` is None where it would leak Threat."""

    who: str
    pool: str
    pool_label: str
    delta: int
    after: int | None
    lost: int
    reason: str
    character_id: int | None


@dataclass(frozen=True)
class LogEntry:
    """What every event template gets as `entry` (the raw event is `entry.event`)."""

    event: TableEvent
    seq: int
    kind: str
    kind_label: str
    actor_name: str
    summary: str
    changes: list[ChangeLine]
    gm_only: bool
    templates: tuple[str, ...]
    payload: dict[str, Any] = field(default_factory=dict)
    # The play record the event is about (D20Test, MomentaRoll or AssistRequest), as it
    # is *now*: cards show its current state, and later events push that state again.
    record: Any = None
    whisper_side: str = ""  # a whisper's card: whisper_side(), for the person drawn for

    @property
    def topics(self) -> tuple[str, ...]:
        """The log filters that keep this entry (log_filters.SHOWS), as classes for the page."""
        return log_topics(self.kind, self.changes)


def _log_templates(kind: str) -> tuple[str, ...]:
    # An unregistered kind (a row older than the registry) never names a template path.
    entry = kinds.get(kind)
    return entry.log_templates if entry else ("tables/partials/events/generic.html",)


def _push_templates(kind: str) -> tuple[str, ...]:
    entry = kinds.get(kind)
    return entry.push_templates if entry else ("tables/partials/push/none.html",)


def _change_lines(event: TableEvent, campaign: Campaign, audience: str) -> list[ChangeLine]:
    lines = []
    for change in event.payload.get("changes") or []:
        pool = change.get("pool", "")
        try:
            label = str(PoolChange.Pool(pool).label)
        except ValueError:
            label = pool.replace("_", " ").capitalize()
        hidden = pool == "threat" and not shows_threat(campaign, audience)
        lines.append(
            ChangeLine(
                who=change.get("character") or "",  # "" for the campaign's own pools
                pool=pool,
                pool_label=label,
                delta=int(change.get("delta", 0)),
                after=None if hidden else change.get("after"),
                lost=int(change.get("lost", 0) or 0),
                reason=worded(
                    {
                        "summary": change.get("reason", ""),
                        "summary_words": change.get("reason_words"),
                    }
                ),  # fmt: skip
                character_id=change.get("character_id"),
            )
        )
    return lines


def _summary(event: TableEvent, campaign: Campaign | None = None) -> str:
    """One line in words for the generic template; kind templates may ignore it."""
    p = event.payload or {}
    kind = event.kind
    if kind == kinds.INVITE_REGENERATED.name:
        return event_words.new_invite_link(p)  # its stored summary is the English one
    if "summary" in p:
        return worded(p)
    if "text" in p:
        return str(p["text"])
    if kind == kinds.SESSION_STARTED.name:
        return event_words.session_began(p)
    if kind in (kinds.SCENE_STARTED.name, kinds.SCENE_ENDED.name):
        return event_words.scene_line(p)
    if kind in (kinds.MEMBER_JOINED.name, kinds.MEMBER_REMOVED.name, kinds.MEMBER_PROMOTED.name):
        return f"{p.get('user', '')} ({p.get('role', '')})"
    if kind in (kinds.CHARACTER_CREATED.name, kinds.CHARACTER_UPDATED.name):
        return str(p.get("name", ""))
    # Names people read, never field names (issue 11: "pool: group_momentum").
    if kind == kinds.SETTINGS_CHANGED.name:
        return event_words.settings_changed(p.get("fields"))
    if kind == kinds.POOL_ADJUSTED.name:
        pool = str(p.get("pool", ""))
        return pool_adjusted(
            p,
            pool_name(campaign, pool, pool_label(pool)),  # GL-01
        )
    simple = [
        f"{k.replace('_', ' ')}: {pool_label(v) if k == 'pool' else v}"
        for k, v in p.items()
        if k != "changes" and not k.endswith("_id") and isinstance(v, str | int | float | bool)
    ]
    return "; ".join(simple)


# Where each kind of play record is read (tables/events.py says which an event is about).
RECORDS = {
    # Its owner: a resolved test's card offers them the open tasks (d20_test_state.html).
    kinds.TEST: D20Test.objects.select_related("character"),
    # The roller's owner: a roll made for another's character offers them its chooser.
    kinds.ROLL: MomentaRoll.objects.select_related("patterns_event", "assist", "character"),
    kinds.ASSIST: AssistRequest.objects.all(),
}


def _record_key(event: TableEvent) -> tuple[str, int] | None:
    """(record, id) for an event about a play record, else None."""
    entry = kinds.get(event.kind)
    return entry.record_of(event.payload) if entry else None


def _records(events) -> dict[int, Any]:
    """{event pk: its play record}: one query per kind of record, however many events."""
    wanted: dict[str, set[int]] = {}
    for event in events:
        found = _record_key(event)
        if found is not None:
            wanted.setdefault(found[0], set()).add(found[1])
    by_key = {
        record: RECORDS[record].filter(campaign_id=events[0].campaign_id).in_bulk(ids)
        for record, ids in wanted.items()
    }
    records = {}
    for event in events:
        found = _record_key(event)
        if found is not None:
            records[event.pk] = by_key[found[0]].get(found[1])
    return records


def log_entries(events, campaign: Campaign, audience: str) -> list[LogEntry]:
    """Log entries for several events, their play records read in a few queries."""
    events = list(events)
    records = _records(events) if events else {}
    # A voided card names who voided it and why (event_voided.html): read them together.
    prefetch_related_objects([e for e in events if e.voided_by_id], "voided_by__actor")
    return [log_entry(e, campaign, audience, record=records.get(e.pk)) for e in events]


def log_entry(
    event: TableEvent, campaign: Campaign, audience: str, *, record: Any = ...
) -> LogEntry:
    """One log entry; `record` is read from the database unless given (None: none)."""
    if record is ...:
        record = _records([event]).get(event.pk)
    actor = event.actor
    return LogEntry(
        event=event,
        seq=event.seq,
        kind=event.kind,
        kind_label=kind_label(event.kind, getattr(campaign, "line", None)),
        actor_name=actor.get_username() if actor is not None else "The table",
        summary=_summary(event, campaign),
        changes=_change_lines(event, campaign, audience),
        gm_only=event.audience == GM,
        templates=_log_templates(event.kind),
        payload=localized(event.payload),
        record=record,
        whisper_side=whisper_side(event),
    )


# --- Live fragments -----------------------------------------------------------------


def render_event_fragments(event: TableEvent, audience: str) -> str:
    """The hx-swap-oob fragments for one event and one audience, read and drawn now."""
    return event_fragments(event, (audience,))[audience]


def event_fragments(event: TableEvent, audiences) -> dict[str, str]:
    """{audience: its fragments} for one event, the plain path: what it shows is read
    once, now, and drawn for each audience. Nothing is kept after the call; the live
    layer's callers go through frames.fragments, which may keep both (the render seam).

    Pools and cards are read fresh: they are at least as new as the event, and each
    socket applies events in order, so the last fragment a page applies shows the
    current state.
    """
    rows = event_rows(event)
    return {audience: draw(event, audience, rows) for audience in audiences}


@dataclass(frozen=True)
class Rows:
    """What an event's fragments show besides the event itself, read once for every audience."""

    campaign: Campaign
    characters: tuple[Character, ...]
    record: Any
    board: Any = None  # presenters.scene_board.BoardRows, for events that change the board
    turns: Any = None  # presenters.conflicts.TrackerRows, for turn events (issue 24)


def event_rows(
    event: TableEvent,
    campaign: Campaign | None = None,
    held: tuple[Character, ...] = (),
    record: Any = None,
) -> Rows:
    """The campaign, the cards the event redraws and its play record, as they are now.

    `campaign`, `held` (characters with their owner) and `record` are rows the command
    that appended the event holds as it committed them (frames.hold): used, not read.
    """
    if campaign is None or campaign.pk != event.campaign_id:
        campaign = Campaign.objects.get(pk=event.campaign_id)
    entry = kinds.get(event.kind)
    wanted = _affected_character_ids(event)
    owner = Character._meta.get_field("owner")  # cards name it: a held row must have it
    mine = {c.pk: c for c in held if c.campaign_id == campaign.pk and owner.is_cached(c)}
    if entry is not None and entry.refreshes_all_characters:
        # The whole list is drawn again, harm tracks included (characters.html).
        characters = tuple(table_characters(campaign).prefetch_related("harm_tracks"))
    elif all(pk in mine for pk in wanted):
        # The order a query gives (Character.Meta.ordering): PCs first, then by name.
        characters = tuple(sorted((mine[pk] for pk in wanted), key=lambda c: (c.is_npc, c.name)))
    else:  # only the cards it names; most talk and notes name none
        characters = tuple(table_characters(campaign).filter(pk__in=wanted))
    key = _record_key(event)
    mine = key is not None and type(record) is RECORDS[key[0]].model and record.pk == key[1]
    board = board_rows(campaign) if changes_board(entry, event) else None
    tracker = tracker_rows(campaign) if entry is not None and kinds.TURNS in entry.regions else None
    record = record if mine else _records([event]).get(event.pk)
    return Rows(campaign, characters, record, board, tracker)


def changes_board(entry, event: TableEvent) -> bool:
    """Does this event redraw the scene board? A spend or veto only if it changed it
    (MO-09, MO-10): most spends leave it alone, and a roll never pushes it."""
    if entry is None or kinds.SCENE_BOARD not in entry.regions:
        return False
    if entry.record is None:
        return True
    payload = event.payload or {}
    return "trait" in payload or "asset" in payload


def draw(event: TableEvent, audience: str, rows: Rows) -> str:
    """One audience's fragments for the event, from `rows` (event_rows)."""
    campaign = rows.campaign
    entry = kinds.get(event.kind)
    context = {
        **base_context(campaign, audience),
        "event": event,
        "seq": event.seq,
        "refresh_characters": entry is not None and entry.refreshes_all_characters,
        "characters": list(rows.characters),
        "push_templates": _push_templates(event.kind),
        "log_muted": is_muted(event, campaign),  # no card; pools and cards still pushed
        "entry": log_entry(event, campaign, audience, record=rows.record),
        "regions_html": region_fragments(entry, event, campaign, audience),
        # The reader's § marks (issue 37): frames are drawn inside reading_as(reader).
        "rule_marks": rule_marks.shown(rule_marks.active(), audience),
    }
    if rows.board is not None:
        context.update(board_context(campaign, audience == GM, rows.board), board_push=True)
    if rows.turns is not None:
        context.update(tracker_context(campaign, audience == GM, rows.turns), turn_push=True)
    return render_to_string("tables/partials/push.html", context)


def _affected_character_ids(event: TableEvent) -> list[int]:
    ids = [c.get("character_id") for c in event.payload.get("changes") or []]
    ids.append(event.payload.get("character_id"))
    return sorted({i for i in ids if isinstance(i, int)})


# --- Regions beyond the log, pools and cards ------------------------------------------


def region_fragments(kind, event: TableEvent, campaign: Campaign, audience: str) -> str:
    """The other regions `kind` names (tables/events.py), for one audience.

    GM-only regions go to the GM audience only: players never get the GM tools (secret
    tests, the Threat heading). A per-person region (a viewer's open tests, their
    spend panel) is never rendered here: a marker asks a page whose copy is older than
    the event to fetch its own (partials/live_sync.html).
    """
    regions = kind.regions if kind is not None else frozenset()
    parts = []
    if audience == GM:
        parts.append(_gm_fragments(kind, event, campaign))
        parts.append(_challenge_hit(kind, event, campaign))
    sync = _sync_regions(regions, campaign) + _assists_sync(kind, event, campaign, audience)
    if sync:
        record = kind.record_of(event.payload) if kind is not None else None
        own_test = record[1] if record and record[0] == kinds.TEST else None
        parts.append(
            render_to_string(
                "tables/partials/live_sync.html",
                {
                    "sync_oob": True,
                    "sync_regions": sync,
                    "seq": event.seq,
                    "campaign": campaign,
                    # Its test's own pushes already nudge that panel (d20_test_push.html).
                    "own_test": own_test if kind.push_template else None,
                },
            )
        )
    return mark_safe("".join(parts))  # each part is a rendered template


def _sync_regions(regions, campaign: Campaign) -> list[str]:
    # A called test (tables/services/calls.py) is answered in either ruleset.
    calls = [kinds.CALLS] if kinds.CALLS in regions else []
    return calls + _d20_sync_regions(regions, campaign)


def _d20_sync_regions(regions, campaign: Campaign) -> list[str]:
    if campaign.uses_d6 or not campaign.uses_group_economy:
        return []  # the open tests and the spend panel are the 2d20 composer's
    return [r for r in (kinds.OPEN_TESTS, kinds.SPEND_PANEL) if r in regions]


# The composer's "Use an Assist" choice and Resolve fields (composer_momenta_assist.html).
ASSIST_CHOICE = "assist_choice"


def _assists_sync(kind, event: TableEvent, campaign: Campaign, audience: str) -> list[str]:
    """A player's Assist panel (their Accept/Decline as the helper, PM-08) is theirs alone:
    an event about an Assist, a roll that used one, or a new or renamed character (the
    panel names helpers and rollers, and offers every character as either) makes it fetch
    itself again. GMs answer in the queue, which their push carries whole. The same
    events make anyone's composer fetch its Assist choice again (issue 25: an accepted
    Assist is offered, a declined or used one goes), GMs' too: they roll for NPCs."""
    if kind is None or not campaign.uses_d6:
        return []
    if kinds.ASSIST_QUEUE not in kind.regions:
        return []
    record = kind.record_of(event.payload)
    about_assist = record is not None and record[0] == kinds.ASSIST
    named = kind is kinds.CHARACTER_CREATED or (
        kind is kinds.CHARACTER_UPDATED and "renamed_from" in event.payload
    )
    if not (about_assist or named or event.payload.get("helper")):
        return []
    return [ASSIST_CHOICE] if audience == GM else [kinds.ASSIST_QUEUE, ASSIST_CHOICE]


def _gm_fragments(kind, event: TableEvent, campaign: Campaign) -> str:
    """The GM tools' parts this event changes (gm_parts.py), from the page's own partials.

    Only those are read and drawn: a plain roll redraws neither the secret lists nor the
    Assist queue, and the Threat heading only when Threat moved."""
    from tables.live import gm_parts
    from tables.presenters.gm import gm_live_context

    parts = gm_parts.gm_parts(kind, event, campaign)
    if not parts:
        return ""
    marks = rule_marks.shown(rule_marks.active(), GM)
    context = {"c": campaign, "campaign": campaign, "gm_oob": True, "draw": parts}
    context["rule_marks"] = marks
    reads = [key for part in parts for key in gm_parts.READS.get(part, ())]
    if reads:
        context["gmp"] = gm_live_context(campaign, only=reads)
        context["secret_rolls"] = context["gmp"].get("secret_rolls")
    if gm_parts.QUEUE in parts:
        from tables.presenters.momenta import assist_queue_context

        queue = assist_queue_context(campaign, _gm_viewer(campaign))
        context["queue_html"] = render_to_string(
            "tables/partials/assist_queue.html", {**queue, "gm_oob": True, "rule_marks": marks}
        )
    return render_to_string("tables/partials/push_gm.html", context)


def _challenge_hit(kind, event: TableEvent, campaign: Campaign) -> str:
    """GL-04, SC-02: a Challenge dice roll fills the GM's hit on its roller's last test,
    if that is a passed attack still awaiting its hit: that card's hit form again, for
    the GMs only (players have none). One query, only for a roll that names its roller;
    the total is the event's own (attack_hit.html reads the roll on a page's draw)."""
    roller = (event.payload or {}).get("roller_id")
    if kind is not kinds.CHALLENGE_ROLL or not isinstance(roller, int):
        return ""
    test = (
        D20Test.objects.filter(campaign=campaign, character_id=roller, event__seq__lt=event.seq)
        .select_related("event")
        .order_by("-event__seq")
        .first()
    )
    if test is None or not _awaits_hit(test):
        return ""
    context = {"campaign": campaign, "is_gm": True, "hit_test": test, "hit_roll": None}
    context.update(hit_rolled=event.payload.get("total"), hit_oob=True)
    context["rule_marks"] = rule_marks.shown(rule_marks.active(), GM)
    return render_to_string("tables/partials/attack_hit.html", context)


def _awaits_hit(test: D20Test) -> bool:
    """A resolved, passed, not voided attack whose hit is not applied yet (attack_hit.html)."""
    spec = test.spec or {}
    passed = test.state == D20Test.State.RESOLVED and (test.result or {}).get("passed")
    voided = test.event is not None and test.event.voided_by_id is not None
    return bool(passed and spec.get("target_id") and not spec.get("hit_seq") and not voided)


def _gm_viewer(campaign: Campaign) -> Membership:
    """The GM audience as one viewer: GM-facing presenters ask only `is_gm`."""
    return Membership(campaign=campaign, role=Membership.Role.GM)


def next_events(campaign_id: int, after: int, limit: int = REPLAY_BATCH) -> list[TableEvent]:
    """The next `limit` events after seq `after`, in order (one query)."""
    return list(
        TableEvent.objects.filter(campaign_id=campaign_id, seq__gt=after)
        .select_related("actor")
        .order_by("seq")[:limit]
    )


def head_seq(campaign_id: int) -> int:
    return Campaign.objects.values_list("last_seq", flat=True).get(pk=campaign_id)


# --- Presence -----------------------------------------------------------------------


@dataclass(frozen=True)
class Present:
    name: str
    role: str
    role_label: str
    sockets: int


def render_presence(campaign_id: int, roster: dict[int, int] | None, *, oob: bool = True) -> str:
    """presence.html for a roster {user_id: open sockets}; None means "not known yet"."""
    present = None
    if roster is not None:
        memberships = Membership.objects.filter(
            campaign_id=campaign_id, user_id__in=list(roster)
        ).select_related("user")
        order = {Membership.Role.GM: 0, Membership.Role.PLAYER: 1, Membership.Role.OBSERVER: 2}
        present = [
            Present(m.user.get_username(), m.role, m.get_role_display(), roster[m.user_id])
            for m in sorted(memberships, key=lambda m: (order[m.role], m.user.get_username()))
        ]
    return render_to_string(
        "tables/partials/presence.html", {"present": present, "presence_oob": oob}
    )

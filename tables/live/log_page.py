"""One page of the table log for one audience: newest first, optionally filtered.

The table page draws the first page; its "Older entries" button asks
tables/views/log.py for the next one, before the oldest seq shown. The filter is also
a class per entry (`LogEntry.topics`): live pushes are rendered once per audience,
never per filter, so the page hides the ones its filter leaves out with CSS
(`.log-view[data-show=…]` in site.css) and they still arrive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef

from tables import events as kinds
from tables.live.muting import unmuted
from tables.models import Campaign, PoolChange, TableEvent
from tables.services.access import events_seen_q

PAGE = 30  # entries per page: a phone's log stays a few screens tall
SHOWS = {"all": "Everything", "rolls": "Rolls", "pools": "Pool changes", "talk": "Talk"}
DEFAULT_SHOW = "all"

# Kinds that are a roll of dice, or its immediate outcome.
ROLL_KINDS = frozenset(
    {
        kinds.MOMENTA_ROLL.name,
        kinds.MOMENTA_PATTERNS.name,
        kinds.SECRET_ROLL.name,
        kinds.ROLL_REVEALED.name,
        kinds.D20_TEST.name,
        kinds.D20_REROLL.name,
        kinds.CONTEST_OPENED.name,
        kinds.CONTEST_RESOLVED.name,
    }
)


# Words at the table: the GM's notes and table talk (a message to the GM included).
TALK_KINDS = frozenset({kinds.NOTE.name, kinds.TALK.name, kinds.TALK_PRIVATE.name})


def topics(kind: str, changes) -> tuple[str, ...]:
    """The filters that keep an entry (besides "all"): the same test as log_page's query."""
    found = []
    if kind in ROLL_KINDS:
        found.append("rolls")
    if changes:
        found.append("pools")
    if kind in TALK_KINDS:
        found.append("talk")
    return tuple(found)


def parse_show(raw: str | None) -> str | None:
    """The filter named by `raw` ("" or absent: everything), or None if it names none."""
    if not raw:
        return DEFAULT_SHOW
    return raw if raw in SHOWS else None


@dataclass(frozen=True)
class LogPage:
    entries: list[Any]  # live.render.LogEntry, newest first
    show: str
    older: int | None  # the seq to ask "before" for the next page; None: no more


def log_page(
    campaign: Campaign,
    audience: str,
    *,
    before: int | None = None,
    show: str = DEFAULT_SHOW,
    limit: int = PAGE,
    viewer: int | None = None,
) -> LogPage:
    """Up to `limit` entries this audience (and `viewer`, a user id: their own private
    messages) may see, older than `before` if given; none the mute setting keeps out.

    Capped at the campaign row's last_seq, read by the caller: the page's cursor for
    the socket, so a first page and the replay after it neither miss nor repeat.
    """
    from tables.live import render as live  # render imports this module

    events = TableEvent.objects.filter(campaign=campaign, seq__lte=campaign.last_seq)
    if before is not None:
        events = events.filter(seq__lt=before)
    if audience != live.GM:
        # Players never get GM-only events, but for their own messages to the GM.
        events = events.filter(events_seen_q(viewer))
    events = unmuted(events, campaign)
    if show == "rolls":
        events = events.filter(kind__in=ROLL_KINDS)
    elif show == "pools":
        events = events.filter(Exists(PoolChange.objects.filter(event=OuterRef("pk"))))
    elif show == "talk":
        events = events.filter(kind__in=TALK_KINDS)
    rows = list(events.select_related("actor").order_by("-seq")[: limit + 1])
    older = rows[limit - 1].seq if len(rows) > limit else None
    return LogPage(live.log_entries(rows[:limit], campaign, audience), show, older)

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

from tables.live import render as live
from tables.live.log_filters import (  # noqa: F401  (the filters, where log views look)
    DEFAULT_SHOW,
    ROLL_KINDS,
    SHOWS,
    TALK_KINDS,
    parse_show,
    topics,
)
from tables.live.muting import unmuted
from tables.models import Campaign, PoolChange, TableEvent
from tables.policy.access import events_seen_q
from tables.presenters.table import GM

PAGE = 30  # entries per page: a phone's log stays a few screens tall


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
    viewer: int | None,
) -> LogPage:
    """Up to `limit` entries this audience (and `viewer`, a user id: their own private
    messages) may see, older than `before` if given; none the mute setting keeps out.

    Capped at the campaign row's last_seq, read by the caller: the page's cursor for
    the socket, so a first page and the replay after it neither miss nor repeat.
    """
    events = TableEvent.objects.filter(campaign=campaign, seq__lte=campaign.last_seq)
    if before is not None:
        events = events.filter(seq__lt=before)
    # Players never get GM-only events, but for their own messages to the GM; nobody
    # gets a whisper that does not name them, unless a GM who reads it (issue 37).
    events = events.filter(events_seen_q(viewer, is_gm=audience == GM))
    events = unmuted(events, campaign)
    if show == "rolls":
        events = events.filter(kind__in=ROLL_KINDS)
    elif show == "pools":
        events = events.filter(Exists(PoolChange.objects.filter(event=OuterRef("pk"))))
    elif show == "talk":
        events = events.filter(kind__in=TALK_KINDS)
    rows = list(events.select_related("actor").order_by("-seq")[: limit + 1])
    older = rows[limit - 1].seq if len(rows) > limit else None
    with live.reading_for(viewer):  # a whisper's card is worded for its reader
        entries = live.log_entries(rows[:limit], campaign, audience)
    return LogPage(entries, show, older)

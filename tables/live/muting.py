"""Which pool-change cards a campaign's "mute pool chatter" setting keeps out of the log.

Noisy, and muted: an event that is nothing but a pool change of one point — the GM's
hand adjustment of a pool (pool_adjusted) or Threat added or spent (threat_added,
threat_spent) where every change moves its pool by at most one point. At a 2d20 table
Threat ticks up a point at a time all evening, and each tick was a card. Bigger
changes stay, and so does every roll, spend, refund, trauma or void: those say what
happened, not only how much a pool moved.

Muted means not a card in the log, for anyone: not on the page's first draw, its older
pages or a filter (log_page.py), nor in a push (push.html leaves the log fragment out).
The push still carries the pools and the cards, so they update live, and the pool
ledger keeps every line (each pool's history dialog shows them). The setting is read
when the log is drawn: turning it off shows the muted cards again.

Also out of the log, whatever the setting: a called test's answer whose roll's card says
it answered the call (on_roll_card), so an answer is one card, not two (issue 25).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from tables import events as kinds
from tables.models import Campaign, PoolChange, TableEvent

MUTABLE_KINDS = frozenset(
    {kinds.POOL_ADJUSTED.name, kinds.THREAT_ADDED.name, kinds.THREAT_SPENT.name}
)
SMALL = 1  # points: a change of at most this much is chatter


def is_muted(event: TableEvent, campaign: Campaign) -> bool:
    """Does the campaign's setting keep this event's card out of the log (or is it an
    answer its roll's card shows)?"""
    if on_roll_card(event):
        return True
    if not campaign.mute_pool_chatter or event.kind not in MUTABLE_KINDS:
        return False
    changes = (event.payload or {}).get("changes") or []
    return bool(changes) and all(_small(change) for change in changes)


def _small(change) -> bool:
    try:
        return abs(int(change.get("delta", 0) or 0)) <= SMALL
    except (AttributeError, TypeError, ValueError):
        return False  # a change this module cannot read is shown, not hidden


def on_roll_card(event: TableEvent) -> bool:
    """A called test's answer that its roll's card shows (services/calls.py): one card for
    the answer, the roll's, whatever the setting (issue 25). Older answers keep theirs."""
    marked = bool((event.payload or {}).get("on_roll_card"))  # only ever written True
    return marked and event.kind == kinds.CALL_ANSWERED.name


def unmuted(events: QuerySet, campaign: Campaign) -> QuerySet:
    """`events` without those is_muted leaves out: the same test, in the database."""
    # has_key, not =True: a key's absence is NULL in SQL, and NOT (… AND NULL) drops the row.
    events = events.exclude(kind=kinds.CALL_ANSWERED.name, payload__has_key="on_roll_card")
    if not campaign.mute_pool_chatter:
        return events
    lines = PoolChange.objects.filter(event=OuterRef("pk"))
    big = lines.filter(Q(delta__gt=SMALL) | Q(delta__lt=-SMALL))
    return events.exclude(Q(kind__in=MUTABLE_KINDS) & Exists(lines) & ~Exists(big))

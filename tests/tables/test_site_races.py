"""Two people pressing at once: the pool lock means exactly one wins, nothing double-counts.

These run real threads against the real database (SQLite IMMEDIATE transactions
or PostgreSQL row locks, whichever the settings give), so transaction=True.
"""

import pytest

from tables.models import Campaign, PoolChange, TableEvent
from tables.services import sessions
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_gms_spending_the_last_group_point_at_once_cannot_both_win(d20_campaign, gm, cogm):
    """The pool lock: one spend wins, the other is refused, the pool never goes below 0.
    (No clause: this is about concurrency, not MO-06's cap of 6.)"""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=1)

    def spend(actor):
        return lambda: sessions.adjust_pool(d20_campaign.pk, actor, "group_momentum", -1, "race")

    results = race(spend(gm), spend(cogm))

    assert sorted(results) == ["ok", "refused"]
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 0
    assert PoolChange.objects.filter(campaign=d20_campaign, pool="group_momentum").count() == 1


def test_event_numbers_stay_gap_free_when_many_commandsrace(d20_campaign, gm, cogm):
    start = d20_campaign.last_seq

    def gain(actor):
        return lambda: sessions.adjust_pool(d20_campaign.pk, actor, "threat", 1, "race")

    results = race(*[gain(actor) for actor in (gm, cogm) * 4])

    assert results == ["ok"] * 8
    events = TableEvent.objects.filter(campaign=d20_campaign, seq__gt=start)
    seqs = list(events.values_list("seq", flat=True))
    assert seqs == list(range(start + 1, start + 9))
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 8 and d20_campaign.last_seq == start + 8

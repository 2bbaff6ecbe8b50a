"""What the live path counts for `/metrics` (tables/live/metrics.py, issue 39): the table
sockets open now, and the events pushed, read as Prometheus reads them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.live.consumers import TableConsumer
from tests.metrics_scrape import scrape, value

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

ascrape = sync_to_async(scrape)


async def sockets_open() -> float:
    return value(await ascrape(), "momenta_sockets_open")


async def test_a_socket_counts_while_open(connect, d20_campaign, gm, player):
    before = await sockets_open()
    first, accepted, _ = await connect(gm, d20_campaign)
    assert accepted
    await first.ready()
    second, accepted, _ = await connect(player, d20_campaign)
    assert accepted
    await second.ready()
    assert await sockets_open() == before + 2
    await first.close()
    assert await sockets_open() == before + 1
    await second.close()
    assert await sockets_open() == before


async def test_a_refused_socket_never_counts(connect, d20_campaign, outsider):
    before = await sockets_open()
    _, accepted, _ = await connect(outsider, d20_campaign)
    assert not accepted
    assert await sockets_open() == before


async def test_a_socket_that_fails_still_leaves_the_count(connect, d20_campaign, gm, monkeypatch):
    """An error in the consumer ends the socket: it is not counted open any more."""
    socket, accepted, _ = await connect(gm, d20_campaign)
    assert accepted
    await socket.ready()
    before = await sockets_open()

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "receive_json", broken)
    await socket.communicator.send_json_to({"type": "ping"})
    with pytest.raises(RuntimeError):
        await socket.communicator.wait(10)
    socket.closed = True
    assert await sockets_open() == before - 1


async def test_each_committed_event_counts_once_by_kind(connect, d20_campaign, gm, player):
    """Counted as it is announced, whether or not anyone is watching: one per event."""
    before = await ascrape()
    await acommit_event(d20_campaign.pk, player, payload={"summary": "Paul rolls Stealth"})
    await acommit_event(d20_campaign.pk, player, payload={"summary": "Paul rolls Athletics"})
    socket, accepted, _ = await connect(gm, d20_campaign)
    assert accepted
    await socket.ready()
    third = await acommit_event(
        d20_campaign.pk, gm, changes=[("threat", 1, "Bought a d20 (MO-08)", None)]
    )
    await socket.until(lambda m: m.get("seq") == third.seq)
    after = await ascrape()
    for kind, pushed in (("note", 2), ("pool_adjusted", 1)):
        assert value(after, "momenta_events_pushed_total", kind=kind) == (
            value(before, "momenta_events_pushed_total", kind=kind) + pushed
        ), kind

"""The per-process fan-out: one database read per event however many local sockets.

A table's sockets in one process share a hub (tables/live/fanout.py). These
tests count the SQL that reads the event log while eight sockets receive
events, heartbeat, and one of them stalls.
"""

import asyncio
import contextlib
import re

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db.backends.utils import CursorWrapper

from tables.live import consumers, fanout
from tables.live.broadcast import group_name

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

EVENT_LOG_READ = re.compile(r'^\s*SELECT .* FROM "tables_tableevent"', re.S | re.I)


@contextlib.contextmanager
def sql_log():
    """Every SQL statement run in this process (any thread) while the block runs."""
    seen: list[str] = []
    real = CursorWrapper.execute

    def execute(self, sql, params=None):
        seen.append(sql)
        return real(self, sql, params)

    CursorWrapper.execute = execute
    try:
        yield seen
    finally:
        CursorWrapper.execute = real


async def eight_sockets(connect, campaign, users):
    sockets = []
    for i in range(8):
        socket, accepted, _ = await connect(users[i % len(users)], campaign, name=f"s{i}")
        assert accepted
        await socket.ready()
        sockets.append(socket)
    return sockets


async def test_eight_sockets_cost_one_event_log_read_per_event(
    connect, momenta_campaign, gm, cogm, player, player2, observer
):
    sockets = await eight_sockets(connect, momenta_campaign, [gm, cogm, player, player2, observer])
    with sql_log() as seen:
        for n in range(5):
            event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": f"roll {n}"})
            for socket in sockets:
                await socket.until(lambda m, s=event.seq: m.get("seq") == s)
    reads = [sql for sql in seen if EVENT_LOG_READ.match(sql)]
    assert len(reads) == 5, reads
    for socket in sockets:
        assert socket.seqs() == [event.seq - 4 + n for n in range(5)], socket.name


async def test_heartbeats_of_current_pages_read_nothing(
    connect, momenta_campaign, gm, player, player2, observer
):
    sockets = await eight_sockets(connect, momenta_campaign, [gm, player, player2, observer])
    for socket in sockets:
        await socket.sync()  # presence settles: every later roster is the same
    with sql_log() as seen:
        for socket in sockets:
            await socket.sync()
    assert seen == []


async def test_a_new_socket_on_a_current_table_reads_no_events(
    connect, momenta_campaign, gm, player
):
    first, _, _ = await connect(gm, momenta_campaign)
    await first.ready()
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "before"})
    await first.until(lambda m: m.get("seq") == event.seq)
    with sql_log() as seen:
        second, _, _ = await connect(player, momenta_campaign)
        await second.ready()
    assert [sql for sql in seen if EVENT_LOG_READ.match(sql)] == []
    assert not any('"last_seq"' in sql for sql in seen)


async def test_tb_04_a_stalled_socket_is_closed_and_the_others_get_every_event(
    connect, momenta_campaign, gm, player, player2, monkeypatch
):
    monkeypatch.setattr(consumers, "QUEUE_MAX", 3)
    fast, _, _ = await connect(gm, momenta_campaign, name="fast")
    await fast.ready()
    slow, _, _ = await connect(player, momenta_campaign, name="slow")
    start = (await slow.ready())["seq"]
    hub = fanout.hub_for(momenta_campaign.pk)
    stuck = asyncio.Event()
    (slow_consumer,) = [s for s in hub.sockets if s.user.pk == player.pk]

    async def never_returns(*args, **kwargs):
        await stuck.wait()

    slow_consumer.send_json = never_returns
    for n in range(8):
        event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": f"roll {n}"})
        await fast.until(lambda m, s=event.seq: m.get("seq") == s)
    assert fast.seqs() == list(range(start + 1, event.seq + 1))
    closed = await slow.communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": consumers.TOO_SLOW}
    assert slow_consumer not in hub.sockets
    stuck.set()

    # The page reconnects with its cursor and gets the rest from the database.
    again, _, _ = await connect(player, momenta_campaign, after=start)
    await again.ready()
    assert again.seqs() == list(range(start + 1, event.seq + 1))


async def test_a_doorbell_reaches_the_process_once_however_many_sockets(
    connect, momenta_campaign, gm, cogm, player, player2, observer
):
    sockets = await eight_sockets(connect, momenta_campaign, [gm, cogm, player, player2, observer])
    hub = fanout.hub_for(momenta_campaign.pk)
    layer = get_channel_layer()
    in_memory = isinstance(layer, InMemoryChannelLayer)  # Redis keeps its groups to itself
    if in_memory:
        members = layer.groups[group_name(momenta_campaign.pk)]
        assert list(members) == [hub.channel]  # the hub's channel, not one per socket
    before = hub.doorbells
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "one ring"})
    for socket in sockets:
        await socket.until(lambda m: m.get("seq") == event.seq)
    assert hub.doorbells - before == 1

    for socket in sockets:
        await socket.communicator.disconnect()
    assert fanout.hub_for(momenta_campaign.pk) is None
    if in_memory:
        for _ in range(50):  # the hub leaves the group in a task of its own
            if not layer.groups.get(group_name(momenta_campaign.pk)):
                break
            await asyncio.sleep(0.01)
        assert not layer.groups.get(group_name(momenta_campaign.pk))


async def test_sockets_arriving_together_get_one_roster_not_one_each(
    connect, momenta_campaign, gm, player, player2, observer
):
    watcher, _, _ = await connect(gm, momenta_campaign, name="watcher")
    await watcher.ready()
    await watcher.no_events(wait=2 * fanout.PRESENCE_DEBOUNCE_S)  # its own arrival, told
    told = len(watcher.presence)
    arrivals = [gm, player, player2, observer, player, player2]
    await asyncio.gather(*(connect(u, momenta_campaign) for u in arrivals))
    await watcher.no_events(wait=4 * fanout.PRESENCE_DEBOUNCE_S)
    rosters = watcher.presence[told:]
    assert 1 <= len(rosters) < len(arrivals) / 2, len(rosters)
    assert "gm" in rosters[-1] and "player2" in rosters[-1] and "observer" in rosters[-1]

"""The in-memory layer sweeps expired messages at most once per SWEEP_EVERY_S, and still does.

Channels' own layer walks every queue and group on each receive and group_send
(momenta_site/channel_layer.py); ours keeps what the sweep means, not its cost.
"""

import pytest
from channels.layers import InMemoryChannelLayer as Stock

from momenta_site import channel_layer
from momenta_site.channel_layer import InMemoryChannelLayer


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(channel_layer.time, "monotonic", lambda: now[0])
    return now


@pytest.fixture
def sweeps(monkeypatch):
    count = [0]
    real = Stock._clean_expired

    def counted(self):
        count[0] += 1
        return real(self)

    monkeypatch.setattr(Stock, "_clean_expired", counted)
    return count


async def test_many_sends_within_a_second_sweep_once(clock, sweeps):
    layer = InMemoryChannelLayer()
    listeners = [await layer.new_channel() for _ in range(50)]
    for name in listeners:
        await layer.group_add("table-1", name)
    for n in range(200):
        await layer.group_send("table-1", {"type": "table.event", "seq": n})
    assert sweeps[0] == 1
    clock[0] += channel_layer.SWEEP_EVERY_S
    await layer.group_send("table-1", {"type": "table.event", "seq": 200})
    assert sweeps[0] == 2


async def test_an_expired_message_still_drops_its_channel_from_its_groups(clock, monkeypatch):
    layer = InMemoryChannelLayer(expiry=10)
    stalled, live = await layer.new_channel(), await layer.new_channel()
    for name in (stalled, live):
        await layer.group_add("table-1", name)
    wall = [5000.0]
    monkeypatch.setattr("channels.layers.time.time", lambda: wall[0])
    await layer.group_send("table-1", {"type": "table.event", "seq": 1})
    assert await layer.receive(live) == {"type": "table.event", "seq": 1}
    wall[0] += 11  # the stalled channel's message is now older than expiry
    clock[0] += channel_layer.SWEEP_EVERY_S
    await layer.group_send("table-1", {"type": "table.event", "seq": 2})
    assert stalled not in layer.groups.get("table-1", {})
    assert live in layer.groups["table-1"]

"""However a table socket ends, its consumer leaves the table (issue 41).

Closed by us (a flood: 1008), by the client, by the client vanishing while a reply
is sent, or by an error in the consumer: afterwards this process holds no
subscription for it (the table's hub, in the table's group), its channel is in no
group (the session's), and presence does not count it. Nothing is sent after a
close, and a client that left is no error in the log.

The test communicator takes whatever an app sends; a server does not. `Server` wraps
the app as uvicorn treats it: a message after `websocket.close` raises RuntimeError,
and once the client is gone a send raises uvicorn's ClientDisconnected (an OSError,
as ASGI asks of servers).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis.asyncio
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from uvicorn.protocols.utils import ClientDisconnected

from momenta_site.asgi import application
from tables.live import consumers, fanout, presence
from tables.live.broadcast import group_name, session_group

from .conftest import TIMEOUT

pytestmark = pytest.mark.django_db(transaction=True)


class Server:
    """One socket's server side, strict as uvicorn is about what comes after a close."""

    def __init__(self, app=application):
        self.app = app
        self.closed = False  # the app sent websocket.close
        self.client_gone = False
        self.after_close: list[dict] = []  # what the app tried to send after its close
        self.undelivered: list[dict] = []  # what it tried to send to a client gone

    async def __call__(self, scope, receive, send):
        async def strict_send(message):
            if self.closed:
                self.after_close.append(message)
                raise RuntimeError(
                    f"Unexpected ASGI message '{message['type']}', after sending 'websocket.close'."
                )
            if self.client_gone:
                self.undelivered.append(message)
                raise ClientDisconnected()
            if message["type"] == "websocket.close":
                self.closed = True
            await send(message)

        await self.app(scope, receive, strict_send)


async def listeners(group: str) -> int:
    """Channels of this process in `group` (in-memory), or connections subscribed to it
    in Redis (channels_redis's pub/sub layer)."""
    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):
        return len(layer.groups.get(group, {}))
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        ((_, count),) = await admin.pubsub_numsub(f"{prefix}__group__{group}")
    finally:
        await admin.aclose()
    return count


async def held(campaign, session_key: str) -> dict:
    """What this process still holds for the table's sockets (nothing: {})."""
    found = {
        "hub": fanout.hub_for(campaign.pk),
        "table group": await listeners(group_name(campaign.pk)),
        "session group": await listeners(session_group(session_key)),
        "presence": await presence.store().roster(campaign.pk),
    }
    return {what: value for what, value in found.items() if value}


async def held_once_settled(campaign, session_key: str) -> dict:
    # The hub leaves the table's group in a task of its own, and Redis takes an
    # unsubscribe a moment after it is sent: a few turns of the loop, no more.
    for _ in range(100):
        if not (left := await held(campaign, session_key)):
            break
        await asyncio.sleep(0.02)
    return left


async def test_a_flooded_socket_is_closed_sends_nothing_after_and_leaves_nothing(
    connect, momenta_campaign, player, monkeypatch
):
    server = Server()
    socket, _, _ = await connect(player, momenta_campaign, app=server)
    await socket.ready()
    await socket.sync()  # a heartbeat is answered once connect() is done (presence too)
    assert set(await held(momenta_campaign, socket.session_key)) == {
        "hub",
        "table group",
        "session group",
        "presence",
    }
    (consumer,) = fanout.hub_for(momenta_campaign.pk).sockets
    # Redis answers slowly: the socket's sender waits for a roster while the flood comes.
    store, answer = type(presence.store()), asyncio.Event()
    real_roster = store.roster

    async def slow_roster(self, campaign_id):
        await answer.wait()
        return await real_roster(self, campaign_id)

    monkeypatch.setattr(store, "roster", slow_roster)
    for _ in range(3000):  # as the fault audit did: heartbeats, each asking for a pong
        await socket.communicator.send_to(text_data='{"type": "ping"}')
    while (out := await socket.communicator.receive_output(TIMEOUT))["type"] != "websocket.close":
        pass
    assert out["code"] == consumers.FLOODING
    answer.set()  # the roster comes after the close: it must not be sent
    await asyncio.wait_for(consumer._sender, TIMEOUT)
    # The client answers the close: the app ends (this raises if it failed instead).
    socket.closed = True
    await socket.communicator.disconnect(timeout=TIMEOUT)

    assert server.after_close == []
    assert await held_once_settled(momenta_campaign, socket.session_key) == {}


async def test_a_client_gone_while_its_reply_is_sent_is_no_error_and_leaves_nothing(
    connect, momenta_campaign, player, caplog
):
    caplog.set_level(logging.DEBUG, logger=consumers.__name__)
    server = Server()
    socket, _, _ = await connect(player, momenta_campaign, app=server)
    await socket.ready()
    server.client_gone = True
    await socket.communicator.send_json_to({"type": "ping"})  # its pong finds no one
    async with asyncio.timeout(TIMEOUT):
        while not server.undelivered:
            await asyncio.sleep(0.01)
    # The server tells the app the connection is lost.
    socket.closed = True
    await socket.communicator.disconnect(code=1006, timeout=TIMEOUT)

    # No traceback and no warning anywhere; of the consumer's own words, DEBUG only.
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []
    said = [r for r in caplog.records if r.name == consumers.__name__]
    assert {r.levelno for r in said} <= {logging.DEBUG}
    assert await held_once_settled(momenta_campaign, socket.session_key) == {}


async def test_a_socket_the_client_closes_leaves_nothing(connect, momenta_campaign, player):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    await socket.close()
    assert await held_once_settled(momenta_campaign, socket.session_key) == {}


async def test_a_consumer_failing_in_a_handler_still_leaves(
    connect, momenta_campaign, player, monkeypatch
):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()

    async def broken_touch(*args):
        raise ValueError("a bug in a heartbeat")

    monkeypatch.setattr(type(presence.store()), "touch", broken_touch)
    await socket.communicator.send_json_to({"type": "ping"})
    socket.closed = True
    with pytest.raises(ValueError, match="a bug in a heartbeat"):
        await socket.communicator.wait(timeout=TIMEOUT)  # the app ended with its error
    assert await held_once_settled(momenta_campaign, socket.session_key) == {}

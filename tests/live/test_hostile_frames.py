"""Whatever arrives on the socket, the consumer survives it or closes cleanly (never 1011).

And logging out closes the session's sockets: they stop receiving table events.
"""

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client

from tables.live import consumers

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = [
    "not json at all",
    '{"type": "resync", "after": Infinity}',
    '{"type": "resync", "after": 1e400}',
    '{"type": "resync", "after": NaN}',
    '{"type": "resync", "after": -5}',
    '{"type": "resync", "after": 2.5}',
    '{"type": "resync", "after": "１２"}',
    '{"type": "resync", "after": true}',
    '{"type": "ping", "seq": [[[]]]}',
    "[" * 100_000 + "]" * 100_000,
    '{"type": "resync", "after": 0, "pad": "' + "x" * 5000 + '"}',
    "[]",
    "null",
    '"ping"',
]


@pytest.mark.parametrize("frame", HOSTILE, ids=lambda f: f[:30])
async def test_a_hostile_text_frame_changes_nothing_and_the_socket_lives_on(
    connect, momenta_campaign, gm, player, frame
):
    socket, _, _ = await connect(player, momenta_campaign)
    start = (await socket.ready())["seq"]
    await socket.communicator.send_to(text_data=frame)
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "after"})
    await socket.until(lambda m: m.get("seq") == event.seq)
    assert socket.seqs() == [start + 1]
    assert await socket.sync() == event.seq


async def test_a_binary_frame_is_ignored(connect, momenta_campaign, gm, player):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    await socket.communicator.send_to(bytes_data=b"\x00\xff" * 100)
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "after"})
    await socket.until(lambda m: m.get("seq") == event.seq)


async def test_a_flood_of_frames_closes_the_socket_as_a_policy_violation(
    connect, momenta_campaign, player
):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    for _ in range(consumers.FRAMES_PER_WINDOW + 5):
        await socket.communicator.send_to(text_data='{"type": "hello"}')
    while True:
        out = await socket.communicator.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == consumers.FLOODING
    socket.closed = True


async def test_logging_out_closes_the_sessions_sockets(connect, momenta_campaign, gm, player):
    browser = Client()
    await sync_to_async(browser.force_login)(player)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    other, _, _ = await connect(gm, momenta_campaign)
    await other.ready()
    from channels.testing import WebsocketCommunicator

    from momenta_site.asgi import application

    communicator = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{momenta_campaign.pk}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        ],
    )
    assert (await communicator.connect())[0]
    response = await sync_to_async(browser.post)("/logout/")
    assert response.status_code == 302
    while True:
        out = await communicator.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == consumers.LOGGED_OUT
    # The GM's socket, another session, stays open and live.
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "still here"})
    await other.until(lambda m: m.get("seq") == event.seq)


@pytest.mark.parametrize(
    "origin, host, allowed",
    [
        (b"http://testserver", b"testserver", True),
        (b"http://testserver:8000", b"testserver:8000", True),
        (b"https://testserver", b"testserver:443", True),
        (b"http://testserver:9999", b"testserver:8000", False),  # another app on the host
        (b"http://testserver:9999", b"testserver", False),
        # Not checked: the scheme (a TLS proxy in front sends a bare Host).
        (b"https://testserver", b"testserver", True),
    ],
)
async def test_the_origin_must_be_this_host_and_port(
    momenta_campaign, player, origin, host, allowed
):
    from channels.testing import WebsocketCommunicator

    from momenta_site.asgi import application

    browser = Client()
    await sync_to_async(browser.force_login)(player)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    communicator = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{momenta_campaign.pk}/",
        headers=[
            (b"origin", origin),
            (b"host", host),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        ],
    )
    accepted, _ = await communicator.connect()
    assert accepted is allowed
    await communicator.disconnect()

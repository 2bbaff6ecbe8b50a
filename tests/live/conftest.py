"""Helpers for websocket tests against the real ASGI application and channel layer.

Every test runs against whatever layer settings configure: the in-memory layer
by default, channels_redis when REDIS_URL is set (CI's second run).
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections, transaction
from django.test import Client

from momenta_site.asgi import application
from momenta_site.channel_layer import reachability
from tables import events
from tables.live import fanout, frames
from tables.services.core import append_event, change_pool, lock_campaign

ORIGIN = b"http://testserver"
TIMEOUT = 10


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def commit_event(campaign_id, actor, kind=None, *, audience="all", payload=None, changes=()):
    """One committed event the way services make them: lock, change pools, append.

    kind: a registered kind's name (tables/events.py). By default, a payload in words
    ({"summary": …}) is a note in the site's words, and pool changes alone are the GM's
    pool adjustment. changes: (pool, delta, reason, character or None) tuples.
    """
    if kind is None:
        kind = "note" if payload else "pool_adjusted"
    if kind == "pool_adjusted" and payload is None:
        pool, _, _, character = changes[0] if changes else ("group_momentum", 0, "", None)
        payload = {"pool": pool, "character_id": character.pk if character else None}
    kind = events.REGISTRY[kind]
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        applied = [
            change_pool(campaign, pool, delta, reason, character=character)
            for pool, delta, reason, character in changes
        ]
        return append_event(
            campaign, kind, actor, payload or {}, audience=audience, changes=applied
        )


acommit_event = database_sync_to_async(commit_event)


class Socket:
    """A connected test socket that records the event stream it receives."""

    def __init__(self, communicator: WebsocketCommunicator, name: str = ""):
        self.communicator = communicator
        self.name = name
        self.stream: list[tuple[str, int]] = []  # ("event", seq), in arrival order
        self.prev: dict[int, int] = {}  # seq -> the seq it follows for this socket
        self.html: dict[int, str] = {}
        self.presence: list[str] = []
        self.closed = False
        self.session_key: str | None = None  # its login's session (None: anonymous)

    async def receive(self, timeout: float = TIMEOUT) -> dict:
        message = await self.communicator.receive_json_from(timeout=timeout)
        if message["type"] in ("event", "cursor"):
            self.stream.append((message["type"], message["seq"]))
            if message["type"] == "event":
                self.html[message["seq"]] = message["html"]
                self.prev[message["seq"]] = message["prev"]
        elif message["type"] == "presence":
            self.presence.append(message["html"])
        return message

    async def until(self, predicate, timeout: float = TIMEOUT) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive(timeout=timeout)
                if predicate(message):
                    return message

    async def ready(self) -> dict:
        return await self.until(lambda m: m["type"] == "ready")

    async def sync(self) -> int:
        """Heartbeat and wait for the answer: afterwards the socket has caught up."""
        await self.communicator.send_json_to({"type": "ping"})
        return (await self.until(lambda m: m["type"] == "pong"))["seq"]

    async def no_events(self, wait: float = 0.3) -> bool:
        """True if no event or cursor arrives within `wait` seconds (presence may)."""
        # Never let receive() time out: the test communicator kills the app then.
        before = len(self.stream)
        while not await self.communicator.receive_nothing(timeout=wait):
            await self.receive()
        return len(self.stream) == before

    def seqs(self, kind: str | None = None) -> list[int]:
        return [seq for k, seq in self.stream if kind is None or k == kind]

    def chained_from(self, start: int) -> bool:
        """True if each event received says it follows the one before (the first: `start`)."""
        seqs = self.seqs("event")
        return [self.prev[seq] for seq in seqs] == [start, *seqs[:-1]]

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self.communicator.disconnect()


@pytest.fixture
async def connect():
    """connect(user, campaign, after=None, origin=ORIGIN, app=application)
    -> (Socket, accepted, code)."""
    opened: list[Socket] = []

    async def _connect(user, campaign, after=None, origin=ORIGIN, name="", app=application):
        headers = [(b"origin", origin)] if origin else []
        cookie = None
        if user is not None:
            cookie = await sync_to_async(session_cookie)(user)
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        campaign_id = getattr(campaign, "pk", campaign)
        path = f"/ws/campaigns/{campaign_id}/"
        if after is not None:
            path += f"?after={after}"
        communicator = WebsocketCommunicator(app, path, headers=headers)
        accepted, code = await communicator.connect(timeout=TIMEOUT)
        socket = Socket(communicator, name or getattr(user, "username", "anonymous"))
        socket.session_key = cookie
        opened.append(socket)
        return socket, accepted, code

    yield _connect
    for socket in opened:
        await socket.close()
    await get_channel_layer().flush()
    # Connections persist (CONN_MAX_AGE): close the consumers' thread's one, or
    # PostgreSQL cannot drop the test database at the end.
    await database_sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def _fresh_hubs():
    fanout.reset()
    frames.clear()
    reachability.reset()
    yield
    fanout.reset()
    frames.clear()
    reachability.reset()

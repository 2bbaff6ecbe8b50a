"""Sockets and pages give back the Redis connections they take (issue 26).

Each socket reads its session from the cache on connect. Django's cache handler
keeps one cache object per thread or async context, and each RedisCache built
its own connection pool, so every socket and page left a Redis client behind. Runs when
REDIS_URL is set (CI's second run).
"""

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings

from momenta_site import settings as configured
from momenta_site.asgi import application

from .conftest import session_cookie

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="counts Redis clients"),
    pytest.mark.django_db(transaction=True),
]

SOCKETS = PAGES = 50
# The process's own clients (one cache pool, the channel layer's, presence's)
# may appear on first use; what must not happen is one per socket.
SLACK = 5


def redis_clients() -> int:
    """This test process's clients: those on its own database number (each xdist worker
    has one, tests/conftest.py), so other workers' sockets are not counted."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        database = client.connection_pool.connection_kwargs.get("db", 0)
        # Minus this client, asking.
        return sum(int(c["db"]) == database for c in client.client_list()) - 1
    finally:
        client.close()


@pytest.fixture
def redis_cache(settings):
    """The configured Redis cache, not the per-test one tests/conftest.py sets."""
    settings.CACHES = configured.CACHES


async def test_opening_and_closing_sockets_leaves_no_redis_clients_behind(
    redis_cache, connect, d20_campaign, player
):
    async def open_and_close():
        socket, accepted, _ = await connect(player, d20_campaign)
        assert accepted
        await socket.ready()
        await socket.close()

    # The test communicator runs each socket in a fresh context, as a server does.
    await open_and_close()
    baseline = redis_clients()

    for _ in range(SOCKETS):
        await open_and_close()

    assert redis_clients() - baseline <= SLACK


async def test_opening_pages_leaves_no_redis_clients_behind(redis_cache, d20_campaign, player):
    cookie = await sync_to_async(session_cookie)(player)
    cookie = f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()
    headers = [(b"host", b"testserver"), (b"cookie", cookie)]

    async def open_page():
        # Like the websockets', each request runs in a fresh context.
        path = f"/campaigns/{d20_campaign.pk}/"
        communicator = HttpCommunicator(application, "GET", path, headers=headers)
        answer = await communicator.get_response()
        await communicator.wait()
        assert answer["status"] == 200

    await open_page()
    baseline = redis_clients()

    for _ in range(PAGES):
        await open_page()

    assert redis_clients() - baseline <= SLACK

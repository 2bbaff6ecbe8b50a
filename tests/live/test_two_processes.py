"""Several server processes on one site (Redis stack): a roll reaches sockets on every process.

Runs when REDIS_URL is set (CI's second run, on PostgreSQL and Redis): two
real uvicorn processes share the test database and the channel layer; a
player's browser-like client rolls over HTTP on one, and sockets on both
receive the event once, in order.
"""

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from tables.devtools.server import free_port
from tables.models import Character, TableEvent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="several processes need Redis"),
]

ROOT = Path(__file__).resolve().parents[2]


def database_env() -> dict[str, str]:
    """The test database, as a server process's settings read it."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return {"SQLITE_PATH": db["NAME"]}
    user = db["USER"] or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db["PASSWORD"] else user
    return {"DATABASE_URL": f"postgres://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}


class Uvicorn:
    def __init__(self, folder: Path, **environ: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"uvicorn-{self.port}.log"
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
        env.update(database_env(), DJANGO_SETTINGS_MODULE="momenta_site.settings", DEBUG="0")
        env.update(environ)  # e.g. another REDIS_URL
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "momenta_site.asgi:application"]
                + ["--host", "127.0.0.1", "--port", str(self.port), "--no-access-log"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(self.log.read_text())
            try:
                urllib.request.urlopen(self.base + "/login/", timeout=2)
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise
                time.sleep(0.2)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
async def two_servers(tmp_path):
    servers = [Uvicorn(tmp_path), Uvicorn(tmp_path)]
    yield servers
    for server in servers:
        server.stop()
    await sync_to_async(connections.close_all)()  # persistent; PostgreSQL drops the test DB


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def open_socket(server, campaign, cookie):
    import websockets

    socket = await websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/campaigns/{campaign.pk}/",
        origin=server.base,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
    )
    while json.loads(await socket.recv())["type"] != "ready":
        pass
    return socket


async def event_seqs(socket, until: int, timeout: float = 15) -> list[int]:
    seqs = []
    async with asyncio.timeout(timeout):
        while not seqs or seqs[-1] < until:
            message = json.loads(await socket.recv())
            if message["type"] in ("event", "cursor"):
                seqs.append(message["seq"])
    return seqs


async def test_a_roll_on_one_process_reaches_sockets_on_both(
    two_servers, momenta_campaign, gm, player
):
    hero = await sync_to_async(Character.objects.create)(
        campaign=momenta_campaign, owner=player, name="Iska"
    )
    await sync_to_async(hero.attributes.create)(name="WITS", value=3)
    gm_client, player_client = await sync_to_async(lambda: (logged_in(gm), logged_in(player)))()
    cookies = {
        name: client.cookies[settings.SESSION_COOKIE_NAME].value
        for name, client in (("gm", gm_client), ("player", player_client))
    }
    first, second = two_servers
    sockets = [
        await open_socket(first, momenta_campaign, cookies["gm"]),
        await open_socket(second, momenta_campaign, cookies["gm"]),
        await open_socket(second, momenta_campaign, cookies["player"]),
    ]

    # The player's page rolls on the first process, twice, as a browser would.
    import aiohttp

    jar = aiohttp.CookieJar(unsafe=True)  # cookies for 127.0.0.1
    async with aiohttp.ClientSession(base_url=first.base, cookie_jar=jar) as web:
        jar.update_cookies(cookies_of(player_client))
        async with web.get(f"/campaigns/{momenta_campaign.pk}/table/") as page:
            assert page.status == 200
        token = next(c.value for c in jar if c.key == settings.CSRF_COOKIE_NAME)
        for _ in range(2):
            async with web.post(
                f"/campaigns/{momenta_campaign.pk}/momenta/roll/",
                data={"character": hero.pk, "attribute": "WITS", "kind": "action"}
                | {"play": "narrative", "expected_momentum": 0, "expected_resolve": 0},
                headers={"X-CSRFToken": token, "HX-Request": "true", "Referer": first.base},
            ) as answer:
                assert answer.status == 200, (await answer.text())[:500]

    rolls = await sync_to_async(
        lambda: list(
            TableEvent.objects.filter(campaign=momenta_campaign, kind="momenta_roll")
            .order_by("seq")
            .values_list("seq", flat=True)
        )
    )()
    assert len(rolls) == 2
    for socket in sockets:
        seqs = await event_seqs(socket, until=rolls[-1])
        assert seqs == sorted(set(seqs)), "each event once, in order"
        assert set(rolls) <= set(seqs)
        await socket.close()


def cookies_of(client: Client) -> dict[str, str]:
    return {name: morsel.value for name, morsel in client.cookies.items()}

"""A password check never holds up the other pages of its process (issue 26).

A hash takes a good part of a second of CPU. Under the one-hop handler every sync
request of a process runs on one thread: a login hashing there made every other
page wait. Here the hasher waits on a gate the test opens, so "the other page was
answered while the login was still hashing" is a fact, not a timing.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.handlers.asgi import ASGIHandler
from django.db import connections

from momenta_site.http_handler import SyncChainASGIHandler
from tests.conftest import PASSWORD
from tests.deploy.test_asgi_http import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# A failure guard, never a measurement: a broken handler would wait forever.
GUARD_S = 20


class GatedHasher(MD5PasswordHasher):
    """MD5 (the tests' hasher) whose check waits until the test opens the gate."""

    entered = threading.Event()
    gate = threading.Event()
    nice: int | None = None  # the checking thread's CPU priority (Linux)

    def verify(self, password, encoded):
        if sys.platform == "linux":
            GatedHasher.nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        GatedHasher.entered.set()
        GatedHasher.gate.wait(GUARD_S)
        return super().verify(password, encoded)


@pytest.fixture
def gated(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.GatedHasher"]
    GatedHasher.entered.clear()
    GatedHasher.gate.clear()
    yield
    GatedHasher.gate.set()


@pytest.fixture(params=["one-hop", "django"])
async def app(request, monkeypatch):
    if request.param == "django":
        monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
        yield ASGIHandler()
    else:
        yield SyncChainASGIHandler()
    # One-hop's shared thread keeps its connection: closed, or PostgreSQL cannot drop
    # the test database at the end.
    await sync_to_async(connections.close_all)()


async def call(app, method: str, path: str, cookie: str = "", body: bytes = b"", **headers):
    sent = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    sent += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    communicator = HttpCommunicator(app, method, path, body=body, headers=sent)
    answer = await communicator.get_response(timeout=GUARD_S)
    await communicator.wait(timeout=GUARD_S)
    return answer


async def csrf(app, path: str) -> tuple[str, str]:
    """A CSRF cookie and the form's token, as a browser gets them with the page."""
    page = await call(app, "GET", path)
    cookie = next(v for k, v in page["headers"] if k == b"Set-Cookie" and v.startswith(b"csrf"))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page["body"]).group(1)
    return cookie.split(b";")[0].decode(), token.decode()


@pytest.mark.parametrize("door", ["/login/", "/admin/login/"])
async def test_other_pages_are_answered_while_a_password_is_being_checked(
    app, gated, door, gm, player
):
    gm.is_staff = True
    await sync_to_async(gm.save)()
    cookie, token = await csrf(app, door)
    body = f"csrfmiddlewaretoken={token}&username=gm&password={PASSWORD}".encode()
    form = {"content_type": "application/x-www-form-urlencoded"}
    login = asyncio.ensure_future(call(app, "POST", door, cookie, body, **form))
    try:
        await asyncio.to_thread(GatedHasher.entered.wait, GUARD_S)
        assert GatedHasher.entered.is_set(), "the login never reached its password check"
        # Someone else's page, while the login is still in its hash.
        other = await sync_to_async(session_cookie)(player)
        page = await asyncio.wait_for(call(app, "GET", "/account/settings/", other), GUARD_S)
        assert page["status"] == 200 and b"Signed in as player:" in page["body"]
        assert not login.done()
    finally:
        GatedHasher.gate.set()
    answer = await asyncio.wait_for(login, GUARD_S)
    assert answer["status"] == 302, answer
    if sys.platform == "linux":
        # The pages go first when the cores are busy (bench/login_storm.py).
        assert GatedHasher.nice > os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

"""HTTP through momenta_site.asgi, on both sides of its one seam (settings.ASGI_HTTP_HANDLER):
the one-hop handler (momenta_site/http_handler.py, the default) and Django's own.

Both answer requests that run at once each for their own user, with the same pages.
One-hop runs every request on the process's one sync thread and keeps its connection;
Django's handler gives each request a thread whose connection must not outlive it
(CONN_MAX_AGE 0 there; on PostgreSQL the pool takes connections back).
"""

import asyncio
import gc
import re
import threading
import weakref

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.db.backends.signals import connection_created
from django.test import Client

from momenta_site.http_handler import ReleasedASGIRequest, SyncChainASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)

HANDLERS = {"one-hop": SyncChainASGIHandler, "django": ASGIHandler}


@pytest.fixture(params=sorted(HANDLERS))
def handler(request, monkeypatch):
    if request.param == "django":
        # What settings.py gives Django's handler.
        monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    return request.param, HANDLERS[request.param]()


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def get(app, path: str, cookie: str = "") -> dict:
    headers = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    communicator = HttpCommunicator(app, "GET", path, headers=headers)
    # Generous: the first request of a process compiles templates and URL patterns.
    answer = await communicator.get_response(timeout=10)
    await communicator.wait(timeout=10)  # the request is over once Django has closed the response
    return answer


def opened_connections():
    opened = []

    def on_open(sender, connection, **kwargs):
        opened.append((threading.get_ident(), connection))

    return opened, on_open


async def test_requests_at_once_are_each_answered_for_their_own_user(handler, gm, player):
    _, app = handler
    cookies = {user.username: await sync_to_async(session_cookie)(user) for user in (gm, player)}
    names = [name for name in cookies for _ in range(4)]
    answers = await asyncio.gather(*(get(app, "/account/settings/", cookies[n]) for n in names))
    for name, answer in zip(names, answers, strict=True):
        assert answer["status"] == 200, answer
        assert f"Signed in as {name}:".encode() in answer["body"]


async def test_both_handlers_draw_the_same_page(gm):
    cookie = await sync_to_async(session_cookie)(gm)
    pages = []
    for make in HANDLERS.values():
        answer = await get(make(), "/account/settings/", cookie)
        # The CSRF token differs per response; everything else is the same page.
        pages.append((answer["status"], re.sub(rb"[A-Za-z0-9]{64}", b"", answer["body"])))
    assert pages[0] == pages[1]
    assert pages[0][0] == 200


async def test_requests_leave_no_connection_open_beyond_what_the_handler_keeps(handler, gm):
    name, app = handler
    cookie = await sync_to_async(session_cookie)(gm)
    opened, on_open = opened_connections()
    connection_created.connect(on_open)
    try:
        # A page reads the database (the session, the user) in the request's sync thread.
        answers = [await get(app, "/account/settings/", cookie) for _ in range(6)]
    finally:
        connection_created.disconnect(on_open)
    assert [a["status"] for a in answers] == [200] * 6
    pooled = bool(settings.DATABASES["default"].get("OPTIONS", {}).get("pool"))
    if name == "django":
        assert opened, "the requests read the database"
        # Closed at the end of each request (a pooled one goes back to the pool).
        assert [c for _, c in opened if c.connection is not None] == []
    else:
        # Every request ran on the one sync thread, which keeps one connection (no pool);
        # a pool reports each checkout as a new connection.
        assert len({thread for thread, _ in opened}) <= 1
        if not pooled:
            assert len(opened) <= 1, f"{len(opened)} connections opened for 6 requests"


@pytest.mark.parametrize("path", ["/account/settings/", "/no-such-page/"])
async def test_what_a_finished_request_read_is_freed_without_waiting_for_the_collector(gm, path):
    """Issue 41: request.user, request.auser, the messages storage and request.htmx refer
    back to the request, and a page's template context (itself a cycle) holds it: a
    worker held ~100 finished requests and all they read (session, rows, payloads)
    between rare full collections, and its memory stepped up."""
    sessions = weakref.WeakSet()

    class Recorded(ReleasedASGIRequest):
        def close(self):
            sessions.add(self.session)
            super().close()

    class Handler(SyncChainASGIHandler):
        request_class = Recorded

    cookie = await sync_to_async(session_cookie)(gm)
    gc.collect()
    gc.disable()
    try:
        answer = await get(Handler(), path, cookie)
        assert answer["status"] in (200, 404)
        assert len(sessions) == 0
    finally:
        gc.enable()

"""HTTP through momenta_site.asgi (Django's own ASGI handler): requests that run at
once are each answered for their own user, and none leaves a database connection open.

Under ASGI each request runs in a thread of its own; a connection kept there would
outlive its thread, open, until garbage collection. So connections are not kept
(CONN_MAX_AGE 0, Django's advice under ASGI; on PostgreSQL the pool takes them back).
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.db.backends.signals import connection_created
from django.test import Client

from momenta_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def get(path: str, cookie: str = "") -> dict:
    headers = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    communicator = HttpCommunicator(application, "GET", path, headers=headers)
    answer = await communicator.get_response()
    await communicator.wait()  # the request is over once Django has closed the response
    return answer


async def test_requests_at_once_are_each_answered_for_their_own_user(gm, player):
    cookies = {user.username: await sync_to_async(session_cookie)(user) for user in (gm, player)}
    names = [name for name in cookies for _ in range(4)]
    answers = await asyncio.gather(*(get("/account/settings/", cookies[n]) for n in names))
    for name, answer in zip(names, answers, strict=True):
        assert answer["status"] == 200, answer
        assert f"Signed in as {name}:".encode() in answer["body"]


async def test_requests_leave_no_database_connection_open():
    opened = []

    def on_open(sender, connection, **kwargs):
        opened.append(connection)

    connection_created.connect(on_open)
    try:
        # /healthz reads the database (SELECT 1) in the request's thread.
        answers = await asyncio.gather(*(get("/healthz") for _ in range(6)))
    finally:
        connection_created.disconnect(on_open)
    assert [a["status"] for a in answers] == [200] * 6
    assert opened, "the requests read the database"
    # Closed at the end of each request (a pooled one goes back to the pool).
    assert [c for c in opened if c.connection is not None] == []

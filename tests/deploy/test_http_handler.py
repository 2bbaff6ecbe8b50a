"""HTTP through momenta_site.asgi runs like WSGI: one thread, one kept database connection.

Django's stock ASGI handler gave every request a thread of its own, so on SQLite
(which has no pool) every request opened a new connection (issue 10: "keep database
connections … instead of reconnecting per event").
"""

import threading

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.db.backends.signals import connection_created

from momenta_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def test_requests_share_one_thread_and_one_database_connection():
    opened = []

    def on_open(sender, connection, **kwargs):
        opened.append(threading.get_ident())

    connection_created.connect(on_open)
    try:
        for _ in range(4):
            # /healthz reads the database (SELECT 1) in the request's sync thread.
            answer = await HttpCommunicator(application, "GET", "/healthz").get_response()
            assert answer["status"] == 200, answer
    finally:
        connection_created.disconnect(on_open)
    # Every request's database work ran on one thread (the stock handler: a thread each).
    assert len(set(opened)) <= 1, f"connections opened on {len(set(opened))} threads"
    if not settings.DATABASES["default"].get("OPTIONS", {}).get("pool"):
        # No pool (SQLite): the thread keeps its connection. With PostgreSQL's pool each
        # request takes a pooled connection, which Django reports as opened.
        assert len(opened) <= 1, f"{len(opened)} connections opened for 4 requests"

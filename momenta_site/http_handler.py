"""Django's ASGI handler with the request run as it is under WSGI: one thread hop.

Django's own ASGI handler runs the middleware chain in async mode: our sync-only
middleware adapts it back and forth, so one request crossed between the event loop
and a thread about fifteen times, and each request got a new thread
(ThreadSensitiveContext), hence a new database connection on SQLite, where there is
no pool. Here the whole chain and the view run in one call on the process's one sync
thread, the thread the websocket consumers' database work already runs on, so its
connection is kept (CONN_MAX_AGE, with health checks; on PostgreSQL the pool) and
nothing is reconnected per request.

A seam, kept because it pays: issue 22 measured it at ~30 % of a roll's server CPU
(bench/README.md). settings.ASGI_HTTP_HANDLER=django takes Django's own handler instead;
tests/deploy/test_asgi_http.py runs both and holds them to the same answers.

The price: one process runs one request's Python at a time, which the GIL did anyway;
a slow request (an export) delays the others of its process. More processes
(`manage.py serve --workers N`) are the way to more throughput.

Except the doors that check a password (OWN_THREAD_VIEWS): a hash is a good part of
a second of CPU, which releases the GIL, so those requests go to Django's own
handler, in a thread of their own, and the other pages keep the shared thread
(issue 26; tables/forms/login.py bounds how many hash at once).
"""

from __future__ import annotations

from functools import cached_property

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.db import connections
from django.http import FileResponse
from django.urls import reverse

from momenta_site import health

# URL names whose requests hash a password (a login, a new account's password). A
# password reset's mail no longer waits on the mail server inside its request: it is
# sent after the answer (momenta_site/mail.py).
OWN_THREAD_VIEWS = ("login", "admin:login", "signup")


class ReleasedASGIRequest(ASGIRequest):
    """A request that lets go of what it read once its answer is sent.

    Django's request.user (a SimpleLazyObject over the request), request.auser, the
    messages storage and django-htmx's details each refer back to the request: every
    finished request was a reference cycle, with the rows and payloads it read, left
    for the rare oldest-generation collection (gc_tuning.py). A worker held about a
    hundred of them at any time and its memory stepped up with each batch (issue 41,
    bench/README.md). close() is Django's last call on a request, after the response
    has been sent and closed; dropping its attributes there frees it at once.
    """

    def close(self):
        try:
            super().close()
        finally:
            self.__dict__.clear()


class OwnThreadASGIHandler(ASGIHandler):
    """Django's handler: each request in a thread of its own, whose database
    connections are closed with it (one kept open would outlive its thread)."""

    request_class = ReleasedASGIRequest

    async def __call__(self, scope, receive, send):
        async with ThreadSensitiveContext():
            try:
                await self.handle(scope, receive, send)
            finally:
                await sync_to_async(_close_connections)()


def _close_connections() -> None:
    for connection in connections.all(initialized_only=True):
        connection.close()


class SyncChainASGIHandler(ASGIHandler):
    request_class = ReleasedASGIRequest

    def __init__(self):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.own_thread = OwnThreadASGIHandler()

    @cached_property
    def own_thread_paths(self) -> frozenset[str]:
        # And the health probes: with the database away, requests on the shared thread
        # each wait for it, and a probe behind them answered late (momenta_site/health.py).
        return frozenset(reverse(name) for name in OWN_THREAD_VIEWS) | set(health.PATHS)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if scope["path"] in self.own_thread_paths:
            return await self.own_thread(scope, receive, send)
        # No ThreadSensitiveContext: the sync work goes to the process's one sync thread.
        await self.handle(scope, receive, send)

    async def run_get_response(self, request):
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response

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
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import FileResponse


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # No ThreadSensitiveContext: the sync work goes to the process's one sync thread.
        await self.handle(scope, receive, send)

    async def run_get_response(self, request):
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response

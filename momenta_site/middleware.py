"""Site-wide answers that no view should have to remember (issue 12)."""

from __future__ import annotations

import contextlib
import logging
import sys
import time

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext

logger = logging.getLogger(__name__)


class UnreadableFormMiddleware:
    """A form body Django refuses to read (urlencoded in another charset than UTF-8)
    answers 400 here, before anything reads it.

    Django raises BadRequest from request.POST for it without marking the body as
    read, so its own 400 answer, which checks the CSRF token and reads request.POST
    again, raised once more and answered 500 (issue 26).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # The condition Django's HttpRequest._load_post_and_files refuses on.
        charset = request.encoding
        if (
            request.method == "POST"
            and request.content_type == "application/x-www-form-urlencoded"
            and charset is not None
            and charset.lower() != "utf-8"
        ):
            return HttpResponseBadRequest(
                gettext("Forms are read in UTF-8 only; this one was sent in %(charset)s.")
                % {"charset": charset[:40]},
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


# Statements that change nothing: outside a transaction they commit nothing either.
_READ_ONLY = frozenset(
    {"SELECT", "SHOW", "EXPLAIN", "PRAGMA", "SET", "BEGIN", "SAVEPOINT", "RELEASE", "ROLLBACK"}
)


class CommitWatch:
    """Whether a request may have committed anything, on any database connection.

    A commit of a transaction, or a write outside one (autocommit), counts from
    the moment it is *tried*: one that died half-way may have landed.
    """

    def __init__(self) -> None:
        self.committed = False
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> CommitWatch:
        for connection in connections.all():
            self._stack.enter_context(connection.execute_wrapper(self._on_execute))
            self._stack.enter_context(self._watching_commit(connection))
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    @contextlib.contextmanager
    def _watching_commit(self, connection):
        real = connection.commit

        def commit():
            self.committed = True
            real()

        # An instance attribute: transaction.atomic calls connection.commit().
        connection.commit = commit
        try:
            yield
        finally:
            del connection.commit

    def _on_execute(self, execute, sql, params, many, context):
        if not context["connection"].in_atomic_block:
            verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
            if verb not in _READ_ONLY:
                self.committed = True
        return execute(sql, params, many, context)


class DatabaseUnavailableMiddleware:
    """A request whose database connection died is run once more, on a fresh
    connection, when it had committed nothing: its transaction was rolled back
    with the connection, so running it again cannot apply it twice. Otherwise,
    or when the second run dies too, it answers 503 with Retry-After, never 500.

    Wherever the error is raised inside it: in the view (process_exception), or in a
    middleware after it (the session and user a middleware reads, the session
    SessionMiddleware saves), which Django answers with a 500 before any outer
    middleware sees the error; _failed_in_middleware marks that request instead.

    Fast: once a request found no free pooled connection in time (settings'
    DB_POOL_TIMEOUT), the requests of the next BUSY_SECONDS answer 503 without
    waiting for one. They run one after another on the process's one thread (one-hop),
    so each wait would have delayed every request behind it by as much.
    """

    RETRY_AFTER_SECONDS = 5
    BUSY_SECONDS = 1.0

    def __init__(self, get_response):
        self.get_response = get_response
        self._busy_until = float("-inf")

    def __call__(self, request):
        if time.monotonic() < self._busy_until:
            return self._unavailable(committed=False)
        for attempt in (1, 2):
            request.database_failure = None
            with CommitWatch() as watch:
                response = self.get_response(request)
            if request.database_failure is None:
                return response
            _close_connections()
            if _pool_exhausted(request.database_failure):
                self._busy_until = time.monotonic() + self.BUSY_SECONDS
                break
            if watch.committed:
                break
            if attempt == 1:
                logger.warning("database connection lost; running %s once more", request.path)
        return self._unavailable(committed=watch.committed)

    def process_exception(self, request, exception):
        if not _note_failure(request, exception):
            return None
        # A placeholder: __call__ runs the request again or answers for it.
        return HttpResponse(status=503)

    def _unavailable(self, *, committed: bool) -> HttpResponse:
        # No request context: the user, session and messages would need the database.
        html = render_to_string("503.html", {"maybe_done": committed})
        response = HttpResponse(html, status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response


def _note_failure(request, error: BaseException | None) -> bool:
    """Mark a database error on a request DatabaseUnavailableMiddleware runs."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    if not hasattr(request, "database_failure"):
        return False  # not inside the middleware (a test's own handler, a management call)
    logger.warning("database unavailable for %s: %s", request.path, error)
    request.database_failure = error
    return True


def _failed_in_middleware(sender, request=None, **kwargs) -> None:
    # Sent by Django as it turns an exception a middleware raised into a 500 (the
    # exception is the one being handled); the 500 is then replaced by __call__.
    _note_failure(request, sys.exc_info()[1])


got_request_exception.connect(_failed_in_middleware, dispatch_uid="database-unavailable")


def _pool_exhausted(error: Exception) -> bool:
    """No free pooled connection in time: the server is busy, not broken, and a
    second wait would only double the answer's delay."""
    return type(error.__cause__).__name__ == "PoolTimeout"  # psycopg_pool's


def _close_connections() -> None:
    """Close this thread's connections, so the next query opens a fresh one (a
    pooled one goes back to the pool, which drops it if it is broken)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()

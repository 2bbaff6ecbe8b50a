"""Site-wide answers that no view should have to remember (issue 12)."""

from __future__ import annotations

import contextlib
import logging

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

# What the pages need, and nothing more: scripts and the stylesheet from our own
# static files; htmx evaluates its trigger filters (hx-trigger="load[…]") with
# Function(), hence 'unsafe-eval'; images are inline data: URIs (the favicon);
# htmx and the live socket talk to this origin only. No inline script or style.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    """Every answer carries the Content-Security-Policy (unless a view set its own)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


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
    """

    RETRY_AFTER_SECONDS = 5

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for attempt in (1, 2):
            request.database_failure = None
            with CommitWatch() as watch:
                response = self.get_response(request)
            if request.database_failure is None:
                return response
            _close_connections()
            if watch.committed or _pool_exhausted(request.database_failure):
                break
            if attempt == 1:
                logger.warning("database connection lost; running %s once more", request.path)
        return self._unavailable(committed=watch.committed)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        request.database_failure = exception
        # A placeholder: __call__ runs the request again or answers for it.
        return HttpResponse(status=503)

    def _unavailable(self, *, committed: bool) -> HttpResponse:
        # No request context: the user, session and messages would need the database.
        html = render_to_string("503.html", {"maybe_done": committed})
        response = HttpResponse(html, status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response


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

"""Site-wide answers that no view should have to remember (issue 12)."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse
from django.template.loader import render_to_string

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


class DatabaseUnavailableMiddleware:
    """A request whose database connection died answers 503 with Retry-After, not 500.

    Nothing half-done is left: the view's transaction was rolled back with the
    connection. The broken connection is closed here, so the next request opens a
    fresh one (CONN_HEALTH_CHECKS would also catch it, one request later).
    """

    RETRY_AFTER_SECONDS = 5

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        for connection in connections.all(initialized_only=True):
            if not connection.in_atomic_block:
                connection.close_if_unusable_or_obsolete()
        # No request context: the user, session and messages would need the database.
        html = render_to_string("503.html")
        response = HttpResponse(html, status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response

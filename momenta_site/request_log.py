"""One log line per request and per socket, with its request id and user (issue 27).

`RequestLogMiddleware` (second in settings.MIDDLEWARE, after /healthz, whose probes
every few seconds would drown the rest) gives each request an id: the proxy's
`X-Request-ID` when it sent a sane one, else a new one. Lines logged while the
request runs carry it (momenta_site/logs.py), the answer carries it in
`X-Request-ID` (a person reporting a 500 can quote it), and when the answer is
ready one INFO line on `momenta.requests` says method, path, status and time (at
ERROR for a 5xx other than 503, so a server error shows at the default WARNING:
503 is the site's own "come back shortly", whose cause is logged where it is found).
The query string is left out: it may hold an invitation code.

`TrustedProxyMiddleware` wraps the whole ASGI app: a connection from an address
not in settings.FORWARDED_ALLOW_IPS (`serve --forwarded-allow-ips`, the proxy) has
its `X-Request-ID` dropped, so a client cannot choose the id its lines are logged
under; from the proxy it then applies X-Forwarded-For/-Proto (uvicorn's own
middleware, run here rather than by uvicorn so that both follow the one list).

`RequestUserMiddleware`, right after Django's AuthenticationMiddleware, makes the
user's id known to the lines logged from then on.

`SocketLogMiddleware` does the same for a websocket (inside Channels' auth, so the
user is known): an INFO line when it is accepted, and one when it ends, with its
close code and how long it was open; a socket refused before accept gets one line.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from momenta_site import logs

log = logging.getLogger("momenta.requests")
socket_log = logging.getLogger("momenta.sockets")

# A proxy's id (Caddy's {http.request.uuid}, nginx's $request_id) is kept when it
# looks like one; anything else could forge or break log lines, so it is replaced.
# (Only the proxy's reaches here on ASGI: TrustedProxyMiddleware drops a client's.)
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def new_id(offered: str | None) -> str:
    if offered and _SANE_ID.fullmatch(offered):
        return offered
    return uuid.uuid4().hex[:16]


def _level(status: int) -> int:
    return logging.ERROR if status >= 500 and status != 503 else logging.INFO


def _user_pk(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


class TrustedProxyMiddleware:
    """ASGI: the proxy's headers count only from the proxy's addresses."""

    def __init__(self, inner, trusted: str):
        self.forwarded = ProxyHeadersMiddleware(inner, trusted_hosts=trusted)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if (client[0] if client else None) not in self.forwarded.trusted_hosts:
                headers = [(k, v) for k, v in scope.get("headers", ()) if k != b"x-request-id"]
                scope = dict(scope, headers=headers)
        await self.forwarded(scope, receive, send)


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.request_id = new_id(request.headers.get("X-Request-ID"))
        id_token = logs.request_id.set(request.request_id)
        user_token = logs.user_id.set(None)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response.headers.setdefault("X-Request-ID", request.request_id)
            level = _level(response.status_code)
            if log.isEnabledFor(level):
                # Who sent it (as the request began: a logout's line names who logged out);
                # none when it was answered before the session was read.
                user = getattr(request, "logged_user_id", None)
                elapsed = (time.perf_counter() - started) * 1000
                log.log(
                    level,
                    "%s %s %s %.0f ms",
                    request.method,
                    request.path,
                    response.status_code,
                    elapsed,
                    extra={
                        "user_id": user,
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "duration_ms": round(elapsed, 1),
                    },
                )
            return response
        finally:
            logs.user_id.reset(user_token)
            logs.request_id.reset(id_token)


class RequestUserMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Also on the request, for Django's lines logged after the middleware (logs.py).
        request.logged_user_id = _user_pk(request.user)
        logs.user_id.set(request.logged_user_id)  # reset by RequestLogMiddleware
        return self.get_response(request)


class SocketLogMiddleware:
    """ASGI middleware for websockets: the socket's id and user on its lines, and
    a line when it opens and when it ends."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", ()))
        socket_id = new_id(headers.get(b"x-request-id", b"").decode("latin-1"))
        user = _user_pk(scope.get("user"))
        id_token, user_token = logs.request_id.set(socket_id), logs.user_id.set(user)
        path = scope.get("path", "")
        state = {"accepted": None, "code": None}

        async def logged_send(message):
            if message["type"] == "websocket.accept":
                state["accepted"] = time.monotonic()
                socket_log.info("socket open %s", path, extra={"path": path})
            elif message["type"] == "websocket.close" and state["code"] is None:
                state["code"] = code = message.get("code", 1000)
                if state["accepted"] is None:  # said now: the app ends when the client goes
                    socket_log.info(
                        "socket refused %s code=%s", path, code, extra={"path": path, "code": code}
                    )
            await send(message)

        async def logged_receive():
            message = await receive()
            if message["type"] == "websocket.disconnect" and state["code"] is None:
                state["code"] = message.get("code")
            return message

        try:
            await self.inner(scope, logged_receive, logged_send)
        finally:
            code = state["code"]
            if state["accepted"] is None and code is None:  # gone before an answer
                socket_log.info("socket ended before accept %s", path, extra={"path": path})
            elif state["accepted"] is not None:
                seconds = round(time.monotonic() - state["accepted"], 1)
                socket_log.info(
                    "socket closed %s code=%s after %.1f s",
                    path,
                    code,
                    seconds,
                    extra={"path": path, "code": code, "open_s": seconds},
                )
            logs.user_id.reset(user_token)
            logs.request_id.reset(id_token)

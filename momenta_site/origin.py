"""Websockets skip CSRF, so the Origin check is what stops other sites.

Channels' AllowedHostsOriginValidator compares only the host name with
ALLOWED_HOSTS, so a page served on another port or scheme of the same host
(another app, another user's dev server, a plain-http page of an https site)
could open our sockets with the visitor's cookies. This requires the Origin to
be what the browser addressed: the host *and port* of the Host header and,
when the server knows it, the scheme. The scheme is known when the server
itself speaks TLS (scope scheme "wss"), or with SECURE_PROXY_SSL_HEADER, from
the TLS proxy's header, as Django's request.is_secure() reads it. Without
either, a plain socket may still be an https page behind an undeclared proxy,
so the scheme is left alone.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

SECURE = {"https": True, "wss": True, "http": False, "ws": False}


def _authority(value: str, secure: bool) -> str:
    """host:port, lower case, with the scheme's default port made explicit."""
    parts = urlsplit(value if "//" in value else f"//{value}")
    try:
        port = parts.port or (443 if secure else 80)
    except ValueError:
        return ""
    return f"{(parts.hostname or '').lower()}:{port}"


def request_is_secure(scope, headers: dict[bytes, bytes]) -> bool | None:
    """Whether the browser reached us over TLS; None when the server cannot tell."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, secure_value = proxy  # ("HTTP_X_FORWARDED_PROTO", "https")
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        value = headers.get(name)
        if value is not None:
            return value.decode("latin1").split(",")[0].strip() == secure_value
    scheme = scope.get("scheme")
    if scheme in ("wss", "https"):
        return True
    # A plain socket is plain only if a TLS proxy would have said otherwise.
    return False if proxy and scheme in ("ws", "http") else None


def same_origin(scope) -> bool:
    headers = dict(scope.get("headers") or [])
    origin, host = headers.get(b"origin"), headers.get(b"host")
    if origin is None or host is None:
        return True  # AllowedHostsOriginValidator, outside, refuses a missing Origin
    origin = origin.decode("latin1")
    origin_secure = SECURE.get(urlsplit(origin).scheme.lower())
    if origin_secure is None:
        return False  # not a web page's origin ("null", file:, another scheme)
    secure = request_is_secure(scope, headers)
    if secure is not None and secure != origin_secure:
        return False
    # The Host header carries no scheme: its default port is the Origin's (or the known one).
    secure = origin_secure if secure is None else secure
    return _authority(origin, origin_secure) == _authority(host.decode("latin1"), secure)


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)

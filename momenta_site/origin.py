"""Websockets skip CSRF, so the Origin check is what stops other sites.

Channels' AllowedHostsOriginValidator compares only the host name with
ALLOWED_HOSTS, so a page served on another port of the same host (another
app, another user's dev server) could open our sockets with the visitor's
cookies. This requires the Origin's host *and port* to be the ones the
browser addressed (the Host header). The scheme is not compared: behind a
TLS proxy the server may see a plain request for an https page.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier


def _authority(value: str, scheme: str) -> str:
    """host:port, lower case, with the scheme's default port made explicit."""
    parts = urlsplit(value if "//" in value else f"//{value}")
    default = 443 if scheme in ("https", "wss") else 80
    try:
        port = parts.port or default
    except ValueError:
        return ""
    return f"{(parts.hostname or '').lower()}:{port}"


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            headers = dict(scope.get("headers") or [])
            origin, host = headers.get(b"origin"), headers.get(b"host")
            if origin is not None and host is not None:
                origin = origin.decode("latin1")
                scheme = urlsplit(origin).scheme
                if _authority(origin, scheme) != _authority(host.decode("latin1"), scheme):
                    return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)

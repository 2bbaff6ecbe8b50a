"""One guarded HTTP POST to a webhook: no redirects, no private addresses, no rebinding.

A webhook's host could answer with a redirect, or its name could resolve to an address
inside our network (loopback, the cloud's metadata service at 169.254.169.254, a
private range): either would make this server request an address nobody chose. So:

- the host name is resolved once, and every address it resolves to must be public
  (`blocked`), unless the operator lists the host in `DISCORD_ALLOWED_HOSTS`;
- the connection goes to an address from that same lookup (TLS still checks the
  certificate against the host name), so a second lookup cannot answer differently;
- a redirect is an answer like any other: never followed (http.client follows none).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

NAT64 = ipaddress.ip_network("64:ff9b::/96")  # an IPv4 address behind a NAT64 gateway


class Refused(Exception):
    """The request was not sent: the URL or the address it resolves to is not allowed."""


def blocked(address: str) -> bool:
    """True for any address that is not a public unicast one (IPv4 inside IPv6 unwrapped)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone ("fe80::1%eth0")
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo or (None, None))[1]
        if embedded is None and ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            return blocked(str(embedded))
    return (
        not ip.is_global
        or ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
    )


def allowed_hosts() -> frozenset[str]:
    return frozenset(h.strip().lower() for h in getattr(settings, "DISCORD_ALLOWED_HOSTS", ()))


def resolve(host: str, port: int) -> list[str]:
    """Every address the name resolves to (for a TCP connection)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


def checked_address(host: str, port: int, lookup: Callable[[str, int], list[str]]) -> str:
    """The address to connect to; Refused if any address the name has is not public
    (a mix of public and private answers is a trick, not a choice to make)."""
    addresses = lookup(host, port)
    if not addresses:
        raise Refused(_("the host name resolves to no address"))
    if host.lower() not in allowed_hosts() and any(blocked(a) for a in addresses):
        raise Refused(_("the host resolves to a private or local address; not sent"))
    return addresses[0]


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to a given address, whatever its host name resolves to now."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float):
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self):
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def post(
    url: str,
    data: bytes,
    headers: dict[str, str],
    timeout: float,
    *,
    lookup: Callable[[str, int], list[str]] = resolve,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """POST `data`; the status, headers and (at most 4 KiB of) body of the answer.
    Raises Refused, or OSError (http.client.HTTPException) when there is no answer."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("not an http(s) URL"))
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = checked_address(parts.hostname, port, lookup)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(parts.hostname, port, address, timeout)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target or "/", body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read(4096)
    finally:
        connection.close()

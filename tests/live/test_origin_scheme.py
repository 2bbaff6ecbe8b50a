"""The websocket Origin's scheme must be the one the browser used, when the server
knows it (issue 12): a plain-http page of an https site (or the reverse) is another
origin and may not open the table's socket with the visitor's cookies."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client

from momenta_site.origin import request_is_secure

pytestmark = pytest.mark.django_db(transaction=True)

PROXY = ("HTTP_X_FORWARDED_PROTO", "https")


async def opens(campaign, user, origin: bytes, *, scheme: str | None = None, proto=None) -> bool:
    """Whether a socket with this Origin (and scope scheme, and X-Forwarded-Proto) opens."""
    from channels.testing import WebsocketCommunicator

    from momenta_site.asgi import application

    browser = Client()
    await sync_to_async(browser.force_login)(user)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"origin", origin),
        (b"host", b"testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    if proto is not None:
        headers.append((b"x-forwarded-proto", proto))
    communicator = WebsocketCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers)
    if scheme is not None:
        # What the server puts in the scope; read when the application starts (connect).
        communicator.scope["scheme"] = scheme
    accepted, _ = await communicator.connect()
    await communicator.disconnect()
    return accepted


@pytest.mark.parametrize(
    "origin, proto, scheme, allowed",
    [
        (b"https://testserver", b"https", "ws", True),
        (b"http://testserver", b"https", "ws", False),  # a plain page of the https site
        (b"https://testserver", b"http", "ws", False),
        (b"https://testserver", b"https, http", "ws", True),  # the first value counts
        # Not through the proxy: the socket's own scheme is the truth.
        (b"http://testserver", None, "ws", True),
        (b"https://testserver", None, "ws", False),
    ],
)
async def test_behind_a_tls_proxy_the_origin_scheme_must_match_its_header(
    settings, momenta_campaign, player, origin, proto, scheme, allowed
):
    settings.SECURE_PROXY_SSL_HEADER = PROXY
    assert await opens(momenta_campaign, player, origin, scheme=scheme, proto=proto) is allowed


@pytest.mark.parametrize(
    "origin, scheme, allowed",
    [
        (b"https://testserver", "wss", True),
        (b"http://testserver", "wss", False),  # the server speaks TLS itself
        (b"http://testserver:443", "wss", False),
        # A plain socket with no proxy declared may be an https page behind an
        # undeclared TLS proxy: the scheme is not known, so not compared.
        (b"https://testserver", "ws", True),
        (b"http://testserver", "ws", True),
    ],
)
async def test_without_a_proxy_a_tls_socket_needs_an_https_origin(
    settings, momenta_campaign, player, origin, scheme, allowed
):
    settings.SECURE_PROXY_SSL_HEADER = None
    assert await opens(momenta_campaign, player, origin, scheme=scheme) is allowed


def test_the_proxy_header_is_read_as_django_reads_it(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_SSL", "on")
    assert request_is_secure({"scheme": "ws"}, {b"x-forwarded-ssl": b"on"}) is True
    assert request_is_secure({"scheme": "ws"}, {b"x-forwarded-ssl": b"off"}) is False
    assert request_is_secure({"scheme": "ws"}, {b"x-forwarded-proto": b"https"}) is False
    settings.SECURE_PROXY_SSL_HEADER = None
    assert request_is_secure({"scheme": "ws"}, {b"x-forwarded-ssl": b"on"}) is None
    assert request_is_secure({}, {}) is None

"""The request id is the proxy's, never the client's (issue 39).

The report: through the shipped Caddy config a client's `X-Request-ID:
qa-client-id-0001` became its requests' id in the log, so a client could file
its lines under any id it liked. The app now believes X-Request-ID (and
X-Forwarded-For/-Proto) only from settings.FORWARDED_ALLOW_IPS, `serve
--forwarded-allow-ips`, and makes its own id otherwise.
"""

from __future__ import annotations

import pytest
from channels.testing import ApplicationCommunicator

from momenta_site.request_log import TrustedProxyMiddleware

from .asgi_scopes import http_scope

CLIENTS_ID = b"qa-client-id-0001"


async def seen_by_the_app(client, *headers, trusted="127.0.0.1,::1", kind="http"):
    """The scope the app behind TrustedProxyMiddleware is handed."""
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    given = http_scope("/login/", client, *headers) | {"type": kind}
    await TrustedProxyMiddleware(app, trusted)(given, None, None)
    return seen


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_an_id_from_an_address_not_the_proxys_is_dropped(kind):
    seen = await seen_by_the_app(("203.0.113.9", 51000), (b"x-request-id", CLIENTS_ID), kind=kind)
    assert b"x-request-id" not in dict(seen["headers"])


async def test_an_id_and_forwarded_address_from_the_proxy_are_kept():
    seen = await seen_by_the_app(
        ("10.0.0.2", 41000),
        (b"x-request-id", b"3f0c8a2e-5b7d-4c1e-9a63-0d2b8f1e7c45"),
        (b"x-forwarded-for", b"198.51.100.7"),
        trusted="10.0.0.2",
    )
    assert dict(seen["headers"])[b"x-request-id"] == b"3f0c8a2e-5b7d-4c1e-9a63-0d2b8f1e7c45"
    assert seen["client"][0] == "198.51.100.7"


async def test_a_client_is_not_believed_about_its_own_address_either():
    seen = await seen_by_the_app(("203.0.113.9", 51000), (b"x-forwarded-for", b"10.9.9.9"))
    assert seen["client"] == ("203.0.113.9", 51000)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("client", "kept"), [(("203.0.113.9", 51000), False), (("127.0.0.1", 41000), True)]
)
async def test_the_sites_answer_carries_the_proxys_id_or_its_own(client, kept):
    """Through momenta_site.asgi as uvicorn serves it: the answer's (and the log's) id."""
    from momenta_site.asgi import application

    talk = ApplicationCommunicator(
        application, http_scope("/login/", client, (b"x-request-id", CLIENTS_ID))
    )
    await talk.send_input({"type": "http.request", "body": b""})
    start = await talk.receive_output(timeout=10)
    await talk.receive_output(timeout=10)  # the body
    answered = {k.lower(): v for k, v in start["headers"]}[b"x-request-id"]
    assert (answered == CLIENTS_ID) is kept
    assert answered

"""A password reset's mail never holds up the other pages of its process (issue 27).

Sending waits on the mail server (up to EMAIL_TIMEOUT). Under the one-hop handler
every sync request of a process runs on one thread, so the reset goes to a thread
of its own, as a login does (momenta_site/http_handler.py). Here the mail backend
waits on a gate the test opens: "another page was answered while the mail was
being sent" is a fact, not a timing."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.core.mail.backends.locmem import EmailBackend

from tests.deploy.test_asgi_http import session_cookie
from tests.deploy.test_login_threads import GUARD_S, app, call, csrf  # noqa: F401 (app: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


class GatedMailBackend(EmailBackend):
    """The test outbox, whose sending waits until the test opens the gate."""

    entered = threading.Event()
    gate = threading.Event()

    def send_messages(self, messages):
        GatedMailBackend.entered.set()
        GatedMailBackend.gate.wait(GUARD_S)
        return super().send_messages(messages)


@pytest.fixture
def gated(settings):
    settings.EMAIL_BACKEND = f"{__name__}.GatedMailBackend"
    GatedMailBackend.entered.clear()
    GatedMailBackend.gate.clear()
    yield
    GatedMailBackend.gate.set()


async def test_other_pages_are_answered_while_a_reset_mail_is_sent(app, gated, gm, player):  # noqa: F811
    gm.email = "gm@example.org"
    await sync_to_async(gm.save)()
    cookie, token = await csrf(app, "/password/reset/")
    body = f"csrfmiddlewaretoken={token}&email=gm@example.org".encode()
    form = {"content_type": "application/x-www-form-urlencoded"}
    reset = asyncio.ensure_future(call(app, "POST", "/password/reset/", cookie, body, **form))
    try:
        await asyncio.to_thread(GatedMailBackend.entered.wait, GUARD_S)
        assert GatedMailBackend.entered.is_set(), "the reset never sent its mail"
        other = await sync_to_async(session_cookie)(player)
        page = await asyncio.wait_for(call(app, "GET", "/account/settings/", other), GUARD_S)
        assert page["status"] == 200 and b"Signed in as player:" in page["body"]
        assert not reset.done()
    finally:
        GatedMailBackend.gate.set()
    answer = await asyncio.wait_for(reset, GUARD_S)
    assert answer["status"] == 302, answer

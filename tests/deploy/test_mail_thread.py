"""A request's mail goes out after its answer, never inside it (issues 27 and 34).

Sent inside the request, a password reset's mail made the answer wait on the mail
server for an address with an account only, which told anyone timing the page who
has one (bench/reset_timing.py), and held up the other pages of its process. Here the
mail backend waits on a gate the test opens: "the answer came while the mail was still
waiting" is a fact, not a timing. Django's test client sends mail inline (the test
environment's locmem backend): these go through the ASGI app, as uvicorn does.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.core import mail
from django.core.handlers.asgi import ASGIHandler
from django.core.mail.backends.locmem import EmailBackend
from django.db import connections

from momenta_site import logs
from momenta_site.mail import SendAfterAnswer
from tests.deploy.test_asgi_http import session_cookie
from tests.deploy.test_login_threads import GUARD_S, call, csrf

pytestmark = pytest.mark.django_db(transaction=True)


class Watched:
    """The app, noting when the last byte of an answer has been handed to the server."""

    answered = threading.Event()

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def watched_send(message):
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                Watched.answered.set()

        await self.app(scope, receive, watched_send)


class GatedMailBackend(EmailBackend):
    """The test outbox, whose sending waits until the test opens the gate."""

    entered = threading.Event()
    gate = threading.Event()
    delivered = threading.Event()
    after_answer: bool | None = None

    def send_messages(self, messages):
        GatedMailBackend.after_answer = Watched.answered.is_set()
        GatedMailBackend.entered.set()
        GatedMailBackend.gate.wait(GUARD_S)
        sent = super().send_messages(messages)
        GatedMailBackend.delivered.set()
        return sent


class FailingMailBackend(EmailBackend):
    """A mail server that refuses everything; notes the request it was sent for."""

    request_id: str | None = None

    def send_messages(self, messages):
        FailingMailBackend.request_id = logs.request_id.get()
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


@pytest.fixture
def holding(settings):
    """The site's mail settings (the test environment replaces them with locmem)."""
    settings.EMAIL_BACKEND = "momenta_site.mail.HoldingBackend"
    return settings


@pytest.fixture
def gated(holding):
    holding.EMAIL_DELIVERY_BACKEND = f"{__name__}.GatedMailBackend"
    for event in (GatedMailBackend.entered, GatedMailBackend.gate, GatedMailBackend.delivered):
        event.clear()
    GatedMailBackend.after_answer = None
    Watched.answered.clear()
    yield
    GatedMailBackend.gate.set()


@pytest.fixture(params=["site", "django"])
async def app(request, monkeypatch):
    """The site's ASGI application (the one-hop handler), and Django's own handler
    as settings.ASGI_HTTP_HANDLER=django has it."""
    if request.param == "django":
        monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
        yield Watched(SendAfterAnswer(ASGIHandler()))
    else:
        from momenta_site.asgi import application

        yield Watched(application)
    await sync_to_async(connections.close_all)()


async def post_reset(app, address: str) -> HttpCommunicator:
    """The reset form sent; the caller reads the answer and waits for the request's end."""
    cookie, token = await csrf(app, "/password/reset/")
    Watched.answered.clear()  # the form's page was an answer too
    headers = [(b"host", b"testserver"), (b"cookie", cookie.encode())]
    headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    body = f"csrfmiddlewaretoken={token}&email={address}".encode()
    return HttpCommunicator(app, "POST", "/password/reset/", body=body, headers=headers)


async def ask_reset(app, address: str) -> dict:
    """The answer, once the request is over (its mail sent or given up)."""
    communicator = await post_reset(app, address)
    answer = await communicator.get_response(timeout=GUARD_S)
    await communicator.wait(timeout=GUARD_S)
    return answer


async def with_address(user, address: str):
    user.email = address
    await sync_to_async(user.save)()


async def test_the_reset_is_answered_before_its_mail_goes_out(app, gated, gm, player):
    await with_address(gm, "gm@example.org")
    reset = await post_reset(app, "gm@example.org")
    answer = await reset.get_response(timeout=GUARD_S)
    assert answer["status"] == 302, answer
    assert not GatedMailBackend.delivered.is_set() and mail.outbox == []

    # The mail is on its way, after the answer; the other pages do not wait for it.
    await asyncio.to_thread(GatedMailBackend.entered.wait, GUARD_S)
    assert GatedMailBackend.after_answer is True
    other = await sync_to_async(session_cookie)(player)
    page = await asyncio.wait_for(call(app, "GET", "/account/settings/", other), GUARD_S)
    assert page["status"] == 200 and b"Signed in as player:" in page["body"]
    # The request runs on until its mail is sent, so a server stopping gracefully
    # (uvicorn waits for running requests) sends it before it exits.
    assert not reset.future.done()

    GatedMailBackend.gate.set()
    await reset.wait(timeout=GUARD_S)
    assert GatedMailBackend.delivered.is_set()
    (message,) = mail.outbox
    assert message.to == ["gm@example.org"]
    assert "/password/reset/" in message.body


async def test_an_unknown_address_gets_the_same_answer_and_no_mail(app, holding, gm):
    holding.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    await with_address(gm, "gm@example.org")
    known = await ask_reset(app, "gm@example.org")
    unknown = await ask_reset(app, "nobody@example.org")
    assert (unknown["status"], unknown["body"]) == (known["status"], known["body"])
    location = {k: v for k, v in unknown["headers"]}[b"Location"]
    assert location == {k: v for k, v in known["headers"]}[b"Location"]
    assert [m.to for m in mail.outbox] == [["gm@example.org"]]


async def test_a_mail_that_cannot_be_sent_is_logged_and_the_answer_stands(app, holding, gm, caplog):
    holding.EMAIL_DELIVERY_BACKEND = f"{__name__}.FailingMailBackend"
    FailingMailBackend.request_id = None
    await with_address(gm, "gm@example.org")
    with caplog.at_level(logging.WARNING, logger="momenta_site.mail"):
        answer = await ask_reset(app, "gm@example.org")
    assert answer["status"] == 302, answer
    (record,) = [r for r in caplog.records if r.name == "momenta_site.mail"]
    assert record.levelno == logging.WARNING
    assert "Mail not sent: 1 message(s) dropped" in record.getMessage()
    assert "SMTPServerDisconnected" in record.getMessage()
    # Sent in the request's context: the line names the request it was for.
    assert FailingMailBackend.request_id is not None
    assert mail.outbox == []


def test_outside_a_request_mail_is_sent_at_once(holding):
    holding.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert mail.send_mail("Test", "Body", "site@example.org", ["ops@example.org"]) == 1
    assert [m.to for m in mail.outbox] == [["ops@example.org"]]


def test_outside_a_request_a_failure_reaches_the_caller(holding):
    # `manage.py sendtestemail` shows the operator why, rather than a log line later.
    holding.EMAIL_DELIVERY_BACKEND = f"{__name__}.FailingMailBackend"
    with pytest.raises(smtplib.SMTPServerDisconnected):
        mail.send_mail("Test", "Body", "site@example.org", ["ops@example.org"])

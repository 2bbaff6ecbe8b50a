"""Mail leaves after the answer, never inside it (issue 34).

A password reset for an address with an account sends a mail; one without sends none.
Sent inside the request, the mail server's time (0.25 s at a typical relay) told anyone
timing the page which addresses have accounts. So every mail the site sends through
Django's mail API (EMAIL_BACKEND is `HoldingBackend`) is held while its request runs
and handed to a sender thread once the answer has gone out (`SendAfterAnswer`, around
the HTTP app in momenta_site/asgi.py); the sender delivers it through the backend
EMAIL_URL names (EMAIL_DELIVERY_BACKEND, momenta_site/email_url.py).

Outside an HTTP request (`manage.py sendtestemail`, a shell) there is no answer to
wait for: the mail is delivered at once, and a failure reaches the caller.

A mail that cannot be sent is logged (WARNING, with the request's id) and dropped:
the person has their answer already, the same page whether or not a mail went.
A server stopping gracefully sends what is queued first (`_send`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.mail import get_connection
from django.core.mail.backends.base import BaseEmailBackend

from momenta_site.logs import describe

log = logging.getLogger(__name__)

# The mail of the HTTP request being served in this context (None: not in one).
# A list, so that the view's context (a copy, in another thread) appends to it.
_held: contextvars.ContextVar[list | None] = contextvars.ContextVar("held_mail", default=None)

# Two, so that one mail waiting out a stuck server's timeout does not hold all others.
SENDER_THREADS = 2
_senders = ThreadPoolExecutor(max_workers=SENDER_THREADS, thread_name_prefix="mail")


def deliver(messages, **options) -> int:
    """Send now, through the backend EMAIL_URL names."""
    with get_connection(settings.EMAIL_DELIVERY_BACKEND, **options) as connection:
        return connection.send_messages(messages) or 0


def _deliver_logged(messages, options) -> None:
    try:
        # Not silently, whatever the sender asked: a lost mail must leave a line.
        deliver(messages, **{**options, "fail_silently": False})
    except Exception as error:
        log.warning(
            "Mail not sent: %d message(s) dropped (%s)",
            len(messages),
            describe(error),
            exc_info=True,
        )


class HoldingBackend(BaseEmailBackend):
    """EMAIL_BACKEND: in an HTTP request, the messages wait for its answer."""

    def __init__(self, fail_silently=False, **options):
        super().__init__(fail_silently=fail_silently)
        self.options = {"fail_silently": fail_silently, **options}

    def send_messages(self, email_messages) -> int:
        messages = list(email_messages)
        held = _held.get()
        if held is None:
            return deliver(messages, **self.options)
        # With this context, so the sender's log lines name the request and the user.
        held.append((contextvars.copy_context(), messages, self.options))
        return len(messages)


class SendAfterAnswer:
    """ASGI middleware: the mail a request held is sent once its answer has gone out
    (Django's handler returns after the last byte is sent and the response closed)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        held: list = []
        token = _held.set(held)
        try:
            await self.app(scope, receive, send)
        finally:
            _held.reset(token)
            if held:
                await _send(held)


async def _send(held: list) -> None:
    futures = [_senders.submit(c.run, _deliver_logged, m, o) for c, m, o in held]
    try:
        # Awaited, not only started, so that a server stopping gracefully waits for it:
        # uvicorn lets running requests finish before it exits, and this one is still
        # running. The answer is complete, so its connection serves the next request
        # already. Shielded: a cancelled request must not cancel a mail still queued.
        await asyncio.shield(asyncio.gather(*map(asyncio.wrap_future, futures)))
    except asyncio.CancelledError:
        left = sum(len(m) for f, (_, m, _) in zip(futures, held, strict=True) if not f.done())
        if left:
            log.warning("Mail may not be sent: stopped with %d message(s) on their way", left)
        raise

"""A submission's idempotency key (issue 27): a command is applied at most once per key.

The page gives each submission a random key and sends it again on a retry (a lost
answer, a 5xx, a timeout). The view layer declares it for the request
(`submitted`); every service locks its campaign (core.lock_campaign), which calls
`refuse_repeat` under that lock, and its first event (core.append_event) stores the
key through `take`. So a retry of a command that landed is refused before it does
anything, and two submissions with one key at once apply once: the second waits for
the lock, then reads the first's event. The unique constraint on (campaign, key)
is the backstop should anything slip past the lock.
"""

from __future__ import annotations

import contextlib
import uuid
from contextvars import ContextVar
from dataclasses import dataclass

from django.utils.translation import gettext

from tables.errors import ServiceError
from tables.models import TableEvent


@dataclass
class _Submission:
    key: uuid.UUID
    used: bool = False  # the command's first event took it: later locks do not check


_current: ContextVar[_Submission | None] = ContextVar("submission", default=None)


class AlreadyApplied(ServiceError):
    """A retry of a command that landed: refused, nothing changed; `seq` is its event."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        super().__init__(
            gettext("That was already done (entry #%(seq)s in the log): it was not done again.")
            % {"seq": seq}
        )


def parse(raw: str | None) -> uuid.UUID | None:
    """The key as the page sent it; None when absent; ValueError when not a UUID."""
    if not raw:
        return None
    return uuid.UUID(raw)


@contextlib.contextmanager
def submitted(key: uuid.UUID | None):
    """The commands run inside carry `key` (None: no key, nothing is checked)."""
    token = _current.set(_Submission(key) if key is not None else None)
    try:
        yield
    finally:
        _current.reset(token)


def refuse_repeat(campaign_id: int) -> None:
    """AlreadyApplied if this submission's key already made an event; the caller holds
    the campaign lock, so no submission with the key can commit meanwhile."""
    submission = _current.get()
    if submission is None or submission.used:
        return
    seq = landed(campaign_id, submission.key, actor_id=None)
    if seq is not None:
        raise AlreadyApplied(seq)


def take() -> uuid.UUID | None:
    """The key for the event being appended: the first event of the command gets it."""
    submission = _current.get()
    if submission is None or submission.used:
        return None
    submission.used = True
    return submission.key


def landed(campaign_id: int, key: uuid.UUID, *, actor_id: int | None) -> int | None:
    """The seq of the event `key` made in the campaign by `actor_id` (None: by anyone,
    for the server's own repeat check only; a person is told only of their own), or None."""
    found = TableEvent.objects.filter(campaign_id=campaign_id, idempotency_key=key)
    if actor_id is not None:
        found = found.filter(actor_id=actor_id)
    return found.values_list("seq", flat=True).first()

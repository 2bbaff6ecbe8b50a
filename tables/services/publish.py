"""After-commit hooks: who hears that an event committed, without services importing them.

Services call `publish(event)` once the event's transaction has committed
(core.append_event, through transaction.on_commit). The live layer (the doorbell)
and Discord (the post) subscribe in TablesConfig.ready, so services never import
either. Each subscriber must not raise: the change is already stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

_subscribers: list[Callable] = []


def subscribe(fn: Callable) -> None:
    """Call `fn(event)` after every committed event (once, however often subscribed)."""
    if fn not in _subscribers:
        _subscribers.append(fn)


def publish(event) -> None:
    """Tell every subscriber, in order; one failing does not stop the others."""
    for fn in list(_subscribers):
        try:
            fn(event)
        except Exception:  # a committed command must not turn into an error page
            log.exception("after-commit hook %r failed for event %s", fn, event.pk)

"""A database outage in the log: one WARNING when it goes away, one when it answers.

Without this, psycopg_pool logs a WARNING at each failed attempt to connect of each
pool (85 in one outage), and each request that found it away one more.
log_filters.DatabaseOutage drops those while the outage is known and turns the pool's
first one into the line here; /healthz and every connection Django opens (the signal
below) say when it answers again.
"""

from __future__ import annotations

import logging
import threading

from django.db.backends.signals import connection_created

logger = logging.getLogger("momenta.database")

# The marks of the two lines (log fields): about the process, not the request noticing.
DATABASE_AWAY = {"database": "away", "request_id": None, "user_id": None}
DATABASE_BACK = {"database": "back", "request_id": None, "user_id": None}

_lock = threading.Lock()
away = False


def went_away(why: str) -> None:
    global away
    with _lock:
        if away:
            return
        away = True
    logger.warning("database unreachable: %s", why, extra=DATABASE_AWAY)


def answered(**kwargs) -> None:
    global away
    if not away:  # the usual case, on every connection: no lock
        return
    with _lock:
        if not away:
            return
        away = False
    logger.warning("database answers again", extra=DATABASE_BACK)


connection_created.connect(answered, dispatch_uid="momenta-database-answered")

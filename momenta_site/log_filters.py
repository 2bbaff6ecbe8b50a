"""Logging filters: a refused request is worth a line, a Redis or database outage two, not
a traceback each."""

import logging
import re


class RefusalsWithoutTraceback(logging.Filter):
    """Drop the traceback Django attaches to 403/404 answers (PermissionDenied, Http404).

    A stranger probing URLs would otherwise fill the log with stack traces of
    access checks that worked as designed; the one-line warning stays.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404):
            record.exc_info = None
            record.exc_text = None
        return True


class HealthProbeAnswers(logging.Filter):
    """Drop Django's ERROR line for each 503 `/healthz` or `/readyz` gives (draining, the
    database away).

    The proxy probes every few seconds: a restart's drain logged "ERROR Service
    Unavailable" at each probe, though it is the answer asked for. health.py says once
    when its answer changes instead. Every other request's 5xx keeps its line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        from momenta_site.health import PATHS

        if getattr(record, "status_code", None) != 503:
            return True
        return getattr(getattr(record, "request", None), "path", None) not in PATHS


class AnsweredForTheDatabase(logging.Filter):
    """Drop Django's ERROR line and traceback for the 500 it made of a database error
    a middleware raised: that 500 is never sent. DatabaseUnavailableMiddleware answers
    instead (a second run, or 503) and logs the error in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        replaced = getattr(request, "database_failure", None) is not None
        return not (replaced and getattr(record, "status_code", None) == 500)


def _unreachable(record: logging.LogRecord) -> BaseException | None:
    """The Redis-unreachable error a record carries (its traceback or an argument)."""
    from momenta_site.channel_layer import UNREACHABLE

    if record.exc_info and isinstance(record.exc_info[1], UNREACHABLE):
        return record.exc_info[1]
    args = record.args.values() if isinstance(record.args, dict) else record.args or ()
    return next((a for a in args if isinstance(a, UNREACHABLE)), None)


class RedisOutage(logging.Filter):
    """While Redis is away, one line says so, not one per request, socket or second.

    The parts of the site that use Redis (the cache, presence, the channel layer)
    each log one state line when it goes away and one when it answers again, marked
    `redis="away"|"back"` (logs.REDIS_AWAY). Between the two, every other line
    carrying a Redis-unreachable error is dropped: a doorbell not rung, a socket's
    join, channels_redis's receive task, whose traceback came every second. Its
    records tell the channel layer's state (channel_layer.reachability), as the
    task has no other way to. Should one come with no part known away, it is kept,
    without its traceback. Any other error keeps its line and its traceback.
    """

    away: set[str] = set()  # the loggers whose part of the site has Redis away

    def filter(self, record: logging.LogRecord) -> bool:
        state = getattr(record, "redis", None)
        if state is not None:
            (self.away.add if state == "away" else self.away.discard)(record.name)
            return True
        error = _unreachable(record)
        if error is None:
            return True
        from momenta_site.channel_layer import reachability

        if record.name.startswith("channels_redis"):
            reachability.failed(error)  # logs the state line, through this filter
        # reachability too: its line may be below this handler's level (LOG_LEVEL=ERROR).
        if self.away or reachability.away:
            return False
        record.exc_info = record.exc_text = None
        return True


class UvicornLevels(logging.Filter):
    """uvicorn's own lines at the site's LOG_LEVEL, a worker's death among the warnings.

    When a worker of `serve --workers N` dies (killed, out of memory) uvicorn starts
    another and says "Child process [PID] died" at INFO: unseen at the default
    WARNING, though the operator wants to know. `serve` runs uvicorn at INFO at least
    (a line must be made to be judged); this filter, on the handler of
    momenta_site/uvicorn_logging.json, makes that one line a WARNING and drops the
    rest below LOG_LEVEL, as before.
    """

    DIED = re.compile(r"Child process \[\d+\] died")

    def __init__(self):
        from django.conf import settings

        super().__init__()
        self.level = logging.getLevelName(settings.LOG_LEVEL)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING and self.DIED.fullmatch(record.getMessage()):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return record.levelno >= self.level


# psycopg_pool's lines that mean the database is away (its logger: "psycopg.pool").
_POOL_AWAY = ("error connecting in", "reconnection attempt in pool", "discarding broken connection")


def _database_error(record: logging.LogRecord) -> bool:
    """Whether the record carries a database connection error (traceback or argument)."""
    from django.db import InterfaceError, OperationalError
    from psycopg import Error as PsycopgError

    kinds = (OperationalError, InterfaceError, PsycopgError)
    if record.exc_info and isinstance(record.exc_info[1], kinds):
        return True
    args = record.args.values() if isinstance(record.args, dict) else record.args or ()
    return any(isinstance(a, kinds) for a in args)


class DatabaseOutage(logging.Filter):
    """While the database is away, one line says so (database_outage.py), not one per
    pool attempt and request: psycopg_pool's first line that says it is away becomes
    that line, and the pool's lines and those carrying a database error that follow are
    dropped until it answers again. Outside an outage every line is kept (a request
    whose connection died once still says so)."""

    def __init__(self):
        super().__init__()
        from momenta_site import database_outage

        self.outage = database_outage

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "database", None) is not None:
            return True  # the outage's own line
        pool = record.name.startswith("psycopg.pool") and record.levelno >= logging.WARNING
        if pool and not self.outage.away and str(record.msg).startswith(_POOL_AWAY):
            self.outage.went_away(record.getMessage().splitlines()[0])
            return False
        if self.outage.away and (pool or _database_error(record)):
            return False
        return True

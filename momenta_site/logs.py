"""The site's log lines: a timestamp, the level, the request (or socket) and the user.

Every line carries `request_id` and `user_id`, taken from the record (`extra=`) or
else from the request or socket being served in this context (the context
variables below, set by momenta_site/request_log.py), so a warning logged deep in a
view names the request and the person it happened to. LOG_FORMAT=json writes one
JSON object per line (python-json-logger), for a log shipper; the default is a line
for people.
"""

from __future__ import annotations

import contextvars
import logging
from datetime import UTC, datetime

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from momenta_site import release

# What is being served in this context: asgiref copies the context into the thread a
# request or a consumer's database call runs in, so these follow it there.
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
user_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("user_id", default=None)

# The marks of a Redis state line, one per change (log_filters.RedisOutage): about
# the process, not about the request that happened to notice, so no request or user.
REDIS_AWAY = {"redis": "away", "request_id": None, "user_id": None}
REDIS_BACK = {"redis": "back", "request_id": None, "user_id": None}


def describe(error: BaseException) -> str:
    """`ConnectionError: Error 111 connecting to …`: redis-py's repr says only
    `network:ConnectionError`."""
    return f"{type(error).__name__}: {error}"


def _stamp(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _context(record: logging.LogRecord) -> tuple[str | None, int | None]:
    """`extra=` wins, even None (a line about no one request); else this context's;
    else the request's own, for Django's 4xx lines logged once the middleware is done
    (they pass the request along: django.utils.log.log_response)."""
    given = record.__dict__
    request = given.get("request")
    return (
        given["request_id"]
        if "request_id" in given
        else request_id.get() or getattr(request, "request_id", None),
        given["user_id"]
        if "user_id" in given
        else user_id.get() or getattr(request, "logged_user_id", None),
    )


class JsonLines(JsonFormatter):
    """python-json-logger's line with the site's fields: time, level, logger, message,
    request_id, user_id, version, commit, then whatever the caller passed in `extra=`
    (a request line's method, path, status…), and a traceback."""

    def __init__(self) -> None:
        super().__init__(
            "{message}",
            style="{",
            rename_fields={"exc_info": "traceback"},
            # Not written as fields: ours are (below), the request is, uvicorn's repeats.
            reserved_attrs=[*RESERVED_ATTRS, "request", "color_message", "request_id", "user_id"],
            json_ensure_ascii=False,
        )

    def add_fields(self, log_data, record, message_dict) -> None:
        log_data.update(time=_stamp(record), level=record.levelname, logger=record.name)
        super().add_fields(log_data, record, message_dict)
        log_data["request_id"], log_data["user_id"] = _context(record)
        # Which release wrote the line: a shipper's search across an upgrade.
        log_data["version"], log_data["commit"] = release.VERSION, release.commit()


class Formatter(logging.Formatter):
    """`json=True`: one JSON object a line; else `time LEVEL logger req=… user=… message`."""

    def __init__(self, *args, json: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.json = JsonLines() if json else None

    def format(self, record: logging.LogRecord) -> str:
        if self.json is not None:
            return self.json.format(record)
        request, user = _context(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        line = f"{_stamp(record)} {record.levelname} {record.name} "
        line += f"req={request or '-'} user={user or '-'} {record.getMessage()}"
        return line + ("\n" + record.exc_text if record.exc_text else "")


def uvicorn_formatter() -> Formatter:
    """uvicorn's own lines (its log config, momenta_site/uvicorn_logging.json) in the
    site's format, as LOG_FORMAT says: settings.py is the one place that reads it."""
    from django.conf import settings

    return Formatter(json=settings.LOG_FORMAT == "json")

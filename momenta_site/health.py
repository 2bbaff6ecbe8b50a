"""`/healthz`: may this process take traffic? For the proxy and the process manager.

Answers within a few seconds:
- 200 `ok` when the database answers a query, the cache a read and the channel
  layer accepts a message;
- 200 `degraded: cache, channel layer` (naming what failed) when only Redis's
  parts fail: pages and commands work from the database then (the cache misses,
  a doorbell is lost and healed by the pages' heartbeat), so a proxy must keep
  sending traffic; a Redis outage costs live updates for a while, never the site;
- 503 `unavailable: database` when the database does not answer: nothing works;
- 503 `draining` while the instance's drain file exists (settings.DRAIN_FILE):
  `deploy/restart` makes it before stopping the instance, so the proxy stops
  sending it new requests while it finishes those in flight.

A line is logged when the answer changes, not at each probe (and no ERROR for a 503
the probe asked for: log_filters.HealthProbeAnswers).

It is a middleware placed first, not a view: the proxy and monitors address a
worker by its own address (`127.0.0.1:8001`), which is not in ALLOWED_HOSTS, and
over plain HTTP, which HTTPS=1 would redirect. The answer carries nothing but
the names of failed dependencies, so it is safe to answer any host.
"""

from __future__ import annotations

import asyncio
import logging
import os

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse

from momenta_site.logs import describe

logger = logging.getLogger(__name__)

PATH = "/healthz"
# Each check must answer within this; a proxy's health probe should not hang.
TIMEOUT_SECONDS = 3
# Publishing to a group nobody joins reaches Redis (or the in-memory layer) and
# leaves nothing behind: no queue, no subscription.
PROBE_GROUP = "healthz"
# Reading a key nobody writes takes a connection from the cache's pool and leaves nothing.
PROBE_KEY = "healthz:probe"


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_cache() -> None:
    # The Redis cache misses instead of raising when Redis is away: ask Redis itself.
    probe = getattr(cache, "probe", None)
    if probe is not None:
        probe(PROBE_KEY)
    else:
        cache.get(PROBE_KEY)


async def check_channel_layer() -> None:
    await get_channel_layer().group_send(PROBE_GROUP, {"type": "healthz.probe"})


async def failures() -> list[str]:
    """The names of the dependencies that did not answer in time."""
    checks = {
        "database": sync_to_async(check_database),
        "cache": sync_to_async(check_cache),
        "channel layer": check_channel_layer,
    }
    failed = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check(), TIMEOUT_SECONDS)
        except Exception as error:  # any failure: down or degraded (answer() says which)
            failed[name] = describe(error)
    _tell(failed)
    return list(failed)


_last_failed: set[str] = set()  # what this process's previous probe found failing


def _tell(failed: dict[str, str]) -> None:
    """A line when the answer changes, not one per probe (the proxy probes every few
    seconds: an outage would log two lines a probe). Errors as text: log_filters.py
    drops lines carrying a Redis error while Redis is known away, and this one is news."""
    global _last_failed
    if set(failed) == _last_failed:
        return
    _last_failed = set(failed)
    if failed:
        logger.warning(
            "healthz: %s", "; ".join(f"{name} unavailable: {why}" for name, why in failed.items())
        )
    else:
        logger.warning("healthz: every dependency answers again")


# Without these the process serves nothing; without the others it serves pages from the database.
VITAL = frozenset({"database"})


def answer(failed: list[str]) -> HttpResponse:
    down = [name for name in failed if name in VITAL]
    degraded = [name for name in failed if name not in VITAL]
    lines = []
    if down:
        lines.append("unavailable: " + ", ".join(down))
    if degraded:
        lines.append("degraded: " + ", ".join(degraded))
    body = "\n".join(lines or ["ok"]) + "\n"
    status = 503 if down else 200
    response = HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


def draining() -> bool:
    """Whether the operator asked this instance to drain (deploy/restart)."""
    return bool(settings.DRAIN_FILE) and os.path.exists(settings.DRAIN_FILE)


_was_draining = False  # what this process's previous probe found


def _tell_draining(now: bool) -> None:
    """A line when draining starts or ends (the probes' 503s are not logged: each
    would be an ERROR, log_filters.HealthProbeAnswers)."""
    global _was_draining
    if now != _was_draining:
        _was_draining = now
        if now:
            logger.info("healthz: draining (%s exists): answering 503", settings.DRAIN_FILE)
        else:
            logger.info("healthz: no longer draining")


def drain_answer() -> HttpResponse:
    # Read by the proxy's health check, not by people: plain words like `ok`.
    response = HttpResponse("draining\n", status=503, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers `/healthz` before host checks, redirects, sessions or CSRF run.

    Synchronous like the rest of the chain, so every other request pays no
    sync/async switch for it; a probe runs the checks on the server's loop.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == PATH and request.method in ("GET", "HEAD"):
            now_draining = draining()
            _tell_draining(now_draining)
            if now_draining:
                return drain_answer()
            return answer(async_to_sync(failures)())
        return self.get_response(request)

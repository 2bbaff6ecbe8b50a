"""`/healthz` and `/readyz`: is this process well, and may the proxy send it traffic?

Both answer JSON within 2 s, with the release (`version`, `commit`: release.py):
- 200 `{"status": "ok"}` when the database answers a query and would take the code's
  writes (write_check.py), the cache a read and the channel layer a message;
- 200 `"degraded"`, `failed` naming what (`{"cache": "unreachable"}`), when only
  Redis's parts fail: pages and commands work from the database then, so a proxy must
  keep sending traffic; a Redis outage costs live updates for a while, never the site;
- 503 `"unavailable"` when the database does not answer (`"database": "unreachable"`)
  or every write would fail (`"writes fail"`: a rollback past an unsafe migration);
  `/readyz` says `"degraded"` (200) for that one: the schema is every instance's, so
  the proxy keeps them all and the pages still read.

`/readyz` alone also answers 503 `"draining"` while the instance's drain file exists
(settings.DRAIN_FILE): `deploy/restart` makes it before stopping the instance and waits
on `/readyz` after starting it, and the proxy's active check asks `/readyz`. So a
deploy takes each instance out of the proxy while the public `/healthz`, which
monitors watch, keeps saying how the site is: it does not flap to 503 at each deploy.

Fast with the database away: the pooled connection is waited for at most
settings.HEALTH_DATABASE_TIMEOUT (a connection without the pool has the database's
connect_timeout), the three checks run at once, and the probes run in a thread of
their own (http_handler.py), not behind the requests that wait for the database.

A line is logged when the answer changes, not at each probe (and no ERROR for a 503
the probe asked for: log_filters.HealthProbeAnswers). The answer names failed parts
and a fixed reason, never an error's text (that goes to the log).

It is a middleware placed first, not a view: the proxy and monitors address a
worker by its own address (`127.0.0.1:8001`), which is not in ALLOWED_HOSTS, and
over plain HTTP, which HTTPS=1 would redirect.
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
from django.http import JsonResponse

from momenta_site import database_outage, release, write_check
from momenta_site.logs import describe

logger = logging.getLogger(__name__)

PATH = "/healthz"
READY_PATH = "/readyz"
PATHS = (PATH, READY_PATH)
# A backstop for each check, under the proxy's health_timeout; each has its own shorter
# timeouts (the pool's wait, Redis's socket timeouts).
TIMEOUT_SECONDS = 1.5
# Publishing to a group nobody joins reaches Redis (or the in-memory layer) and
# leaves nothing behind: no queue, no subscription.
PROBE_GROUP = "healthz"
# Reading a key nobody writes takes a connection from the cache's pool and leaves nothing.
PROBE_KEY = "healthz:probe"
# The reasons an answer gives (protocol words, not for people).
UNREACHABLE = "unreachable"
WRITES_FAIL = "writes fail"


def check_database() -> None:
    pool = getattr(connection, "pool", None)  # PostgreSQL with DB_POOL only
    if pool is not None:
        # Django's own wait for a pooled connection is DB_POOL_TIMEOUT: too long here.
        pool.open()
        with pool.connection(timeout=settings.HEALTH_DATABASE_TIMEOUT) as pooled:
            pooled.execute("SELECT 1")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def database_failure() -> tuple[str, str] | None:
    """(reason, the error's text) when the database fails this process, else None."""
    try:
        check_database()
    except Exception as error:
        database_outage.went_away(describe(error))
        return UNREACHABLE, describe(error)
    database_outage.answered()
    try:
        write_check.check()
    except Exception as error:
        return WRITES_FAIL, describe(error)
    return None


def check_cache() -> None:
    # The Redis cache misses instead of raising when Redis is away: ask Redis itself.
    probe = getattr(cache, "probe", None)
    if probe is not None:
        probe(PROBE_KEY)
    else:
        cache.get(PROBE_KEY)


async def check_channel_layer() -> None:
    await get_channel_layer().group_send(PROBE_GROUP, {"type": "healthz.probe"})


async def _run(check) -> tuple[str, str] | None:
    try:
        return await asyncio.wait_for(check(), TIMEOUT_SECONDS)
    except TimeoutError:
        return UNREACHABLE, f"no answer within {TIMEOUT_SECONDS} s"
    except Exception as error:  # any failure: down or degraded (answer() says which)
        return UNREACHABLE, describe(error)


async def failures() -> dict[str, str]:
    """What failed -> why (UNREACHABLE, WRITES_FAIL); all three checked at once."""
    checks = {
        "database": sync_to_async(database_failure),
        # Not on the database's thread: redis-py's pool is shared by threads.
        "cache": sync_to_async(check_cache, thread_sensitive=False),
        "channel layer": check_channel_layer,
    }
    results = await asyncio.gather(*(_run(check) for check in checks.values()))
    failed = {name: result for name, result in zip(checks, results, strict=True) if result}
    _tell(failed)
    return {name: reason for name, (reason, _) in failed.items()}


_last_failed: dict[str, str] = {}  # what this process's previous probe found failing


def _tell(failed: dict[str, tuple[str, str]]) -> None:
    """A line when the answer changes, not one per probe (the proxy probes every few
    seconds: an outage would log two lines a probe). Errors as text: log_filters.py
    drops lines carrying a Redis or database error while it is known away, and this
    one is news."""
    global _last_failed
    # The database away is database_outage.py's one line, with the pool's.
    failed = {n: f for n, f in failed.items() if (n, f[0]) != ("database", UNREACHABLE)}
    now = {name: reason for name, (reason, _) in failed.items()}
    if now == _last_failed:
        return
    _last_failed = now
    if failed:
        said = {UNREACHABLE: "unavailable"}
        logger.warning(
            "healthz: %s",
            "; ".join(f"{name} {said.get(r, r)}: {why}" for name, (r, why) in failed.items()),
        )
    else:
        logger.warning("healthz: every dependency answers again")


# Without these the process serves nothing; without the others it serves pages from the database.
VITAL = frozenset({"database"})


def respond(status: str, failed: dict[str, str], code: int) -> JsonResponse:
    body = {"status": status, "failed": failed}
    body |= {"version": release.VERSION, "commit": release.commit()}
    response = JsonResponse(body, status=code)
    response["Cache-Control"] = "no-store"
    return response


def answer(failed: dict[str, str], *, ready: bool = False) -> JsonResponse:
    """`ready`: for /readyz, where writes that fail keep the instance in the proxy: the
    schema is every instance's, so taking them all out would only lose the reads."""
    down = {n for n, why in failed.items() if n in VITAL and not (ready and why == WRITES_FAIL)}
    if down:
        return respond("unavailable", failed, 503)
    return respond("degraded" if failed else "ok", failed, 200)


def draining() -> bool:
    """Whether the operator asked this instance to drain (deploy/restart)."""
    return bool(settings.DRAIN_FILE) and os.path.exists(settings.DRAIN_FILE)


_was_draining = False  # what this process's previous readiness probe found


def _tell_draining(now: bool) -> None:
    """A line when draining starts or ends (the probes' 503s are not logged: each
    would be an ERROR, log_filters.HealthProbeAnswers)."""
    global _was_draining
    if now != _was_draining:
        _was_draining = now
        if now:
            logger.info("readyz: draining (%s exists): answering 503", settings.DRAIN_FILE)
        else:
            logger.info("readyz: no longer draining")


class HealthCheckMiddleware:
    """Answers `/healthz` and `/readyz` before host checks, redirects, sessions or CSRF.

    Synchronous like the rest of the chain, so every other request pays no
    sync/async switch for it; a probe runs the checks on the server's loop.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path not in PATHS or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        if request.path == READY_PATH:
            now_draining = draining()
            _tell_draining(now_draining)
            if now_draining:
                return respond("draining", {}, 503)
        return answer(async_to_sync(failures)(), ready=request.path == READY_PATH)

"""Django's Redis cache with one connection pool per process, which degrades when Redis is away.

One pool per process: Django keeps a cache object per thread and per async
context (`caches` is an asgiref Local), and each RedisCache builds its own
redis-py client and pool. Under ASGI every request and every websocket runs in
a context of its own, so each one built a pool, opened a connection for its
session read and never gave it back: Redis's client count grew by one a socket
until `maxclients` (issue 26). Here the cache objects stay per context
(Django's contract), but they share one client, hence one pool, per LOCATION
and OPTIONS in the process. A redis-py pool is thread-safe and reconnects after
a fork, so sharing it is sound.

Degrading: everything in this cache is a copy of the database (sessions are
`cached_db`), so when Redis does not answer, reads miss and writes are skipped
instead of raising, and every page works from the database (issue 26). After a
failure no request asks Redis any more: a thread of the process tries it every
PROBE_EVERY_S, and requests use it again once it answers. So a dead or hung
Redis costs the one request that found it so at most its timeouts
(settings.py), and the others nothing. A skipped write or delete would leave
Redis holding an old copy (a session logged out during the outage would come
back with Redis): those keys are remembered, and deleted before requests use
Redis again.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property
from redis import exceptions as redis_errors

from momenta_site.logs import REDIS_AWAY, REDIS_BACK, describe

log = logging.getLogger(__name__)

# While Redis is away, the process's prober asks it this often whether it is back.
PROBE_EVERY_S = 1.0
PROBE_KEY = "redis-cache:probe"  # read, never written
# Keys left stale by skipped writes, at most (a key per session touched in an outage).
STALE_MAX = 100_000
UNREACHABLE = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
)  # redis-py's; max clients is a ConnectionError

# (servers, options) -> the process's one client for them.
_clients: dict[tuple[tuple[str, ...], str], django_redis.RedisCacheClient] = {}
# Two contexts' first reads may run at once in different threads: without the
# lock both would build a client and one pool would be left behind.
_lock = threading.Lock()


_Base = django_redis.RedisCacheClient


class _DegradingClient(_Base):
    """The process's client for one Redis: builds each pool once, and misses while Redis is away."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._away = False  # Redis did not answer; requests leave it to the prober
        self._prober: tuple[int, threading.Thread] | None = None  # (pid, thread)
        self._stale: set[str] = set()  # keys whose write or delete was skipped
        self._state = threading.Lock()

    def _get_connection_pool(self, write):
        with _lock:
            return super()._get_connection_pool(write)

    # --- the outage ----------------------------------------------------------------

    def _run(self, command, fallback, skipped=()):
        """command() if Redis answers, else `fallback`; the `skipped` keys are then stale."""
        if self._away:
            self._mark(skipped)
            self._probe_in_background()
            return fallback
        try:
            self._heal()
            return command()
        except UNREACHABLE as error:
            self._mark(skipped)
            self._failed(error)
            return fallback

    def _mark(self, keys) -> None:
        if not keys:
            return
        with self._state:
            if len(self._stale) < STALE_MAX:
                self._stale.update(keys)
            else:
                log.warning("cache: over %s stale keys; Redis may serve old copies", STALE_MAX)

    def _heal(self) -> None:
        """Delete what went stale while Redis was away (raises if it still is)."""
        if not self._stale:
            return
        with self._state:
            stale, self._stale = self._stale, set()
        try:
            _Base.delete_many(self, list(stale))
        except BaseException:
            with self._state:
                self._stale |= stale
            raise

    def _failed(self, error) -> None:
        with self._state:
            first, self._away = not self._away, True
        if first:  # once per outage, not once per request
            log.warning(
                "cache: Redis unreachable (%s); reads miss, writes skipped",
                describe(error),
                extra=REDIS_AWAY,
            )
        self._probe_in_background()

    def _probe_in_background(self) -> None:
        with self._state:
            # A forked child inherits _away but not the thread: it starts its own.
            if self._prober is not None and self._prober[0] == os.getpid():
                if self._prober[1].is_alive():
                    return
            thread = threading.Thread(target=self._probe_until_back, daemon=True)
            self._prober = (os.getpid(), thread)
        thread.start()

    def _probe_until_back(self) -> None:
        while self._away:
            time.sleep(PROBE_EVERY_S)
            try:
                self.probe(PROBE_KEY)
            except UNREACHABLE:
                continue
            except Exception:  # not an outage: say so, and keep the site on the database
                log.exception("cache: probing Redis failed")

    def probe(self, key) -> None:
        """A real read, stale keys deleted first: raises if Redis does not answer.
        Requests use Redis again once it succeeds (/healthz calls it too)."""
        try:
            self._heal()
            _Base.get(self, key, None)
        except UNREACHABLE as error:
            self._failed(error)
            raise
        with self._state:
            back, self._away = self._away, False
        if back:
            log.warning("cache: Redis answers again", extra=REDIS_BACK)

    # --- Django's client API: reads miss, writes are skipped -----------------------

    def add(self, key, value, timeout):
        return self._run(lambda: _Base.add(self, key, value, timeout), False, [key])

    def get(self, key, default):
        return self._run(lambda: _Base.get(self, key, default), default)

    def set(self, key, value, timeout):
        self._run(lambda: _Base.set(self, key, value, timeout), None, [key])

    def touch(self, key, timeout):
        return self._run(lambda: _Base.touch(self, key, timeout), False)

    def delete(self, key):
        return self._run(lambda: _Base.delete(self, key), False, [key])

    def get_many(self, keys):
        return self._run(lambda: _Base.get_many(self, keys), {})

    def has_key(self, key):
        return self._run(lambda: _Base.has_key(self, key), False)

    def incr(self, key, delta):
        missing = ValueError(f"Key '{key}' not found.")  # what Django raises for a missing key
        result = self._run(lambda: _Base.incr(self, key, delta), missing, [key])
        if result is missing:
            raise missing
        return result

    def set_many(self, data, timeout):
        self._run(lambda: _Base.set_many(self, data, timeout), None, list(data))

    def delete_many(self, keys):
        self._run(lambda: _Base.delete_many(self, keys), None, list(keys))

    def clear(self):
        return self._run(lambda: _Base.clear(self), False)


class RedisCache(django_redis.RedisCache):
    @cached_property
    def _cache(self):
        # OPTIONS may hold unhashable values (a dict of socket options): key on its repr.
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = _DegradingClient(self._servers, **self._options)
            return client

    def probe(self, key: str) -> None:
        """Read `key` from Redis itself, raising if it does not answer (for /healthz)."""
        self._cache.probe(self.make_and_validate_key(key))

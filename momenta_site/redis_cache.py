"""django-redis, and the one promise it does not keep: a skipped write is not lost.

django-redis (settings.py) shares one connection pool per Redis URL in the process
and, with IGNORE_EXCEPTIONS, misses reads and skips writes when Redis does not
answer: everything cached is a copy of the database (sessions are `cached_db`), so
pages work from it (issue 26). But a skipped write or delete leaves Redis holding an
old copy: a session logged out while Redis stalled would come back with Redis. This
client remembers those keys and deletes them before the cache uses Redis again.

It also says once that Redis went away and once that it is back (log_filters.py drops
the rest), where django-redis logs a traceback per cache call, and after a failure
leaves Redis alone for RETRY_AFTER_S, so a hung Redis costs one request a second its
timeouts, not every request (they share one thread: http_handler.py).
"""

from __future__ import annotations

import inspect
import logging
import threading
import time

from django_redis.cache import RedisCache as LibraryCache
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted

from momenta_site.logs import REDIS_AWAY, REDIS_BACK, describe

log = logging.getLogger(__name__)

RETRY_AFTER_S = 1.0
STALE_MAX = 100_000  # keys left stale, at most (one per session touched in an outage)
# The client calls that change a key, and the argument naming it (or them).
WRITES = {"set": "key", "delete": "key", "_incr": "key", "delete_many": "keys", "set_many": "data"}


class _Redis:
    """One Redis's state in the process: Django keeps a cache object (and so a client)
    per thread and async context, and they must all know what went stale."""

    def __init__(self) -> None:
        self.away = False
        self.retry_at = 0.0
        self.stale: set = set()
        self.lock = threading.Lock()


_state: dict[tuple[str, ...], _Redis] = {}


class DegradingClient(DefaultClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.redis = _state.setdefault(tuple(self._server), _Redis())

    def _call(self, name, *args, force=False, **kwargs):
        state = self.redis
        try:
            if state.away and not force and time.monotonic() < state.retry_at:
                raise ConnectionInterrupted(connection=None)  # django-redis ignores it
            self._heal()
            result = getattr(DefaultClient, name)(self, *args, **kwargs)
        except ConnectionInterrupted as error:
            self._mark(name, args, kwargs)
            self._failed(error.__cause__ or error)
            raise
        if state.away:
            state.away = False
            log.warning("cache: Redis answers again", extra=REDIS_BACK)
        return result

    def _mark(self, name, args, kwargs) -> None:
        if name not in WRITES:
            return
        bound = inspect.signature(getattr(DefaultClient, name)).bind(self, *args, **kwargs)
        given = bound.arguments[WRITES[name]]
        keys = [given] if WRITES[name] == "key" else list(given)
        version = bound.arguments.get("version")
        with self.redis.lock:
            if len(self.redis.stale) < STALE_MAX:
                self.redis.stale.update(self.make_key(k, version=version) for k in keys)
            else:
                log.warning("cache: over %s stale keys; Redis may serve old copies", STALE_MAX)

    def _heal(self) -> None:
        """Delete what went stale while Redis was away (raises if it still is)."""
        if not self.redis.stale:
            return
        with self.redis.lock:
            stale, self.redis.stale = self.redis.stale, set()
        try:
            DefaultClient.delete_many(self, list(stale))
        except BaseException:
            with self.redis.lock:
                self.redis.stale |= stale
            raise

    def _failed(self, error: BaseException) -> None:
        state = self.redis
        state.retry_at = time.monotonic() + RETRY_AFTER_S
        if not state.away:  # once per outage, not once per request
            state.away = True
            log.warning(
                "cache: Redis unreachable (%s); reads miss, writes skipped",
                describe(error),
                extra=REDIS_AWAY,
            )

    def probe(self, key) -> None:
        """A real read, whatever the last call found, stale keys deleted first."""
        try:
            self._call("get", key, force=True)
        except ConnectionInterrupted as error:
            raise (error.__cause__ or error) from None


def _routed(name: str):
    def call(self, *args, **kwargs):
        return self._call(name, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


# Every call the cache API makes goes through _call (add and incr reach set and _incr).
for _name in (*WRITES, "get", "get_many", "has_key", "touch", "clear", "ttl", "expire"):
    setattr(DegradingClient, _name, _routed(_name))


class RedisCache(LibraryCache):
    def probe(self, key: str) -> None:
        """Read `key` from Redis itself, raising if it does not answer (for /healthz)."""
        self.client.probe(key)

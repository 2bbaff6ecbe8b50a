"""Django's Redis cache with one connection pool per process, not one per context.

Django keeps a cache object per thread and per async context (`caches` is an
asgiref Local), and each RedisCache builds its own redis-py client and pool.
Under ASGI every request and every websocket runs in a context of its own, so
each one built a pool, opened a connection for its session read and never gave
it back: Redis's client count grew by one a socket until `maxclients` (issue 26).

Here the cache objects stay per context (Django's contract), but they share one
client, hence one pool, per LOCATION and OPTIONS in the process. A redis-py pool
is thread-safe and reconnects after a fork, so sharing it is sound.
"""

from __future__ import annotations

import threading

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property

# (servers, options) -> the process's one client for them.
_clients: dict[tuple[tuple[str, ...], str], django_redis.RedisCacheClient] = {}
# Two contexts' first reads may run at once in different threads: without the
# lock both would build a client and one pool would be left behind.
_lock = threading.Lock()


class _PoolOnceClient(django_redis.RedisCacheClient):
    """Builds each server's pool once even when threads ask for it at once."""

    def _get_connection_pool(self, write):
        with _lock:
            return super()._get_connection_pool(write)


class RedisCache(django_redis.RedisCache):
    @cached_property
    def _cache(self):
        # OPTIONS may hold unhashable values (a dict of socket options): key on its repr.
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = _PoolOnceClient(self._servers, **self._options)
            return client

"""Who is at the table now: one entry per open socket, shared by every server process.

An entry is (campaign, socket's channel name) -> (user id, expiry time). A
socket adds its entry when it connects, removes it when it closes, and the
page's heartbeat (every 25 s) pushes the expiry forward, so the entries of a
process that died without closing its sockets vanish within TTL. A user is
present while they have at least one live entry; two tabs are two entries.

- No REDIS_URL (embedded stack): a dict in this process. That is correct, not
  a shortcut: the in-memory channel layer already confines a table to one
  server process, so every socket of a table lives here.
- REDIS_URL (scale-out stack): one Redis sorted set per campaign, member
  "<user id>:<channel name>", score = expiry (Unix time). Adds, removals and
  reads are single Redis commands, so processes never overwrite each other's
  entries (a read-modify-write in the Django cache would).
"""

from __future__ import annotations

import time
from collections import Counter
from functools import cache

from django.conf import settings

TTL = 75.0  # seconds without a heartbeat before a socket no longer counts


class LocalPresence:
    def __init__(self) -> None:
        self._tables: dict[int, dict[str, tuple[int, float]]] = {}

    async def join(self, campaign_id: int, channel: str, user_id: int) -> None:
        self._tables.setdefault(campaign_id, {})[channel] = (user_id, time.time() + TTL)

    touch = join

    async def leave(self, campaign_id: int, channel: str, user_id: int) -> None:
        self._tables.get(campaign_id, {}).pop(channel, None)

    async def roster(self, campaign_id: int) -> dict[int, int]:
        now = time.time()
        sockets = self._tables.get(campaign_id, {})
        for channel in [c for c, (_, expires) in sockets.items() if expires < now]:
            del sockets[channel]
        return dict(Counter(user_id for user_id, _ in sockets.values()))

    async def clear(self, campaign_id: int) -> None:
        self._tables.pop(campaign_id, None)


class RedisPresence:
    def __init__(self, url: str, prefix: str = "momenta:presence:") -> None:
        self.url = url
        self.prefix = prefix

    def _client(self):
        # A client per call: presence changes are rare (connect, close,
        # heartbeat) and a client is bound to the event loop that made it.
        import redis.asyncio

        return redis.asyncio.Redis.from_url(self.url)

    def _key(self, campaign_id: int) -> str:
        return f"{self.prefix}{campaign_id}"

    async def join(self, campaign_id: int, channel: str, user_id: int) -> None:
        key = self._key(campaign_id)
        async with self._client() as r:
            await r.zadd(key, {f"{user_id}:{channel}": time.time() + TTL})
            await r.expire(key, int(TTL * 2))

    touch = join

    async def leave(self, campaign_id: int, channel: str, user_id: int) -> None:
        async with self._client() as r:
            await r.zrem(self._key(campaign_id), f"{user_id}:{channel}")

    async def roster(self, campaign_id: int) -> dict[int, int]:
        key = self._key(campaign_id)
        async with self._client() as r:
            await r.zremrangebyscore(key, "-inf", time.time())
            members = await r.zrange(key, 0, -1)
        return dict(Counter(int(m.decode().split(":", 1)[0]) for m in members))

    async def clear(self, campaign_id: int) -> None:
        async with self._client() as r:
            await r.delete(self._key(campaign_id))


@cache
def _store_for(redis_url: str) -> LocalPresence | RedisPresence:
    return RedisPresence(redis_url) if redis_url else LocalPresence()


def store() -> LocalPresence | RedisPresence:
    """The presence store for the configured stack (follows settings.REDIS_URL)."""
    return _store_for(getattr(settings, "REDIS_URL", ""))

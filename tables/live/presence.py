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
  "<user id>:<process>:<channel name>", score = expiry (Unix time), and one
  lease key per process that it renews while it runs: a crashed process's
  sockets stop counting within LEASE_TTL_S, and each process's table hubs
  re-read the roster every fanout.PRESENCE_CHECK_S, so pages see it within
  LEASE_TTL_S + PRESENCE_CHECK_S (5 s) instead of a heartbeat or TTL later
  (issue 26). Adds, removals and reads are single Redis commands, so
  processes never overwrite each other's entries.

  Redis away: joins, heartbeats and leaves are skipped (logged) and the roster
  is None, "not known"; the sockets stay open. A process also keeps its own
  entries in memory: when its lease was gone at a renewal (Redis restarted
  empty, or the process was stalled so long that others swept it), or a join or
  heartbeat was skipped, it writes them again; and it remembers the entries whose
  removal was skipped (Redis kept its data: a blip, a pause) and removes them. So
  presence is whole again within LEASE_RENEW_S of Redis's return (issue 41).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import socket
import time
import uuid
from collections import Counter
from functools import cache

from django.conf import settings
from redis import exceptions as redis_errors

from momenta_site.logs import REDIS_AWAY, REDIS_BACK, describe

TTL = 75.0  # seconds without a heartbeat (every 25 s) before a socket no longer counts
# A live process renews its lease every second; three seconds let it miss two renewals
# (an event loop stalled by a big render or a GC pause) before its sockets stop counting.
LEASE_TTL_S = 3
LEASE_RENEW_S = 1
# Half a second to connect to Redis, two to answer: presence is never worth a page's wait.
CONNECT_TIMEOUT_S, ANSWER_TIMEOUT_S = 0.5, 2
# Removals skipped while Redis was away, remembered at most (each lapses within TTL).
UNREMOVED_MAX = 10_000
# This process, as presence entries name it: unique across hosts and restarts.
PROCESS = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
log = logging.getLogger(__name__)
UNREACHABLE = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    OSError,
)  # redis-py's, and a refused socket


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
    """Presence shared by every process, each socket counted under its process's lease.

    Members are "<user id>:<process>:<channel>" with score = expiry. A process
    renews its lease key every LEASE_RENEW_S; a process that dies stops
    renewing, and within LEASE_TTL_S its sockets no longer count (the
    per-socket TTL still catches a socket leaked by a live process).
    """

    def __init__(self, url: str, prefix: str = "momenta:presence:") -> None:
        self.url = url
        self.prefix = prefix
        self.process = PROCESS
        self._clients: dict[asyncio.AbstractEventLoop, object] = {}
        self._renewers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
        # This process's own entries, {campaign: {channel: user id}}: written again
        # when Redis has lost them (see _renew).
        self._mine: dict[int, dict[str, int]] = {}
        self._unwritten = False  # a join or heartbeat was skipped: write _mine again
        # Entries whose removal was skipped, {(campaign, member): their expiry}: removed
        # when Redis answers again; past its expiry, an entry no longer counts anyway.
        self._unremoved: dict[tuple[int, str], float] = {}
        self._away = False  # Redis did not answer the last command (logged once)

    def _client(self):
        # One client per event loop: a client is bound to the loop that made it.
        import redis.asyncio

        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            for old in [lp for lp in self._clients if lp.is_closed()]:
                del self._clients[old]
                self._renewers.pop(old, None)
            # A blocking pool: when a crowd of sockets connects at once, a join waits
            # for a free connection instead of failing ("Too many connections"), which
            # would close its socket with 1011.
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url,
                socket_connect_timeout=CONNECT_TIMEOUT_S,
                socket_timeout=ANSWER_TIMEOUT_S,
                max_connections=20,
                timeout=10,
            )
            client = self._clients[loop] = redis.asyncio.Redis(connection_pool=pool)
        return client

    def _key(self, campaign_id: int) -> str:
        return f"{self.prefix}{campaign_id}"

    def _lease(self, process: str) -> str:
        return f"{self.prefix}lease:{process}"

    async def _hold_lease(self) -> None:
        loop = asyncio.get_running_loop()
        task = self._renewers.get(loop)
        if task is None or task.done():
            # The renewer first: if Redis is away now, it writes our entries when it is back.
            # Its own context: it renews every socket's entries, not the first one's (logs.py).
            self._renewers[loop] = loop.create_task(self._renew(), context=contextvars.Context())
            await self._client().set(self._lease(self.process), 1, ex=LEASE_TTL_S)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(LEASE_RENEW_S)
            try:
                held = await self._client().set(
                    self._lease(self.process), 1, ex=LEASE_TTL_S, get=True
                )
                # The lease lapsed (ours may be gone or swept), or a write was skipped.
                if held is None or self._unwritten:
                    await self._rewrite()
                if self._unremoved:
                    await self._remove_unremoved()
                self._answered()
            except UNREACHABLE as error:  # Redis away: try again next round
                self._unanswered(error)

    async def _rewrite(self) -> None:
        self._unwritten = False  # set again by a join that fails from here on
        r = self._client()
        expires = time.time() + TTL
        for campaign_id, sockets in list(self._mine.items()):
            if sockets:
                key = self._key(campaign_id)
                entries = {self._member(user, ch): expires for ch, user in sockets.items()}
                await r.zadd(key, entries)
                await r.expire(key, int(TTL * 2))

    async def _remove_unremoved(self) -> None:
        r, now = self._client(), time.time()
        for (campaign_id, member), expires in list(self._unremoved.items()):
            if expires > now:
                await r.zrem(self._key(campaign_id), member)
            del self._unremoved[(campaign_id, member)]

    def _member(self, user_id: int, channel: str) -> str:
        return f"{user_id}:{self.process}:{channel}"

    def _answered(self) -> None:
        if self._away:
            self._away = False
            log.warning("presence: Redis answers again", extra=REDIS_BACK)

    def _unanswered(self, error: BaseException) -> None:
        if not self._away:  # once per outage, not once per socket
            self._away = True
            log.warning(
                "presence: Redis unreachable (%s); rosters unknown until it is back",
                describe(error),
                extra=REDIS_AWAY,
            )

    async def join(self, campaign_id: int, channel: str, user_id: int) -> None:
        self._mine.setdefault(campaign_id, {})[channel] = user_id
        try:
            await self._hold_lease()
            key = self._key(campaign_id)
            r = self._client()
            member = self._member(user_id, channel)
            await r.zadd(key, {member: time.time() + TTL})
            await r.expire(key, int(TTL * 2))
            if channel not in self._mine.get(campaign_id, {}):
                await r.zrem(key, member)  # the socket left while this was written
        except UNREACHABLE as error:  # written again when Redis is back (_renew)
            self._unwritten = True
            self._unanswered(error)
        else:
            self._answered()

    touch = join

    async def leave(self, campaign_id: int, channel: str, user_id: int) -> None:
        mine = self._mine.get(campaign_id, {})
        mine.pop(channel, None)
        if not mine:
            self._mine.pop(campaign_id, None)
        member = self._member(user_id, channel)
        try:
            await self._client().zrem(self._key(campaign_id), member)
        except UNREACHABLE as error:
            # Redis may have kept the entry (and may have taken this zrem or not):
            # removed again when it answers (_renew), else it expires by itself (TTL).
            now = time.time()
            if len(self._unremoved) >= UNREMOVED_MAX:  # a long outage: drop the expired
                self._unremoved = {k: t for k, t in self._unremoved.items() if t > now}
            if len(self._unremoved) < UNREMOVED_MAX:
                self._unremoved[(campaign_id, member)] = now + TTL
            self._unanswered(error)

    async def roster(self, campaign_id: int) -> dict[int, int] | None:
        """{user id: open sockets}, or None while Redis does not answer."""
        try:
            return await self._roster(campaign_id)
        except UNREACHABLE as error:
            self._unanswered(error)
            return None

    async def _roster(self, campaign_id: int) -> dict[int, int]:
        key = self._key(campaign_id)
        r = self._client()
        await r.zremrangebyscore(key, "-inf", time.time())
        members = [m.decode() for m in await r.zrange(key, 0, -1)]
        processes = sorted({m.split(":", 2)[1] for m in members})
        alive = await r.mget([self._lease(p) for p in processes]) if processes else []
        dead = {p for p, lease in zip(processes, alive, strict=True) if lease is None}
        gone = [m for m in members if m.split(":", 2)[1] in dead]
        if gone:
            await r.zrem(key, *gone)
        self._answered()
        return dict(Counter(int(m.split(":", 1)[0]) for m in members if m not in gone))

    async def clear(self, campaign_id: int) -> None:
        self._mine.pop(campaign_id, None)  # not written again either
        await self._client().delete(self._key(campaign_id))


@cache
def _store_for(redis_url: str) -> LocalPresence | RedisPresence:
    return RedisPresence(redis_url) if redis_url else LocalPresence()


def store() -> LocalPresence | RedisPresence:
    """The presence store for the configured stack (follows settings.REDIS_URL)."""
    return _store_for(getattr(settings, "REDIS_URL", ""))

"""The channel layers: Channels' in-memory one with a cheaper sweep, channels_redis's
pub/sub one that logs Redis going away and coming back once each.

In-memory: its expiry sweep runs at most once per second.

The stock layer sweeps every channel's queue and every group on each receive and
group_send, so with 1,000 open sockets every doorbell walked ~2,000 entries: a
quarter of the server's CPU while 1,000 sockets connected (profiled in bench/). What
the sweep enforces (a message older than `expiry`, 3600 s in settings, drops its
channel from its groups) does not need sub-second precision.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import channels_redis.pubsub
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer
from redis import exceptions as redis_errors

from momenta_site.logs import REDIS_AWAY, REDIS_BACK, describe

log = logging.getLogger(__name__)
# What redis-py raises when Redis does not answer (refused, reset, timed out, full).
UNREACHABLE = (redis_errors.ConnectionError, redis_errors.TimeoutError)

SWEEP_EVERY_S = 1.0
PROBE_EVERY_S = 2.0  # while Redis is away, a process tries it at most this often
PROBE_GROUP = "layer-probe"


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    _swept_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY_S:
            return
        self._swept_at = now
        super()._clean_expired()


class Reachability:
    """Whether this process's channel layer reaches Redis: one log line per change.

    While Redis is away every doorbell, socket join and health probe fails, and
    channels_redis's receive task logs a traceback every second: one WARNING when it
    goes away and one when it answers again say all of that (log_filters.py drops
    the rest). Set from the layer's own calls below and from the receive task's
    log records (log_filters.RedisOutage), which is the only word it gives.
    """

    def __init__(self) -> None:
        self.away = False
        # Told of each change (the table hubs, which tell their pages, issue 39): each
        # called on its own event loop, as failed() may run in a request's thread.
        self._watchers: dict[Callable[[bool], None], asyncio.AbstractEventLoop] = {}
        self._probed_at = float("-inf")
        self._probe: asyncio.Task | None = None

    def failed(self, error: BaseException) -> None:
        if not self.away:
            self.away = True
            log.warning(
                "channel layer: Redis unreachable (%s); live updates wait, pages catch up"
                " from the database when it is back",
                describe(error),
                extra=REDIS_AWAY,
            )
            self._tell()

    def answered(self) -> None:
        if self.away:
            self.away = False
            log.warning(
                "channel layer: Redis answers again",
                extra=REDIS_BACK,
            )
            self._tell()

    def noted(self, error: BaseException) -> None:
        """A caller's layer call failed: Redis is away if that is why (else nothing)."""
        if isinstance(error, UNREACHABLE):
            self.failed(error)

    # --- who is told (only on a change: nothing per doorbell while Redis answers) ---

    def watch(self, told: Callable[[bool], None]) -> None:
        """Call `told(away)` on this event loop whenever the state changes."""
        self._watchers[told] = asyncio.get_running_loop()

    def unwatch(self, told: Callable[[bool], None]) -> None:
        self._watchers.pop(told, None)

    def _tell(self) -> None:
        for told, loop in list(self._watchers.items()):
            try:
                loop.call_soon_threadsafe(told, self.away)
            except RuntimeError:  # its loop is closed (a finished test's)
                self.unwatch(told)

    # --- finding out that it is back ------------------------------------------------

    def probe_soon(self, layer) -> None:
        """While away, try `layer` once in the background (at most every PROBE_EVERY_S):
        a process whose pages only listen makes no call that would find Redis back."""
        now = time.monotonic()
        if not self.away or self._probe is not None or now - self._probed_at < PROBE_EVERY_S:
            return
        self._probed_at = now
        self._probe = asyncio.get_running_loop().create_task(self._probed(layer))

    async def _probed(self, layer) -> None:
        try:
            # A group nobody is in: Redis publishes to no one; the in-memory layer does nothing.
            await layer.group_send(PROBE_GROUP, {"type": "layer.probe"})
        except Exception as error:
            self.noted(error)
        else:
            self.answered()
        finally:
            self._probe = None

    def reset(self) -> None:
        """Forget the state and the watchers (tests)."""
        self.away = False
        self._watchers.clear()
        self._probed_at = float("-inf")
        self._probe = None


reachability = Reachability()  # the process's one channel layer (settings.CHANNEL_LAYERS)


def _watched(name: str):
    """The layer's `name` call (channels_redis hands it to the loop's own layer)."""

    async def call(self, *args, **kwargs):
        method = channels_redis.pubsub.RedisPubSubChannelLayer.__getattr__(self, name)
        try:
            result = await method(*args, **kwargs)
        except UNREACHABLE as error:
            reachability.failed(error)
            raise
        reachability.answered()
        return result

    call.__name__ = call.__qualname__ = name
    return call


class RedisPubSubChannelLayer(channels_redis.pubsub.RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer, telling `reachability` how each call to Redis went.

    The calls are its public API (Channels' layer spec); what they do is unchanged.
    """

    new_channel = _watched("new_channel")
    send = _watched("send")
    group_send = _watched("group_send")
    group_add = _watched("group_add")
    group_discard = _watched("group_discard")

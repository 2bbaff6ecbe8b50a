"""Channels' in-memory layer with its expiry sweep run at most once per second.

The stock layer sweeps every channel's queue and every group on each receive and
group_send, so with 1,000 open sockets every doorbell walked ~2,000 entries: a
quarter of the server's CPU while 1,000 sockets connected (profiled in bench/). What
the sweep enforces (a message older than `expiry`, 3600 s in settings, drops its
channel from its groups) does not need sub-second precision.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer

SWEEP_EVERY_S = 1.0


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    _swept_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY_S:
            return
        self._swept_at = now
        super()._clean_expired()

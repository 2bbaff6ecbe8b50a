"""The presence store of the configured stack (a dict, or Redis with REDIS_URL)."""

import asyncio

import pytest
from redis import exceptions as redis_errors

from tables.live import presence

CAMPAIGN = 987_654  # no such campaign: the store does not care, and no test shares it


@pytest.fixture
async def store():
    store = presence.store()
    await store.clear(CAMPAIGN)
    yield store
    await store.clear(CAMPAIGN)


async def test_a_user_is_present_while_one_of_their_sockets_is_open(store):
    await store.join(CAMPAIGN, "tab-1", 7)
    await store.join(CAMPAIGN, "tab-2", 7)
    await store.join(CAMPAIGN, "tab-3", 8)
    assert await store.roster(CAMPAIGN) == {7: 2, 8: 1}
    await store.leave(CAMPAIGN, "tab-1", 7)
    assert await store.roster(CAMPAIGN) == {7: 1, 8: 1}
    await store.leave(CAMPAIGN, "tab-2", 7)
    assert await store.roster(CAMPAIGN) == {8: 1}


async def test_sockets_without_heartbeat_expire(store, monkeypatch):
    """A process that died never says goodbye: its sockets vanish after TTL."""
    import time

    now = time.time()
    await store.join(CAMPAIGN, "dead-process-tab", 7)
    monkeypatch.setattr(presence.time, "time", lambda: now + presence.TTL / 2)
    await store.touch(CAMPAIGN, "live-tab", 8)
    assert await store.roster(CAMPAIGN) == {7: 1, 8: 1}
    monkeypatch.setattr(presence.time, "time", lambda: now + presence.TTL + 1)
    assert await store.roster(CAMPAIGN) == {8: 1}


needs_redis = pytest.mark.skipif(
    not presence.store().__class__.__name__ == "RedisPresence", reason="Redis stack only"
)


@needs_redis
async def test_sockets_of_a_process_without_a_lease_do_not_count(store):
    """A crashed process never says goodbye: its lease lapses and its sockets vanish."""
    import time

    await store.join(CAMPAIGN, "live-tab", 8)
    r = store._client()
    member = "7:some-dead-process:tab-1"
    await r.zadd(store._key(CAMPAIGN), {member: time.time() + presence.TTL})
    assert await store.roster(CAMPAIGN) == {8: 1}
    assert await r.zscore(store._key(CAMPAIGN), member) is None  # swept, not just skipped

    # The same entry under a process whose lease is held counts.
    await r.set(store._lease("other-live-process"), 1, ex=presence.LEASE_TTL_S)
    await r.zadd(store._key(CAMPAIGN), {"7:other-live-process:tab-1": time.time() + 60})
    assert await store.roster(CAMPAIGN) == {7: 1, 8: 1}
    await r.delete(store._lease("other-live-process"))


async def test_a_crowd_of_sockets_joining_at_once_all_count(store):
    """Far more joins at once than the Redis pool has connections (1,000 pages opening
    after a restart): each waits its turn; none fails (it would close its socket)."""
    import asyncio

    await asyncio.gather(*(store.join(CAMPAIGN, f"tab-{i}", i) for i in range(200)))
    assert len(await store.roster(CAMPAIGN)) == 200


@needs_redis
async def test_a_heartbeat_redis_did_not_take_is_written_once_it_answers(store, monkeypatch):
    """A blip shorter than the lease: the socket counts again at the next renewal, not at
    its next heartbeat 25 s later (issue 41)."""
    await store.join(CAMPAIGN, "tab-1", 7)  # the lease is held from here on
    client = store._client()

    async def connection_lost(*args, **kwargs):
        raise redis_errors.ConnectionError("Connection lost")

    monkeypatch.setattr(client, "zadd", connection_lost)
    await store.join(CAMPAIGN, "tab-2", 8)
    monkeypatch.undo()
    async with asyncio.timeout(10):
        while await store.roster(CAMPAIGN) != {7: 1, 8: 1}:
            await asyncio.sleep(0.1)

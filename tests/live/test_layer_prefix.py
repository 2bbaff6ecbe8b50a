"""Two sites on one Redis: pub/sub channels ignore the database number, so each site's
channel layer needs its own prefix (CHANNEL_LAYER_PREFIX), or a doorbell for one
site's table-5 rings the other's. Runs when REDIS_URL is set (CI's second run)."""

import asyncio
import copy
import os

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis")


def layer_for(database: int, prefix: str | None = None) -> RedisPubSubChannelLayer:
    """The site's own layer configuration, on another database number and prefix."""
    config = copy.deepcopy(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    host = config["hosts"][0]
    host["address"] = f"{host['address'].rsplit('/', 1)[0]}/{database}"
    if prefix is not None:
        config["prefix"] = prefix
    return RedisPubSubChannelLayer(**config)


async def rings(sender: RedisPubSubChannelLayer, listener: RedisPubSubChannelLayer) -> bool:
    channel = await listener.new_channel()
    await listener.group_add("table-5", channel)
    try:
        await asyncio.sleep(0.2)  # the subscription reaches Redis
        await sender.group_send("table-5", {"type": "table.event", "seq": 1})
        try:
            await asyncio.wait_for(listener.receive(channel), timeout=1.5)
            return True
        except TimeoutError:
            return False
    finally:
        await listener.group_discard("table-5", channel)
        await sender.flush()
        await listener.flush()


async def test_sites_with_their_own_prefix_do_not_hear_each_other():
    # The site's default, or each xdist worker's own (tests/conftest.py).
    expected = os.environ.get("CHANNEL_LAYER_PREFIX", "momenta")
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix") == expected
    assert not await rings(layer_for(0, "momenta"), layer_for(1, "other-site"))


async def test_another_database_number_alone_does_not_separate_them():
    # Why the prefix exists: this is what the bench's relay and app did.
    assert await rings(layer_for(0, "momenta"), layer_for(1, "momenta"))

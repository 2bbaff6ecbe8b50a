"""A Redis outage in the log (issue 27): one line when each part of the site loses Redis
and one when it answers again, not a line (or a traceback) per request, socket or second.
"""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest
import redis
import redis.asyncio
from django.core.cache import cache

from momenta_site import health
from momenta_site.channel_layer import RedisPubSubChannelLayer
from tables.devtools.server import free_port
from tests.site_log import site_log  # noqa: F401 (a fixture)

from .test_redis_outage import OwnRedis, redis_cache

RECEIVE_TASK = "channels_redis.pubsub"  # logs a traceback a second while Redis is away


def layer_on(url: str) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(
        hosts=[{"address": url, "socket_connect_timeout": 0.5, "socket_timeout": 1}],
        prefix="outage-log",
    )


def receive_task_fails(error: Exception, times: int) -> None:
    """What channels_redis's receive task logs each second it cannot read Redis."""
    for _ in range(times):
        try:
            raise error
        except redis.ConnectionError:
            logging.getLogger(RECEIVE_TASK).exception("Unexpected exception in receive task")


def channel_layer_lines(log) -> list[str]:
    return [r["message"] for r in log.named("momenta_site.channel_layer")]


async def test_an_unreachable_redis_is_one_line_whatever_keeps_failing(site_log):  # noqa: F811
    log = site_log(json_lines=True)
    layer = layer_on(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    errors = []
    for _ in range(3):  # three doorbells
        with pytest.raises(redis.ConnectionError) as failed:
            await layer.group_send("table-1", {"type": "table.event", "seq": 1})
        errors.append(failed.value)
    receive_task_fails(errors[0], times=3)
    # A caller that logs the failure itself (a doorbell not rung, a socket's join).
    logging.getLogger("tables.live.broadcast").warning("doorbell not sent: %r", errors[0])
    await layer.flush()

    (line,) = log.records()  # every line parses, and there is one
    assert line["logger"] == "momenta_site.channel_layer"
    assert line["message"].startswith("channel layer: Redis unreachable (ConnectionError: Error")
    assert line["redis"] == "away" and line["request_id"] is None
    assert "Traceback" not in log.text


def test_other_errors_keep_their_line_and_traceback_during_an_outage(site_log):  # noqa: F811
    log = site_log(json_lines=True)
    receive_task_fails(redis.ConnectionError("Connection refused"), times=1)
    try:
        raise KeyError("not an outage")
    except KeyError:
        logging.getLogger(RECEIVE_TASK).exception("Unexpected exception in receive task")
    lines = log.records()
    assert [r["logger"] for r in lines] == ["momenta_site.channel_layer", RECEIVE_TASK]
    assert "KeyError: 'not an outage'" in lines[1]["traceback"]


@pytest.mark.django_db
def test_the_cache_says_once_that_redis_is_away(site_log, settings):  # noqa: F811
    log = site_log(json_lines=True)
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{free_port()}/0")
    for _ in range(3):
        assert cache.get("some-session") is None  # a miss, not an error
    (line,) = log.records()
    assert line["message"].startswith("cache: Redis unreachable") and line["redis"] == "away"


@pytest.mark.django_db
async def test_healthz_logs_when_its_answer_changes_not_at_each_probe(
    site_log,  # noqa: F811
    monkeypatch,
):
    log = site_log(json_lines=True)
    monkeypatch.setattr(health, "_last_failed", {})
    working = health.check_cache

    def cache_away():
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(health, "check_cache", cache_away)
    for _ in range(3):
        assert await health.failures() == {"cache": "unreachable"}
    monkeypatch.setattr(health, "check_cache", working)
    for _ in range(2):
        assert await health.failures() == {}
    away, back = [r["message"] for r in log.named("momenta_site.health")]
    assert (
        away
        == "healthz: cache unavailable: ConnectionError: Error 111 connecting to 127.0.0.1:6379"
    )
    assert back == "healthz: every dependency answers again"


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs a redis-server to stop")
async def test_a_stopped_and_restarted_redis_is_two_lines_from_the_channel_layer(
    site_log,  # noqa: F811
    tmp_path,
):
    log = site_log(json_lines=True)
    own = OwnRedis(tmp_path)
    own.start()
    layer = layer_on(own.url)
    admin = redis.asyncio.Redis(port=own.port)
    counted = []  # the receive task's own records, before the site's filter
    counter = logging.Handler()
    counter.emit = counted.append
    logging.getLogger(RECEIVE_TASK).addHandler(counter)
    try:
        channel = await layer.new_channel()
        await layer.group_add("table-7", channel)  # the receive task now reads Redis
        await layer.group_send("table-7", {"type": "table.event", "seq": 1})
        assert channel_layer_lines(log) == []

        own.stop()
        for _ in range(2):
            # A loaded machine may time the refused connect out instead.
            with pytest.raises((redis.ConnectionError, redis.TimeoutError)):
                await layer.group_send("table-7", {"type": "table.event", "seq": 2})
        async with asyncio.timeout(30):
            while len(counted) < 2:  # its traceback came every second
                await asyncio.sleep(0.2)

        own.start()
        group = "outage-log__group__table-7"
        async with asyncio.timeout(30):  # the receive task has subscribed again
            while (await admin.pubsub_numsub(group))[0][1] < 1:
                await asyncio.sleep(0.2)
        await layer.group_send("table-7", {"type": "table.event", "seq": 3})
        await layer.group_send("table-7", {"type": "table.event", "seq": 4})
        message = await asyncio.wait_for(layer.receive(channel), 10)
        assert message["type"] == "table.event"

        lines = channel_layer_lines(log)
        assert len(lines) == 2 and lines[1] == "channel layer: Redis answers again"
        assert lines[0].startswith("channel layer: Redis unreachable")
        assert "Traceback" not in log.text and len(counted) >= 2
    finally:
        logging.getLogger(RECEIVE_TASK).removeHandler(counter)
        await layer.flush()
        await admin.aclose()
        own.stop()

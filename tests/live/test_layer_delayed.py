"""Issue 39: with the channel layer (Redis) away, each open table page is told its live
updates are late ("layer" down), and when the layer answers again it is told so ("up"),
after the events the lost doorbells did not bring.

The outage is simulated as Redis gives it: the layer's group_send raises redis-py's
ConnectionError (the doorbell of a roll, then the hub's probe, fail).
"""

from __future__ import annotations

import html
import re

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.urls import reverse

from momenta_site.channel_layer import reachability
from tables.live import broadcast, fanout
from tables.models import Character

from .conftest import acommit_event
from .test_redis_outage import (  # noqa: F401 (fixtures)
    Browser,
    needs_stack,
    own_redis,
    read_until,
    roll_seqs,
    servers_on_own_redis,
)
from .test_two_processes import logged_in, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def layer_message(message: dict) -> bool:
    return message["type"] == "layer"


@pytest.fixture
def redis_away(monkeypatch):
    """away() makes the layer's group_send fail as a stopped Redis does; back() undoes it."""
    layer = get_channel_layer()
    working = layer.group_send
    # After a failed doorbell broadcast.py rings none for a second: not into the next test.
    monkeypatch.setattr(broadcast, "_quiet_until", 0.0)

    async def unreachable(*args, **kwargs):
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    class Outage:
        def away(self):
            monkeypatch.setattr(layer, "group_send", unreachable)

        def back(self):
            monkeypatch.setattr(layer, "group_send", working)

    return Outage()


async def test_a_page_is_told_when_the_layer_is_away_and_when_it_is_back(
    connect, momenta_campaign, gm, player, redis_away, monkeypatch
):
    socket, accepted, _ = await connect(player, momenta_campaign)
    assert accepted
    await socket.ready()

    redis_away.away()
    # A roll's doorbell fails: the page hears nothing of the roll, only that it is late.
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "while away"})
    assert await socket.until(layer_message) == {"type": "layer", "state": "down"}
    assert socket.seqs() == []

    # A heartbeat while away tries the layer; it still fails: no "up".
    await socket.sync()
    assert await socket.no_events()
    assert reachability.away

    redis_away.back()
    monkeypatch.setattr(reachability, "_probed_at", float("-inf"))  # the next probe is due
    await socket.communicator.send_json_to({"type": "ping"})
    assert await socket.until(layer_message) == {"type": "layer", "state": "up"}
    # The roll whose doorbell was lost came before the "up" (the hub read the head).
    assert socket.seqs() == [event.seq]


async def test_a_page_opened_while_the_layer_is_away_is_told_at_once(
    connect, momenta_campaign, gm, player, redis_away
):
    first, _, _ = await connect(gm, momenta_campaign)
    await first.ready()
    redis_away.away()
    await acommit_event(momenta_campaign.pk, gm, payload={"summary": "while away"})
    await first.until(layer_message)

    later, accepted, _ = await connect(player, momenta_campaign)
    assert accepted
    await later.ready()
    assert await later.until(layer_message) == {"type": "layer", "state": "down"}


async def test_while_the_layer_answers_no_layer_message_is_sent(
    connect, momenta_campaign, gm, player
):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    told = []

    def heard(kind):
        def found(message):
            told.append(message["type"])
            return message["type"] == kind

        return found

    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "live"})
    await socket.until(heard("event"))
    await socket.communicator.send_json_to({"type": "ping"})
    await socket.until(heard("pong"))
    assert "layer" not in told
    assert socket.seqs() == [event.seq]
    hub = fanout.hub_for(momenta_campaign.pk)
    assert hub is not None and hub._back is None
    assert not reachability.away


def test_the_delayed_words_are_in_the_page_in_the_readers_language(
    client, momenta_campaign, player
):
    client.force_login(player)
    page = client.get(
        reverse("table", args=[momenta_campaign.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    found = re.search(r'data-label-delayed="([^"]*)"', page)
    assert found and html.unescape(found.group(1)) == "Live-Aktualisierung verzögert"


# --- Two server processes and a Redis stopped and started again (CI's Redis run) ---


async def layer_told(socket, state: str, seen: list[int], bound: float = 45) -> None:
    """Read `socket` until it says the layer is `state`; the events' seqs on the way go
    to `seen`."""

    def told(message: dict) -> bool:
        if message["type"] == "event":
            seen.append(message["seq"])
        return message == {"type": "layer", "state": state}

    await read_until(socket, told, pinging=True, bound=bound)


@needs_stack
async def test_with_redis_stopped_a_page_on_another_process_is_told_and_told_again_when_back(
    own_redis,  # noqa: F811 (a fixture)
    servers_on_own_redis,  # noqa: F811 (a fixture)
    momenta_campaign,
    gm,
    player,
):
    hero = await sync_to_async(Character.objects.create)(
        campaign=momenta_campaign, owner=player, name="Iska"
    )
    await sync_to_async(hero.attributes.create)(name="WITS", value=3)
    gm_client, player_client = await sync_to_async(lambda: (logged_in(gm), logged_in(player)))()
    rolling, watching = servers_on_own_redis
    # The GM's page is on the process that rings no doorbell: it learns of the outage
    # from its own doorbell channel, and of Redis's return from its pages' heartbeats.
    page = await open_socket(
        watching, momenta_campaign, gm_client.cookies[django_settings.SESSION_COOKIE_NAME].value
    )
    seen: list[int] = []

    own_redis.stop()
    assert await Browser(rolling, player_client).roll(momenta_campaign, hero) == 200
    await layer_told(page, "down", seen)
    own_redis.start()
    await layer_told(page, "up", seen)
    assert seen == await sync_to_async(roll_seqs)(momenta_campaign)
    await page.close()

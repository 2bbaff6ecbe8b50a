"""TB-03: a player's socket says nothing at the moment something secret happens.

A frame sent when a GM rolls in secret, or changes hidden Threat (MO-13), would
tell players that something secret just happened. The socket sends nothing then;
the next event the player may see says which event it follows (`prev`), so the
page still knows it has missed nothing (TB-04).
"""

import pytest
from channels.db import database_sync_to_async

from rules.dice import FixedDice
from tables.live import render as live
from tables.models import TableEvent
from tables.services import d20 as services_d20
from tables.services import gm as services_gm

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)


def secret_roll(campaign, gm, kara):
    return services_d20.roll_d20_test(
        campaign.pk,
        gm,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=1, secret=True
        ),
        rng=FixedDice([2, 5]),
    ).event


def visible_seqs(campaign_id: int, after: int) -> list[int]:
    return list(
        TableEvent.objects.filter(
            campaign_id=campaign_id, seq__gt=after, audience=TableEvent.Audience.ALL
        )
        .order_by("seq")
        .values_list("seq", flat=True)
    )


async def test_tb_03_no_frame_reaches_a_player_when_a_secret_roll_or_hidden_threat_change_happens(
    connect, d20_campaign, gm, player, kara
):
    gm_socket, *_ = await connect(gm, d20_campaign)
    player_socket, *_ = await connect(player, d20_campaign)
    await gm_socket.ready()
    start = (await player_socket.ready())["seq"]

    roll = await database_sync_to_async(secret_roll)(d20_campaign, gm, kara)
    threat = await database_sync_to_async(services_gm.add_threat)(
        d20_campaign.pk, gm, 2, "Reinforcements arrive"
    )
    assert (roll.audience, threat.audience) == ("gm", "gm")  # Threat is hidden (MO-13)
    await gm_socket.until(lambda m: m.get("seq") == threat.seq)
    assert gm_socket.seqs() == [roll.seq, threat.seq]

    # Nothing at all for the player: no event, no cursor, at the moment or after.
    assert await player_socket.no_events()
    # Nor does its heartbeat's answer tell of them.
    assert await player_socket.sync() == start
    assert player_socket.stream == []

    # The next visible event brings the player level with the database.
    seen = await acommit_event(
        d20_campaign.pk,
        gm,
        payload={"summary": "The doors open"},
        changes=[("group_momentum", 1, "Spotted the patrol", None)],
    )
    message = await player_socket.until(lambda m: m.get("seq") == seen.seq)
    assert message["type"] == "event" and message["prev"] == start
    head = await database_sync_to_async(live.head_seq)(d20_campaign.pk)
    assert await player_socket.sync() == head == seen.seq
    assert player_socket.seqs() == await database_sync_to_async(visible_seqs)(
        d20_campaign.pk, start
    )
    sent = "".join(player_socket.html.values())
    assert "Reinforcements arrive" not in sent and "Communicate" not in sent


async def test_tb_04_a_page_reconnecting_across_hidden_events_neither_misses_nor_repeats(
    connect, d20_campaign, gm, player, kara
):
    socket, *_ = await connect(player, d20_campaign)
    start = (await socket.ready())["seq"]
    await socket.close()
    await database_sync_to_async(secret_roll)(d20_campaign, gm, kara)
    seen = await acommit_event(d20_campaign.pk, gm, payload={"summary": "open"})
    await database_sync_to_async(services_gm.add_threat)(d20_campaign.pk, gm, 1, "Later")

    # Back from before the secret: only the visible event, once, covering the secret.
    socket, *_ = await connect(player, d20_campaign, after=start)
    ready = await socket.ready()
    assert socket.seqs() == [seen.seq] and socket.prev[seen.seq] == start
    # The hidden Threat change at the end is not announced, not even by `ready`.
    assert ready["seq"] == seen.seq
    await socket.close()

    # Back from the visible event: nothing again.
    socket, *_ = await connect(player, d20_campaign, after=seen.seq)
    assert (await socket.ready())["seq"] == seen.seq
    assert await socket.no_events() and socket.stream == []
    later = await acommit_event(d20_campaign.pk, gm, payload={"summary": "next"})
    await socket.until(lambda m: m.get("seq") == later.seq)
    assert socket.seqs() == [later.seq] and socket.prev[later.seq] == seen.seq

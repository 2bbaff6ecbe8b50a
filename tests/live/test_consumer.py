"""The table socket: who may connect, what each audience receives, order and catch-up.

TB-01 every roll and pool change reaches every member live, in order.
TB-03 a secret roll reaches GMs only until revealed.
TB-04 a reconnecting browser receives everything it missed, in order, once.
"""

import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from tables.live import fanout, presence
from tables.live import render as live
from tables.live.broadcast import group_name
from tables.models import Character, Membership

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)


def pool_value(html: str, pool: str) -> str:
    """The value a pool widget (not a log line) shows, or "" if the widget is absent."""
    match = re.search(
        rf'<div class="pool[^"]*" data-pool="{pool}">.*?"pool-value">(\d+)<', html, re.S
    )
    return match.group(1) if match else ""


async def test_tb_01_three_members_receive_each_roll_and_its_pool_changes_in_order(
    connect, d20_campaign, gm, player, observer
):
    hero = await database_sync_to_async(Character.objects.create)(
        campaign=d20_campaign, owner=player, name="Paul", determination=1
    )
    sockets = []
    for user in (gm, player, observer):
        socket, accepted, _ = await connect(user, d20_campaign)
        assert accepted
        await socket.ready()
        sockets.append(socket)

    first = await acommit_event(
        d20_campaign.pk,
        player,
        payload={"summary": "Paul rolls Stealth"},
        changes=[("group_momentum", 2, "2 successes beyond the Difficulty (MO-01)", None)],
    )
    second = await acommit_event(
        d20_campaign.pk,
        player,
        payload={"summary": "Paul rolls Athletics"},
        changes=[
            ("group_momentum", 5, "Unspent Momentum saved (MO-04)", None),
            ("threat", 1, "Bought a d20 with Threat (MO-08)", None),
            ("determination", -1, "Reroll (T-04)", hero),
        ],
    )

    for socket in sockets:
        await socket.until(lambda m, s=second.seq: m.get("seq") == s)
        assert socket.seqs() == [first.seq, second.seq], socket.name
        html = socket.html[second.seq]
        assert 'hx-swap-oob="afterbegin:#roll-log"' in html
        assert f'data-seq="{second.seq}"' in html
        assert "Paul rolls Athletics" in html
        # Pools and the affected card come along, already updated.
        assert pool_value(html, "group_momentum") == "6"
        assert pool_value(html, "determination") == "0"
        assert f'id="character-{hero.pk}" data-character-id="{hero.pk}" hx-swap-oob="true"' in html
        # Every change with its reason, and what the cap cost (MO-06).
        # The reasons in words, each rule's ID in its marker's title (issue 14), for
        # the GM; players and observers get no marker by default (issue 37).
        marker = (
            '<a class="rule-ref" href="/rules/#{0}" target="_blank" rel="noopener" '
            'aria-label="Rule {0}"'
        )
        assert "(1 lost)" in html
        if socket is sockets[0]:
            assert "Unspent Momentum saved" + marker.format("MO-04") in html
            assert "Reroll" + marker.format("T-04") in html
        else:
            assert "Unspent Momentum saved<" in html and "Reroll<" in html
            assert 'class="rule-ref"' not in html and "MO-04" not in html

    gm_html = sockets[0].html[second.seq]
    assert pool_value(gm_html, "threat") == "1"
    assert re.search(r'data-pool="threat">.*?→ 1<', gm_html)
    for socket in sockets[1:]:
        # Threat is the GM's pool (MO-13): players see the change, not the total.
        html = socket.html[second.seq]
        assert pool_value(html, "threat") == ""
        threat_line = re.search(r'<li class="change" data-pool="threat">.*?</li>', html, re.S)
        assert "+1" in threat_line.group(0) and "→" not in threat_line.group(0)


async def test_tb_03_secret_roll_reaches_only_gm_sockets_until_revealed(
    connect, momenta_campaign, gm, cogm, player, observer
):
    sockets = {}
    for user in (gm, cogm, player, observer):
        socket, accepted, _ = await connect(user, momenta_campaign)
        assert accepted
        await socket.ready()
        sockets[user.username] = socket

    secret = await acommit_event(
        momenta_campaign.pk,
        gm,
        "secret_roll",
        audience="gm",
        payload={"summary": "The ambush is 3 successes strong"},
    )
    for name in ("gm", "cogm"):
        message = await sockets[name].until(lambda m: m.get("seq") == secret.seq)
        assert message["type"] == "event"
        assert "The ambush is 3 successes strong" in message["html"]
    for name in ("player", "observer"):
        # Not even a cursor: a frame now would say that something secret happened.
        assert await sockets[name].no_events()

    reveal = await acommit_event(
        momenta_campaign.pk,
        gm,
        # The reveal's own payload is the roll's (payloads.RollRevealed); words serve here.
        "note",
        payload={"summary": "Revealed: the ambush is 3 successes strong"},
    )
    for socket in sockets.values():
        message = await socket.until(lambda m: m.get("seq") == reveal.seq)
        assert message["type"] == "event"
        assert "Revealed: the ambush" in message["html"]
    for name in ("player", "observer"):
        sent = "".join(sockets[name].html.values())
        assert "The ambush is 3 successes strong" not in sent
        assert sockets[name].stream == [("event", reveal.seq)]
        # The reveal covers the secret: the page knows it misses nothing.
        assert sockets[name].prev[reveal.seq] == secret.seq - 1


async def test_tb_04_socket_away_for_50_events_gets_all_of_them_once_in_order(
    connect, momenta_campaign, gm, player, hero
):
    socket, _, _ = await connect(player, momenta_campaign)
    left_at = (await socket.ready())["seq"]
    await socket.close()

    for n in range(50):
        # Every seventh is the GM's secret: the player's cursor passes it by.
        audience = "gm" if n % 7 == 3 else "all"
        await acommit_event(
            momenta_campaign.pk,
            gm,
            payload={"summary": f"roll {n}"},
            audience=audience,
            changes=[("resolve", -1 if n % 2 else 1, f"roll {n}", hero)],
        )

    socket, accepted, _ = await connect(player, momenta_campaign, after=left_at)
    assert accepted
    ready = await socket.ready()
    hidden = [left_at + 1 + n for n in range(50) if n % 7 == 3]
    expected = [seq for seq in range(left_at + 1, left_at + 51) if seq not in hidden]
    assert ready["seq"] == expected[-1]
    assert socket.seqs() == expected  # every seq it may see, once, in order
    assert socket.chained_from(left_at)  # and each says the hidden ones are not for it
    for seq in socket.seqs("event"):
        assert f'data-seq="{seq}"' in socket.html[seq]

    # Then live again, still once each.
    later = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "after"})
    await socket.until(lambda m: m.get("seq") == later.seq)
    assert await socket.sync() == later.seq
    assert socket.seqs() == [*expected, later.seq]


async def test_tb_04_cursor_can_come_as_first_message_instead_of_query_string(
    connect, momenta_campaign, gm, player
):
    events = [
        await acommit_event(momenta_campaign.pk, gm, payload={"summary": f"event {n}"})
        for n in range(3)
    ]
    socket, _, _ = await connect(player, momenta_campaign)  # no ?after: live from the head
    await socket.ready()
    assert socket.seqs() == []
    await socket.communicator.send_json_to({"type": "resync", "after": events[0].seq})
    await socket.ready()
    assert socket.seqs() == [events[1].seq, events[2].seq]


async def test_tb_04_consumer_fills_gaps_and_ignores_stale_doorbells(
    connect, momenta_campaign, gm, player, monkeypatch
):
    socket, _, _ = await connect(player, momenta_campaign)
    start = (await socket.ready())["seq"]
    # Three events whose doorbells are all lost.
    monkeypatch.setattr("tables.live.broadcast.get_channel_layer", lambda: None)
    events = [
        await acommit_event(momenta_campaign.pk, gm, payload={"summary": f"event {n}"})
        for n in range(3)
    ]
    assert await socket.no_events()

    layer = get_channel_layer()
    group = group_name(momenta_campaign.pk)
    # Only the doorbell of the last one comes: the socket reads the rest from the DB.
    await layer.group_send(group, {"type": "table.event", "seq": events[-1].seq})
    await socket.until(lambda m: m.get("seq") == events[-1].seq)
    assert socket.seqs() == [start + 1, start + 2, start + 3]

    # Late and repeated doorbells change nothing.
    for event in events:
        await layer.group_send(group, {"type": "table.event", "seq": event.seq})
    await socket.sync()
    assert socket.seqs() == [start + 1, start + 2, start + 3]


async def test_heartbeat_catches_up_when_the_last_doorbell_is_lost(
    connect, momenta_campaign, gm, player, monkeypatch
):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    monkeypatch.setattr("tables.live.broadcast.get_channel_layer", lambda: None)
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "event 1"})
    assert await socket.no_events()
    # Within HEAD_CHECK_S of the last look at the head, a heartbeat reads nothing...
    assert await socket.sync() == event.seq - 1
    # ...after it, the heartbeat compares with the database and catches up.
    monkeypatch.setattr(fanout, "HEAD_CHECK_S", 0.0)
    assert await socket.sync() == event.seq
    assert socket.seqs() == [event.seq]


async def test_event_is_rendered_once_per_audience_however_many_sockets(
    connect, momenta_campaign, gm, cogm, player, player2, observer, monkeypatch
):
    renders, reads = [], []
    draw, event_rows = live.draw, live.event_rows

    def counting_draw(event, audience, rows):
        renders.append((event.seq, audience))
        return draw(event, audience, rows)

    def counting_rows(event, *held):
        reads.append(event.seq)
        return event_rows(event, *held)

    monkeypatch.setattr(live, "draw", counting_draw)
    monkeypatch.setattr(live, "event_rows", counting_rows)
    sockets = []
    for user in (gm, cogm, player, player2, observer):
        socket, _, _ = await connect(user, momenta_campaign)
        await socket.ready()
        sockets.append(socket)
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "one roll"})
    for socket in sockets:
        await socket.until(lambda m: m.get("seq") == event.seq)
    assert sorted(renders) == [(event.seq, "all"), (event.seq, "gm")]
    assert reads == [event.seq]  # what the event shows is read once for both


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
async def test_non_members_and_anonymous_users_are_refused(
    connect, momenta_campaign, outsider, who
):
    user = outsider if who == "outsider" else None
    _, accepted, _ = await connect(user, momenta_campaign)
    assert not accepted


async def test_foreign_origin_is_refused(connect, momenta_campaign, player):
    _, accepted, _ = await connect(player, momenta_campaign, origin=b"http://evil.example")
    assert not accepted
    _, accepted, _ = await connect(player, momenta_campaign, origin=None)
    assert not accepted


async def test_unknown_campaign_is_refused(connect, momenta_campaign, gm):
    _, accepted, _ = await connect(gm, 999_999)
    assert not accepted


async def test_removed_member_gets_the_event_then_the_socket_closes(
    connect, momenta_campaign, gm, player
):
    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()

    def remove():
        Membership.objects.filter(campaign=momenta_campaign, user=player).delete()

    await database_sync_to_async(remove)()
    event = await acommit_event(
        momenta_campaign.pk,
        gm,
        "member_removed",
        payload={"user": "player", "user_id": player.pk, "role": "player"},
    )
    await socket.until(lambda m: m.get("seq") == event.seq)
    closing = await socket.communicator.receive_output(timeout=5)
    while closing["type"] != "websocket.close":
        closing = await socket.communicator.receive_output(timeout=5)
    assert closing["code"] == 4403


def present_users(html: str) -> dict[str, int]:
    return {
        name: int(count)
        for name, count in re.findall(r'data-user="([^"]+)" data-sockets="(\d+)"', html)
    }


async def test_presence_counts_open_sockets_per_user(connect, momenta_campaign, gm, player):
    await presence.store().clear(momenta_campaign.pk)
    watcher, _, _ = await connect(gm, momenta_campaign)
    await watcher.ready()

    async def roster_seen() -> dict[str, int]:
        await watcher.sync()  # a heartbeat is answered with the current roster
        message = await watcher.until(lambda m: m["type"] == "presence")
        return present_users(message["html"])

    assert await roster_seen() == {"gm": 1}
    tab1, _, _ = await connect(player, momenta_campaign)
    tab2, _, _ = await connect(player, momenta_campaign)
    await tab1.ready()
    await tab2.ready()
    assert await roster_seen() == {"gm": 1, "player": 2}
    # Changes are pushed to everyone at once, not only answered on heartbeat.
    both = {"gm": 1, "player": 2}
    await tab1.until(lambda m: m["type"] == "presence" and present_users(m["html"]) == both)

    await tab1.close()
    assert await roster_seen() == {"gm": 1, "player": 1}
    await tab2.until(
        lambda m: m["type"] == "presence" and present_users(m["html"]) == {"gm": 1, "player": 1}
    )
    await tab2.close()
    assert await roster_seen() == {"gm": 1}


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis stack's timeouts")
async def test_an_idle_socket_on_redis_outlives_the_client_timeouts(
    connect, momenta_campaign, gm, player
):
    """Nothing may close a quiet socket: not redis-py's 5 s socket timeout, not a 5 s pop."""
    import asyncio

    socket, _, _ = await connect(player, momenta_campaign)
    await socket.ready()
    await asyncio.sleep(13)  # past 5 s timeouts, twice
    assert await socket.no_events(wait=0.2)  # presence may come; a close would raise
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "after the lull"})
    await socket.until(lambda m: m.get("seq") == event.seq)

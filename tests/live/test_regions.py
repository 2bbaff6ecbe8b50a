"""Every region an event's registry entry names is pushed, for each audience (issue 10).

The GM tools (Threat heading, Assist queue, secret tests) reach GM sockets only; a
per-person region (a viewer's open tests, their spend panel) is never rendered into a
push: a marker makes a page whose copy is older than the event fetch its own.
"""

import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from rules.dice import FixedDice
from tables.services import d20 as services_d20
from tables.services import momenta

pytestmark = pytest.mark.django_db(transaction=True)


def fragment(html: str, element_id: str) -> str:
    """The pushed out-of-band element with this id ('' if the push has none)."""
    found = re.search(
        rf'<(\w+)[^>]* id="{element_id}"[^>]*hx-swap-oob="true"[^>]*>.*?</\1>', html, re.S
    )
    return found.group(0) if found else ""


def buy_a_d20_with_threat(campaign, player, kara):
    """Kara's test with one d20 bought by adding 1 to Threat (MO-08)."""
    return services_d20.roll_d20_test(
        campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power",
            skill="Communicate",
            focus="Persuasion",
            difficulty=1,
            bought_dice=1,
            buy_from_momentum=0,
        ),
        rng=FixedDice([2, 5, 19]),
    )


async def test_a_players_test_refreshes_the_gm_tools_threat_heading_on_gm_sockets_only(
    connect, d20_campaign, gm, player, kara
):
    gm_socket, *_ = await connect(gm, d20_campaign)
    player_socket, *_ = await connect(player, d20_campaign)
    await gm_socket.ready()
    await player_socket.ready()

    test = await database_sync_to_async(buy_a_d20_with_threat)(d20_campaign, player, kara)
    seq = test.event.seq
    await gm_socket.until(lambda m: m.get("seq") == seq)
    await player_socket.until(lambda m: m.get("seq") == seq)

    gm_html, player_html = gm_socket.html[seq], player_socket.html[seq]
    heading = fragment(gm_html, "gm-threat-heading")
    assert 'class="gm-threat">1<' in heading and "hidden from players" in heading
    # The Threat form's `expected` follows, so the GM's next spend is checked against it.
    assert 'id="gm-threat-expected" name="expected" value="1" hx-swap-oob="true"' in gm_html
    # A public test outside a contest changes neither list: neither is drawn (gm_parts.py;
    # tests/live/test_gm_push_parts.py shows each is drawn when its event changes it).
    assert fragment(gm_html, "gm-open-contests") == ""
    assert fragment(gm_html, "gm-secret-tests") == ""
    # Threat is hidden (MO-13) and the GM tools are the GM's: none of it for players.
    for gm_only in ("gm-threat", "gm-open-contests", "gm-secret-tests", "gm-custom-spends"):
        assert gm_only not in player_html


async def test_a_secret_test_lists_in_the_gm_tools_and_never_reaches_a_player(
    connect, d20_campaign, gm, player, kara
):
    gm_socket, *_ = await connect(gm, d20_campaign)
    player_socket, *_ = await connect(player, d20_campaign)
    await gm_socket.ready()
    await player_socket.ready()

    def secret_roll():
        return services_d20.roll_d20_test(
            d20_campaign.pk,
            gm,
            kara.pk,
            services_d20.D20TestRequest(
                attribute="Power", skill="Communicate", difficulty=1, secret=True
            ),
            rng=FixedDice([2, 5]),
        )

    test = await database_sync_to_async(secret_roll)()
    seq = test.event.seq
    await gm_socket.until(lambda m: m.get("seq") == seq)
    secret_list = fragment(gm_socket.html[seq], "gm-secret-tests")
    assert "Secret rolls (1)" in secret_list and "Kara" in secret_list and "secret" in secret_list
    # Nothing at all reaches the player, not even that something happened (TB-03).
    assert await player_socket.no_events() and seq not in player_socket.html


async def test_a_players_test_asks_each_page_to_fetch_its_own_open_tests(
    connect, d20_campaign, gm, player, player2, kara
):
    player_socket, *_ = await connect(player, d20_campaign)
    other_socket, *_ = await connect(player2, d20_campaign)
    await player_socket.ready()
    await other_socket.ready()
    test = await database_sync_to_async(buy_a_d20_with_threat)(d20_campaign, player, kara)
    seq = test.event.seq
    await player_socket.until(lambda m: m.get("seq") == seq)
    await other_socket.until(lambda m: m.get("seq") == seq)
    # One render for the audience: the same marker for both, no one's list in it.
    html = player_socket.html[seq]
    assert html == other_socket.html[seq]
    marker = fragment(html, "live-sync-open-tests")
    url = reverse("d20_open_tests", args=[d20_campaign.pk])
    assert f'hx-get="{url}"' in marker and f"dataset.seq < {seq}]" in marker
    assert 'id="d20-open-tests"' not in html


def test_the_open_tests_region_is_the_viewers_own_and_says_how_new_it_is(
    client, d20_campaign, player, player2, kara
):
    test = buy_a_d20_with_threat(d20_campaign, player, kara)
    url = reverse("d20_open_tests", args=[d20_campaign.pk])
    client.force_login(player)
    mine = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert f'data-seq="{test.event.seq}"' in mine and "Kara" in mine
    client.force_login(player2)
    theirs = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="d20-open-tests"' in theirs and "Kara" not in theirs


async def test_an_assist_asked_refreshes_the_gm_assist_queue_on_gm_sockets_only(
    connect, momenta_campaign, gm, player, player2, hero, sidekick
):
    gm_socket, *_ = await connect(gm, momenta_campaign)
    player_socket, *_ = await connect(player, momenta_campaign)
    await gm_socket.ready()
    await player_socket.ready()

    assist = await database_sync_to_async(momenta.request_assist)(
        momenta_campaign.pk, player2, hero.pk, sidekick.pk
    )
    seq = assist.event.seq
    await gm_socket.until(lambda m: m.get("seq") == seq)
    await player_socket.until(lambda m: m.get("seq") == seq)
    queue = fragment(gm_socket.html[seq], "momenta-assist-queue")
    assert "Assists (1)" in queue and "Bo → Ash" in queue and ">Accept<" in queue
    assert "momenta-assist-queue" not in player_socket.html[seq]

    answered = await database_sync_to_async(momenta.answer_assist)(
        momenta_campaign.pk, gm, assist.pk, "accept"
    )
    seq = answered.event.seq
    await gm_socket.until(lambda m: m.get("seq") == seq)
    queue = fragment(gm_socket.html[seq], "momenta-assist-queue")
    assert "Bo → Ash: Accepted" in queue and ">Accept<" not in queue

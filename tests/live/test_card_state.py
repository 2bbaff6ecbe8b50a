"""Log cards show their play record as it is *now*: on reload, and by live push when a
later event changes it (docs/live.md, "Cards that change after the event").

A 2d20 test's card follows its spends, refunds, vetoes and resolution; a Momenta
roll's card its patterns and its reveal; an Assist's cards the answers it got.
"""

import re

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import frames
from tables.live import render as live
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services import momenta
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db


def page(client, user, campaign) -> str:
    client.force_login(user)
    response = client.get(reverse("table", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def card(html: str, seq: int) -> str:
    """The log entry #seq of a page or a pushed fragment (up to the next entry)."""
    start = html.index(f'id="event-{seq}"')
    ends = [
        i for i in (html.find('<li class="log-entry', start), html.find("</ol>", start)) if i > 0
    ]
    return html[start : min(ends, default=len(html))]


def pushed_state(html: str, attribute: str, pk: int) -> str:
    """The out-of-band copy of a card's state block in a pushed fragment ('' if none)."""
    found = re.search(
        rf"<[a-z]+ [^>]*{attribute}=\"{pk}\" hx-swap-oob=\"outerHTML:\[{attribute}='{pk}'\]\".*?"
        r"</div>",
        html,
        re.S,
    )
    return found.group(0) if found else ""


# --- 2d20 tests ---------------------------------------------------------------------------


@pytest.fixture
def kara_test(d20_campaign, player, kara):
    """Kara's test: 2 and 5 with her focus, 4 successes against Difficulty 1, 3 Momentum."""
    return services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=1
        ),
        rng=FixedDice([2, 5]),
    )


def test_a_d20_tests_card_shows_its_spends_refunds_and_resolution_on_reload(
    client, d20_campaign, gm, player, player2, kara_test
):
    test, seq = kara_test, kara_test.event.seq
    html = card(page(client, player2, d20_campaign), seq)
    assert f'data-d20-test="{test.pk}"' in html and "Kara has <strong>3</strong> Momentum" in html
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "obtain_information")
    services_d20.refund_dont_know(d20_campaign.pk, gm, test.pk, 0)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_trait", note="Loyal")
    html = card(page(client, player2, d20_campaign), seq)
    assert "Obtain Information (1)" in html
    assert "refunded: the answer was “you don&#x27;t know”" in html
    assert "Create Trait (2) “Loyal”" in html and "Kara has <strong>1</strong> Momentum" in html
    services_d20.resolve_test(d20_campaign.pk, player, test.pk)
    html = card(page(client, player2, d20_campaign), seq)
    assert "<strong>Done.</strong> Kara's Momentum: 1 saved to the group pool." in html
    assert "Momentum to spend" not in html


@pytest.mark.parametrize("audience", ["all", "gm"])
def test_later_events_about_a_test_push_its_card_and_nudge_its_spend_panels(
    d20_campaign, gm, player, kara_test, audience
):
    test = kara_test
    spend = services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "obtain_information")
    html = live.render_event_fragments(spend, audience)
    state = pushed_state(html, "data-d20-test", test.pk)
    assert "Obtain Information (1)" in state and "Kara has <strong>2</strong> Momentum" in state
    # The spend panel has one person's controls: never pushed, it fetches itself again
    # when it shows this test and is older than the event.
    panel_url = reverse("d20_panel", args=[d20_campaign.pk, test.pk])
    sync = html[html.index('<span id="d20-panel-sync"') :]
    assert 'hx-swap-oob="true"' in sync and f'hx-get="{panel_url}"' in sync
    assert f".spend-panel--test-{test.pk}')" in sync and f"dataset.seq < {spend.seq}]" in sync
    veto = services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0, "Not now")
    state = pushed_state(live.render_event_fragments(veto, audience), "data-d20-test", test.pk)
    assert "refunded: vetoed by the GM: Not now" in state
    assert "Kara has <strong>3</strong> Momentum" in state
    done = services_d20.resolve_test(d20_campaign.pk, player, test.pk)
    state = pushed_state(live.render_event_fragments(done, audience), "data-d20-test", test.pk)
    assert "Done." in state


def test_the_spend_panel_says_how_new_it_is(client, d20_campaign, player, kara_test):
    client.force_login(player)
    url = reverse("d20_panel", args=[d20_campaign.pk, kara_test.pk])
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    d20_campaign.refresh_from_db()
    assert f'class="spend-panel spend-panel--test-{kara_test.pk}"' in html
    assert f'data-seq="{d20_campaign.last_seq}"' in html
    table = page(client, player, d20_campaign)
    assert '<span id="d20-panel-sync" hidden></span>' in table


def test_tb_03_a_secret_tests_later_events_push_nothing_to_players(d20_campaign, gm, kara):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=1, secret=True
        ),
        rng=FixedDice([2, 5]),
    )
    spend = services_d20.spend_momentum(d20_campaign.pk, gm, test.pk, "obtain_information")
    replay = {
        seq: html for seq, _, html in frames.events_after(d20_campaign.pk, 0, "all", viewer=None)
    }
    assert replay[test.event.seq] is None and replay[spend.seq] is None
    revealed = services_gm.reveal_test(d20_campaign.pk, gm, test.pk)
    html = live.render_event_fragments(revealed, "all")
    # Players never saw the secret card: the revealed one carries the test's state.
    assert "Obtain Information (1)" in card(html, revealed.seq)


# --- Momenta rolls ----------------------------------------------------------------------


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm):
    from tables.services import sessions

    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


def test_a_momenta_rolls_card_follows_its_patterns_live_and_on_reload(
    client, table, player, player2, hero
):
    made = momenta.roll_momenta(
        table.pk, player, hero.pk, RollRequest(attribute="WITS"), rng=FixedDice([5, 5, 1, 2])
    )
    seq = made.event.seq
    assert "Waiting for Ash's pattern choice." in card(page(client, player2, table), seq)
    chosen = momenta.choose_allocation(table.pk, player, made.pk, None)
    state = pushed_state(live.render_event_fragments(chosen, "all"), "data-momenta-roll", made.pk)
    assert f"Patterns chosen in #{chosen.seq}: Double 5 (Extra Success)" in state
    assert "Waiting for" not in state
    html = card(page(client, player2, table), seq)
    assert f"Patterns chosen in #{chosen.seq}" in html and "Waiting for" not in html


def test_tb_03_a_revealed_rolls_gm_card_loses_its_reveal_button(client, table, gm, player, hero):
    made = momenta.roll_momenta(
        table.pk,
        gm,
        hero.pk,
        RollRequest(attribute="WITS", secret=True),
        rng=FixedDice([1, 2, 3, 4]),
    )
    assert "Reveal to the table" in card(page(client, gm, table), made.event.seq)
    revealed = momenta.reveal_roll(table.pk, gm, made.pk)
    for audience in ("gm", "all"):
        html = live.render_event_fragments(revealed, audience)
        assert f"outerHTML:[data-momenta-roll='{made.pk}']" in html
        assert "Reveal to the table" not in html
    assert "Reveal to the table" not in card(page(client, gm, table), made.event.seq)


# --- Assists ----------------------------------------------------------------------------


def answer_url(campaign, assist) -> str:
    return reverse("momenta_assist_answer", args=[campaign.pk, assist.pk])


def test_an_assists_card_loses_its_answers_once_answered_live_and_on_reload(
    client, table, gm, player, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    seq = assist.event.seq
    gm_card = card(page(client, gm, table), seq)
    assert answer_url(table, assist) in gm_card and ">Accept</button>" in gm_card
    assert "Waiting for the GM." in card(page(client, player, table), seq)
    called = momenta.answer_assist(table.pk, gm, assist.pk, "call_test").event
    html = live.render_event_fragments(called, "gm")
    request = pushed_state(html, "data-assist-request", assist.pk)
    assert ">Accept</button>" not in request and "Now: Accepted · test called." in request
    # The called test's own card carries the result buttons, until the result is in.
    assert ">Test passed</button>" in card(html, called.seq)
    assert ">Accept</button>" not in card(page(client, gm, table), seq)
    passed = momenta.answer_assist(table.pk, gm, assist.pk, "test_passed").event
    html = live.render_event_fragments(passed, "gm")
    assert "Now: Accepted · test passed." in pushed_state(html, "data-assist-test", assist.pk)
    gm_page = page(client, gm, table)
    assert answer_url(table, assist) not in card(gm_page, seq)
    assert answer_url(table, assist) not in card(gm_page, called.seq)
    # Using the Assist on a roll tells its cards too.
    used = momenta.roll_momenta(
        table.pk, player, hero.pk, RollRequest(attribute="WITS", assist_id=assist.pk),
        rng=FixedDice([1, 2, 3, 4, 6]),
    )  # fmt: skip
    html = live.render_event_fragments(used.event, "all")
    assert "Now: Used · test passed." in pushed_state(html, "data-assist-request", assist.pk)

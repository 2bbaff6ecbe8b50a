"""The table page: the first render of what the socket later pushes (same partials)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import render as live
from tables.models import PersonSettings, TableEvent
from tables.services import d20 as services_d20
from tables.services import momenta, sessions

from .conftest import commit_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_url(momenta_campaign):
    return reverse("table", args=[momenta_campaign.pk])


def page_for(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def log_seqs(html: str) -> list[int]:
    log = html[html.index('id="roll-log"') :]
    return [
        int(s)
        for s in re.findall(r'<li class="log-entry[^"]*" id="event-\d+" data-seq="(\d+)"', log)
    ]


def test_members_see_characters_pools_log_presence_and_status(
    client, table_url, momenta_campaign, gm, player, observer, hero, sidekick
):
    commit_event(momenta_campaign.pk, gm, "note", payload={"text": "Welcome aboard"})
    for user in (gm, player, observer):
        html = page_for(client, user, table_url)
        assert f'id="character-{hero.pk}"' in html and f'id="character-{sidekick.pk}"' in html
        assert 'id="pools"' in html and 'id="presence"' in html and 'id="live-status"' in html
        assert 'id="roll-log"' in html and "Welcome aboard" in html
        assert f'data-ws-path="/ws/campaigns/{momenta_campaign.pk}/"' in html
        assert 'data-last-seq="1"' in html
        assert 'id="composer"' in html


def test_outsiders_are_forbidden_and_anonymous_users_sent_to_log_in(client, table_url, outsider):
    assert client.get(table_url).status_code == 302
    client.force_login(outsider)
    assert client.get(table_url).status_code == 403


def test_tb_03_players_never_see_gm_only_events_in_the_page(
    client, table_url, momenta_campaign, gm, cogm, player, observer
):
    commit_event(momenta_campaign.pk, gm, payload={"summary": "open roll"})
    commit_event(
        momenta_campaign.pk, gm, "secret_roll", audience="gm", payload={"summary": "hidden ambush"}
    )
    commit_event(momenta_campaign.pk, gm, payload={"summary": "another open roll"})
    for user in (player, observer):
        html = page_for(client, user, table_url)
        assert "hidden ambush" not in html
        assert log_seqs(html) == [3, 1]
        # The cursor still covers the hidden event: the socket must not replay it.
        assert 'data-last-seq="3"' in html
    for user in (gm, cogm):
        html = page_for(client, user, table_url)
        assert "hidden ambush" in html and "GM only" in html
        assert log_seqs(html) == [3, 2, 1]


def test_threat_is_shown_to_players_only_when_the_gm_shows_it(client, d20_campaign, gm, player):
    url = reverse("table", args=[d20_campaign.pk])
    commit_event(d20_campaign.pk, gm, changes=[("threat", 4, "ambush", None)])
    assert 'data-pool="threat"' in page_for(client, gm, url)
    assert 'data-pool="threat"' not in page_for(client, player, url).split('id="roll-log"')[0]
    d20_campaign.threat_visible = True
    d20_campaign.save()
    assert 'data-pool="threat"' in page_for(client, player, url).split('id="roll-log"')[0]


def test_log_shows_newest_first_with_every_pool_change(
    client, table_url, momenta_campaign, gm, player, hero
):
    commit_event(momenta_campaign.pk, gm, changes=[("momentum", 3, "Disadvantage (PM-02)", hero)])
    commit_event(momenta_campaign.pk, gm, changes=[("resolve", -2, "Spent on a roll", hero)])
    # The player asked for the rules' § marks (issue 37; off for players by default).
    PersonSettings.objects.create(user=player, rule_marks="on")
    html = page_for(client, player, table_url)
    assert log_seqs(html) == [2, 1]
    assert (
        '<span class="change-who">Ash</span> <span class="change-pool">Momentum</span> '
        '<span class="change-delta change-delta--pos">+3</span> '
        '<span class="change-after">→ 6</span>'
    ) in html
    # The reason in words, its rule's ID in the marker's title (issue 14).
    assert (
        'Disadvantage<a class="rule-ref" href="/rules/#PM-02" target="_blank" '
        'rel="noopener" aria-label="Rule PM-02"'
    ) in html
    assert "Spent on a roll" in html and "-2" in html


def legacy_event(campaign, kind: str, payload: dict) -> TableEvent:
    """A stored row of a kind the registry does not know (written before it, or by hand)."""
    campaign.refresh_from_db()
    seq = campaign.last_seq + 1
    type(campaign).objects.filter(pk=campaign.pk).update(last_seq=seq)
    return TableEvent.objects.create(campaign=campaign, seq=seq, kind=kind, payload=payload)


def test_event_kinds_use_their_own_template_or_the_generic_one(momenta_campaign, gm):
    note = commit_event(momenta_campaign.pk, gm, "note", payload={"text": "Line one\nline two"})
    other = legacy_event(momenta_campaign, "mystery_kind", {"clue": "red"})
    note_html = live.render_event_fragments(note, "all")
    assert '<blockquote class="log-note">Line one<br>line two</blockquote>' in note_html
    other_html = live.render_event_fragments(other, "all")
    assert "Mystery kind" in other_html and "clue: red" in other_html


def test_a_stored_kind_the_registry_does_not_know_names_no_template(momenta_campaign, gm):
    event = legacy_event(momenta_campaign, "../../base", {"text": "x"})
    entry = live.log_entry(event, momenta_campaign, "all")
    assert entry.templates == ("tables/partials/events/generic.html",)
    html = live.render_event_fragments(event, "all")
    assert f'id="event-{event.seq}"' in html and "x" in html


def test_pushed_fragments_are_out_of_band_swaps_carrying_the_seq(momenta_campaign, gm, hero):
    event = commit_event(momenta_campaign.pk, gm, changes=[("resolve", -1, "spent", hero)])
    html = live.render_event_fragments(event, "all")
    assert re.match(r'\s*<div hx-swap-oob="afterbegin:#roll-log">\s*<li ', html)
    assert f'id="event-{event.seq}" data-seq="{event.seq}"' in html
    assert f'<section id="pools" class="pools" hx-swap-oob="true" data-seq="{event.seq}"' in html
    assert (
        f'hx-swap-oob="true" data-seq="{event.seq}"' in html.split(f'id="character-{hero.pk}"')[1]
    )


def test_gm_posts_a_note_and_the_answer_carries_the_entry(client, momenta_campaign, gm):
    client.force_login(gm)
    url = reverse("table_note", args=[momenta_campaign.pk])
    response = client.post(url, {"text": "Night falls"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="note-form"' in body and "Night falls" in body
    assert 'hx-swap-oob="afterbegin:#roll-log"' in body
    event = TableEvent.objects.get(campaign=momenta_campaign, kind="note")
    assert event.payload == {"text": "Night falls", "changes": []} and event.actor == gm


def test_note_without_htmx_redirects_back_to_the_table(client, momenta_campaign, gm, table_url):
    client.force_login(gm)
    response = client.post(reverse("table_note", args=[momenta_campaign.pk]), {"text": "Hi"})
    assert response.status_code == 302 and response.url == table_url


def test_empty_note_is_refused_with_a_message_and_changes_nothing(client, momenta_campaign, gm):
    client.force_login(gm)
    url = reverse("table_note", args=[momenta_campaign.pk])
    response = client.post(url, {"text": "   "}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    assert not TableEvent.objects.filter(campaign=momenta_campaign).exists()


def test_players_cannot_post_notes(client, momenta_campaign, player):
    client.force_login(player)
    url = reverse("table_note", args=[momenta_campaign.pk])
    assert client.post(url, {"text": "Hi"}).status_code == 403
    assert not TableEvent.objects.filter(campaign=momenta_campaign).exists()


def test_note_needs_a_csrf_token(momenta_campaign, gm):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    url = reverse("table_note", args=[momenta_campaign.pk])
    assert client.post(url, {"text": "Hi"}).status_code == 403


# --- The top bar ----------------------------------------------------------------------


def topbar(html: str) -> str:
    return html[html.index('<header class="topbar">') : html.index("</header>")]


def test_the_table_page_top_bar_links_the_campaign_names_the_user_and_logs_out(
    client, table_url, momenta_campaign, player
):
    bar = topbar(page_for(client, player, table_url))
    assert f'href="{reverse("campaign_detail", args=[momenta_campaign.pk])}"' in bar
    assert "The Drift" in bar and ">player</span>" in bar
    # Log out is a POST form with its CSRF token (Django's LogoutView refuses GET).
    form = bar[bar.index("<form") :]
    assert f'method="post" action="{reverse("logout")}"' in form
    assert 'name="csrfmiddlewaretoken"' in form and "Log out" in form


def test_site_pages_share_the_top_bar_and_anonymous_visitors_get_log_in_and_sign_up(client, player):
    bar = topbar(client.get(reverse("login")).content.decode())
    assert reverse("login") in bar and reverse("signup") in bar and "Log out" not in bar
    bar = topbar(page_for(client, player, reverse("home")))
    assert ">player</span>" in bar and "Log out" in bar and reverse("signup") not in bar


# --- Queries ------------------------------------------------------------------------------


def momenta_play(campaign, gm, player, player2, hero, sidekick, rolls: int) -> None:
    """Rolls waiting for their patterns, rolls whose patterns came later, answered Assists."""
    for i in range(rolls):
        made = momenta.roll_momenta(
            campaign.pk,
            player,
            hero.pk,
            momenta.RollRequest(attribute="WITS"),
            rng=FixedDice([5, 5, 1, 2]),
        )
        if i % 2:
            momenta.choose_allocation(campaign.pk, player, made.pk, None)
        assist = momenta.request_assist(campaign.pk, player2, hero.pk, sidekick.pk)
        momenta.answer_assist(campaign.pk, gm, assist.pk, "decline")


def d20_play(campaign, gm, player, player2, kara, _, rolls: int) -> None:
    """Skill tests with spends, a refund and a resolution."""
    for i in range(rolls):
        test = services_d20.roll_d20_test(
            campaign.pk,
            player,
            kara.pk,
            services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
            rng=FixedDice([2, 5]),
        )
        services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
        if i % 2:
            services_d20.refund_dont_know(campaign.pk, gm, test.pk, 0)
            services_d20.resolve_test(campaign.pk, player, test.pk)


@pytest.mark.parametrize("system", ["momenta", "d20"])
def test_the_table_page_draws_100_log_entries_in_as_many_queries_as_10(
    client, django_assert_max_num_queries, system, gm, player, player2, observer, request
):
    """The log's cards read their play records in a few queries, however many there are."""
    if system == "momenta":
        campaign, characters = request.getfixturevalue("momenta_campaign"), ("hero", "sidekick")
        play = momenta_play
    else:
        campaign, characters = request.getfixturevalue("d20_campaign"), ("kara", "marcus")
        play = d20_play
    sessions.start_session(campaign.pk, gm)
    chars = [request.getfixturevalue(name) for name in characters]
    url = reverse("table", args=[campaign.pk])
    play(campaign, gm, player, player2, *chars, rolls=4)
    assert 10 <= TableEvent.objects.filter(campaign=campaign).count() <= 20
    counts = {}
    for user in (gm, player2, observer):
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[user] = len(queries)
    play(campaign, gm, player, player2, *chars, rolls=40)
    assert TableEvent.objects.filter(campaign=campaign).count() > live.LOG_LIMIT
    for user, count in counts.items():
        client.force_login(user)
        with django_assert_max_num_queries(count):
            html = client.get(url).content.decode()
        assert len(log_seqs(html)) == live.LOG_LIMIT

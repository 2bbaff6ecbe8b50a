"""The table page: the first render of what the socket later pushes (same partials)."""

import re

import pytest
from django.urls import reverse

from tables import live
from tables.models import TableEvent

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
    html = page_for(client, player, table_url)
    assert log_seqs(html) == [2, 1]
    assert (
        '<span class="change-who">Ash</span> <span class="change-pool">Momentum</span> '
        '<span class="change-delta change-delta--pos">+3</span> '
        '<span class="change-after">→ 6</span>'
    ) in html
    assert "Disadvantage (PM-02)" in html and "Spent on a roll" in html and "-2" in html


def test_event_kinds_use_their_own_template_or_the_generic_one(momenta_campaign, gm):
    note = commit_event(momenta_campaign.pk, gm, "note", payload={"text": "Line one\nline two"})
    other = commit_event(momenta_campaign.pk, gm, "mystery_kind", payload={"clue": "red"})
    note_html = live.render_event_fragments(note, "all")
    assert '<blockquote class="log-note">Line one<br>line two</blockquote>' in note_html
    other_html = live.render_event_fragments(other, "all")
    assert "Mystery kind" in other_html and "clue: red" in other_html


def test_a_kind_with_a_path_in_its_name_cannot_pick_a_template(momenta_campaign, gm):
    event = commit_event(momenta_campaign.pk, gm, "../../base", payload={"text": "x"})
    entry = live.log_entry(event, momenta_campaign, "all")
    assert entry.templates[0] == "tables/partials/events/base.html"


def test_pushed_fragments_are_out_of_band_swaps_carrying_the_seq(momenta_campaign, gm, hero):
    event = commit_event(momenta_campaign.pk, gm, changes=[("resolve", -1, "spent", hero)])
    html = live.render_event_fragments(event, "all")
    assert re.match(r'\s*<div hx-swap-oob="afterbegin:#roll-log">\s*<li ', html)
    assert f'id="event-{event.seq}" data-seq="{event.seq}"' in html
    assert f'<section id="pools" class="pools" hx-swap-oob="true" data-seq="{event.seq}"' in html
    assert (
        f'hx-swap-oob="true" data-seq="{event.seq}"' in html.split(f'id="character-{hero.pk}"')[1]
    )
    # Cached per (event, audience): the same string again, without rendering.
    assert live.render_event_fragments(event, "all") is html


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

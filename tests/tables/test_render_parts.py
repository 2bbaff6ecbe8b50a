"""Parts of a log entry drawn in Python rather than by template loops (issue 10: every event
is drawn once per audience, so they are on the hot path): the entry's time and a 2d20 test's
dice. They must say what the templates said: the time in the site's zone, names escaped."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from tables.models import Character, TableEvent
from tables.services import sessions
from tests.tables.d20_posts import roll_data

HX = {"HTTP_HX_REQUEST": "true"}


def roll(client, campaign, character, **extra):
    response = client.post(
        reverse("d20_roll", args=[campaign.pk]), roll_data(character, **extra), **HX
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def table(d20_campaign, gm):
    sessions.start_session(d20_campaign.pk, gm)
    return d20_campaign


def test_a_log_entry_shows_when_it_happened_in_the_sites_time_zone(
    settings, client_for, table, kara, d20_faces
):
    """The entry's <time> carries the instant (ISO 8601) and shows hours and minutes, both in
    the site's TIME_ZONE, as the page's other times are."""
    settings.TIME_ZONE = "Asia/Kolkata"  # +05:30: a zone whose minutes differ from UTC's
    d20_faces([3, 15])
    html = roll(client_for("player"), table, kara)
    event = TableEvent.objects.get(campaign=table, kind="d20_test")
    local = event.created_at.astimezone(ZoneInfo("Asia/Kolkata"))
    entry = html.split('data-kind="d20_test"')[1]
    shown = re.search(r'<time class="log-time" datetime="([^"]+)">([^<]+)</time>', entry)
    assert shown.groups() == (local.isoformat(), local.strftime("%H:%M"))


def test_t_03_an_assistants_name_on_its_dice_is_text_not_markup(
    client_for, table, kara, player2, d20_faces
):
    """T-03: an assistant's die names them (its title and the label beside it). A name is
    typed by a person, so it is escaped like any other text on the page."""
    helper = Character.objects.create(campaign=table, owner=player2, name='<b>Ann</b> & "Co"')
    helper.attributes.create(name="Power", value=6)
    helper.skills.create(name="Communicate", value=3)
    d20_faces([3, 15, 4])
    html = roll(client_for("gm"), table, kara, assistants=[helper.pk])
    entry = html.split('data-kind="d20_test"')[1].split("</li>")[0]
    assist = entry.split('class="d20-assist"')[1]
    escaped = "&lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Co&quot;"
    assert f'title="{escaped} assists: 1 success"' in assist
    assert f'<span class="muted">{escaped}</span>' in assist
    assert "<b>Ann</b>" not in entry

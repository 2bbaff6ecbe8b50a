"""Issue 28, GL-01: a line's names reach the page in the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from rules import game_lines
from tables import events
from tables.discord import embeds
from tables.live import render
from tables.models import Campaign, TableEvent
from tables.services import gm as services_gm
from tables.words import line_names


def test_gl_01_every_name_a_line_gives_is_in_the_catalogue_list():
    named = {
        getattr(line, field)
        for line in game_lines.LINES.values()
        for field in line_names.NAMED
        if getattr(line, field)
    }
    assert named - line_names.NAMES == set()


def test_gl_01_a_campaign_names_its_pools_in_the_readers_language(monkeypatch):
    german = {"Doom": "Verderben", "Fortune": "Glück"}
    monkeypatch.setattr(line_names, "gettext", lambda text: german.get(text, text))
    line_names._worded.cache_clear()
    campaign = Campaign(game_line="conan")
    with translation.override("de"):
        line = campaign.line
    assert (line.gm_pool, line.personal_pool, line.group_pool) == ("Verderben", "Glück", "Momentum")
    assert line.key == "conan" and line.personal_spend == game_lines.LINES["conan"].personal_spend
    line_names._worded.cache_clear()


def test_gl_01_in_english_the_line_is_the_rules_own():
    with translation.override("en"):
        assert Campaign(game_line="fallout").line is game_lines.LINES["fallout"]


# GL-01: a kind's label names the table's pools ("%(gm_pool)s added"), in the reader's words.
LABELS = [
    ("conan", "en", "Doom added"),
    ("conan", "de", "Verderben hinzugefügt"),
    ("sta1", "en", "Threat added"),
    ("sta1", "de", "Bedrohung hinzugefügt"),
    ("fallout", "fr", "Ajout (PA du MJ)"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("line, language, label", LABELS)
def test_gl_01_the_log_and_discord_name_a_kind_by_the_tables_pools(
    d20_campaign, gm, client_for, line, language, label
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(game_line=line, threat_visible=True)
    event = services_gm.add_threat(d20_campaign.pk, gm, 1, "Ambush")
    url = reverse("table", args=[d20_campaign.pk])
    page = client_for("gm").get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<span class="log-kind">{label}</span>' in page
    campaign = Campaign.objects.get(pk=d20_campaign.pk)
    with translation.override(language):  # Discord: the campaign's language
        [embed] = embeds.body(event, campaign, [], secret=False)["embeds"]
        assert embed["title"].endswith(label)
        assert render.kind_label("threat_added", campaign.line) == label


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_gl_01_no_reader_sees_a_labels_placeholder(language):
    """Every kind by every line's names, the seeds' where there is no line (an older row,
    the admin's choices): all filled, and the seeds' names are the 2d20 core's."""
    lines = [None, *game_lines.LINES.values()]
    with translation.override(language):
        for line in lines:
            worded = line and line_names.worded_line(line)
            for name in events.REGISTRY:
                assert "%(" not in events.label_of(name, worded), (name, line and line.key)
        assert all("%(" not in str(label) for _name, label in events.choices())
        shown = TableEvent(kind=events.THREAT_ADDED.name).get_kind_display()  # the admin's
        assert shown == events.label_of("threat_added") and "%(" not in shown
    with translation.override("en"):
        assert events.label_of("d20_reroll") == "Determination reroll"
        assert events.label_of("challenge_roll") == "Challenge dice rolled"
        assert TableEvent(kind="d20_spend").get_kind_display() == "Momentum spent"

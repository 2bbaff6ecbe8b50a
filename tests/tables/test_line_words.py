"""Issue 28, GL-01: a line's names reach the page in the reader's language."""

from __future__ import annotations

from django.utils import translation

from rules import game_lines
from tables.models import Campaign
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

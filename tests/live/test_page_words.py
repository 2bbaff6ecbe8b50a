"""Issue 35: the words live.js and site.css show come from the page, in the reader's
language (live_status.html's data-label-*, the log's data-empty), never from the code."""

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static" / "tables"
STATES = {
    "connecting": "Connecting…",
    "syncing": "Catching up…",
    "offline": "Reconnecting…",
    "refused": "You are no longer at this table.",
}


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_connection_badge_and_the_empty_log_are_worded_in_the_page(
    client, momenta_campaign, player, language
):
    client.force_login(player)
    page = client.get(
        reverse("table", args=[momenta_campaign.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    with translation.override(language):
        wanted = {state: translation.gettext(words) for state, words in STATES.items()}
        wanted["live"] = translation.pgettext("connection state", "Live")
        empty = translation.gettext("Nothing has happened at this table yet.")
    for state, words in wanted.items():
        found = re.search(rf'data-label-{state}="([^"]*)"', page)
        assert found and html.unescape(found.group(1)) == words, state
    assert wanted["offline"] != STATES["offline"]
    found = re.search(r'id="roll-log"[^>]*data-empty="([^"]*)"', page)
    assert (
        found
        and html.unescape(found.group(1)) == empty != "Nothing has happened at this table yet."
    )


def test_live_js_and_the_stylesheet_carry_no_words_of_their_own():
    script = (STATIC / "live.js").read_text()
    css = (STATIC / "site.css").read_text()
    for words in [*STATES.values(), '"Live"']:
        assert words not in script, words
    assert "Nothing has happened" not in css
    assert re.findall(r'content:\s*"[A-Za-z][^"]*"', css) == []


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_log_filters_and_the_talk_modes_are_worded_for_the_reader(
    client, momenta_campaign, player, language
):
    from tables.live.log_filters import SHOWS
    from tables.services.talk import MODES

    client.force_login(player)
    page = client.get(
        reverse("table", args=[momenta_campaign.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    with translation.override(language):
        filters = {key: str(words) for key, words in SHOWS.items()}
        modes = {key: str(words) for key, words in MODES.items()}
    assert filters["all"] != "Everything" and modes["ooc"] != "Out of character"
    for key, words in filters.items():
        found = rf'value="{key}"( checked)?> {re.escape(html.escape(words))}</label>'
        assert re.search(found, page), key
    for key, words in modes.items():
        assert re.search(
            rf'<option value="{key}"[^>]*>{re.escape(html.escape(words))}</option>', page
        )


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_advantage_options_and_game_lines_are_worded_when_drawn_not_at_import(language):
    from tables.forms.momenta import ADVANTAGE_CHOICES
    from tables.forms.site import CampaignSettingsForm
    from tables.models import Campaign

    with translation.override(language):
        advantages = [str(label) for _, label in ADVANTAGE_CHOICES]
        boon = translation.gettext("A Boon")
        lines = dict(CampaignSettingsForm(instance=Campaign()).fields["game_line"].choices)
        sta1 = translation.gettext("Star Trek Adventures, 1st edition")
    assert any(label.startswith(boon + " (1 ") for label in advantages), advantages
    assert boon != "A Boon"
    if language == "fr":  # a number of points, not "2 Impulsion"
        assert any(label.endswith("(2 points d'Impulsion)") for label in advantages), advantages
    assert lines["sta1"] == sta1 != "Star Trek Adventures, 1st edition"


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_rules_keys_are_worded_in_the_forms_choices(language):
    """Issue 35: harm kinds, roundings, pattern kinds and effects, roll kinds and play modes
    are stored as keys; a form shows the reader's words ("Spielweise: narrative" before)."""
    from tables.forms.momenta import CustomPatternForm, MomentaRollForm, RollTemplateForm

    with translation.override(language):
        template = RollTemplateForm()
        pattern = CustomPatternForm()
        shown = {
            "harm": dict(template.fields["harm"].choices),
            "rounding": dict(template.fields["rounding"].choices),
            "kind": dict(pattern.fields["kind"].choices),
            "effect": dict(pattern.fields["effect"].choices),
            "play": dict(pattern.fields["play"].choices),
            "composer play": dict(MomentaRollForm.base_fields["play"].choices),
        }
        words = {name: {k: str(v) for k, v in c.items()} for name, c in shown.items()}
    for name, choices in words.items():
        for key, said in choices.items():
            assert "_" not in said, (name, key, said)
    english = {
        "rounding": "down",
        "harm": "strain",
        "effect": "outcome_upgrade",
        "play": "narrative",
    }
    for name, key in english.items():
        assert words[name][key].lower() != key.replace("_", " "), (name, key)


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_momenta_card_names_its_play_mode_in_the_readers_words(
    client, momenta_campaign, gm, player, hero, language
):
    from rules.dice import FixedDice
    from tables.services import momenta, sessions
    from tables.services.momenta import RollRequest

    sessions.start_session(momenta_campaign.pk, gm)
    momenta.roll_momenta(
        momenta_campaign.pk,
        player,
        hero.pk,
        RollRequest(attribute="WITS"),
        rng=FixedDice([5, 5, 1, 2]),
    )
    client.force_login(player)
    url = reverse("table", args=[momenta_campaign.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        said = translation.gettext(", %(play)s play") % {
            "play": translation.pgettext("play mode inside a sentence", "narrative")
        }
    assert said in page and "narrative" not in said


def test_a_default_band_is_worded_for_the_reader_and_a_gms_own_label_kept():
    """Issue 35: the default result bands are stored in English (PAT-R2) and drawn in the
    reader's words; a label the GM typed is shown as typed."""
    from tables.templatetags.momenta import roll_card

    stored = {"outcome": "Success with a Bonus", "applied": {"outcome": "Setback"}}
    with translation.override("de"):
        card = roll_card(stored)
        own = roll_card({"outcome": "Triumph"})
    assert (card["outcome"], card["applied"]["outcome"]) == ("Erfolg mit Bonus", "Rückschlag")
    assert own["outcome"] == "Triumph"


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_a_live_momenta_rolls_band_reads_in_the_readers_language(
    client, momenta_campaign, gm, player, hero, language
):
    from rules.dice import FixedDice
    from tables.services import momenta, sessions
    from tables.services.momenta import RollRequest

    sessions.start_session(momenta_campaign.pk, gm)
    made = momenta.roll_momenta(
        momenta_campaign.pk,
        player,
        hero.pk,
        RollRequest(attribute="WITS"),
        rng=FixedDice([5, 5, 1, 2]),
    )
    english = made.event.payload["outcome"]
    client.force_login(player)
    url = reverse("table", args=[momenta_campaign.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        said = translation.gettext(english)
    assert said != english and said in page

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

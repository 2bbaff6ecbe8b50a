"""Issue 37, words for players: no working words ("seeds", "preset") in what players
read, and Momenta's pages name only Momenta's own pools (it has no Threat)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import Campaign
from tests.tables.test_words_for_players import VisibleText

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "fr", "es"]
WORKING_WORDS = re.compile(r"seed|preset|voreinstellung|préréglage|preajuste", re.I)
THREAT = {"en": "Threat", "de": "Bedrohung", "fr": "Menace", "es": "Amenaza"}


def seen(client, url, language) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    parser = VisibleText()
    parser.feed(response.content.decode())
    return " ".join(parser.texts)


def player_pages(campaign) -> list[str]:
    return [
        reverse("home"),
        reverse("campaign_detail", args=[campaign.pk]),
        reverse("table", args=[campaign.pk]),
        reverse("scene_reference", args=[campaign.pk]),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("table", ["momenta_campaign", "d20_campaign"])
def test_a_players_pages_name_no_seeds_and_no_preset(request, client_for, table, language):
    campaign = request.getfixturevalue(table)
    client = client_for("player")
    for url in player_pages(campaign):
        words = seen(client, url, language)
        assert campaign.name in words or url == reverse("home")  # the page is the table's
        assert not WORKING_WORDS.search(words), (url, WORKING_WORDS.search(words))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_2d20_line_on_the_core_rules_is_named_without_seeds(d20_campaign, language, client_for):
    """The default line's name, as the GM's settings page offers it."""
    assert d20_campaign.game_line == "seeds"  # the key stays; only the words changed
    words = seen(client_for("gm"), reverse("campaign_settings", args=[d20_campaign.pk]), language)
    assert "2d20" in words and not re.search(r"seed", words, re.I)


@pytest.mark.parametrize("language", LANGUAGES)
def test_momentas_quick_reference_and_its_link_name_no_threat(
    momenta_campaign, client_for, language
):
    client = client_for("player")
    reference = seen(client, reverse("scene_reference", args=[momenta_campaign.pk]), language)
    table = seen(client, reverse("table", args=[momenta_campaign.pk]), language)
    assert THREAT[language] not in reference and THREAT[language] not in table
    momentum = {"en": "Momentum", "de": "Momentum", "fr": "Impulsion", "es": "Inercia"}
    assert momentum[language] in reference  # its own pool is there


def test_a_2d20_quick_reference_link_names_both_pools(d20_campaign, client_for):
    d20_campaign.game_line = "conan"
    d20_campaign.save(update_fields=["game_line"])
    table = seen(client_for("player"), reverse("table", args=[d20_campaign.pk]), "en")
    assert "Quick reference: what Momentum and Doom can buy" in table
    assert Campaign.objects.get(pk=d20_campaign.pk).uses_group_economy

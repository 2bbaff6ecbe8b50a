"""Every page a player and a GM use, in German, French and Spanish: no English word in
sight (issue 35). A page's words are its visible text and what is read aloud or shown
on hover (tests/page_words.py); English ones are our msgids' words that the reader's
language never uses. What may stay: the proper names below and what people typed (the
fixtures' names, notes and reasons, listed as USER_DATA)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.page_words import english_in
from tests.tables.test_events_registry import play_everything

pytestmark = pytest.mark.django_db

LANGUAGES = ["de", "fr", "es"]
# Names of games, books, companies and dice notation: the same in every language.
PROPER_NAMES = {"Momenta", "Momentum", "Star", "Trek", "Adventures", "Conan", "Fallout",
                "Dune", "Achtung", "Cthulhu", "Modiphius", "Discord", "Markdown", "JSON",
                "GM", "NPC", "d20", "d6", "Imperium", "Infinity"}  # fmt: skip
# What the fixtures typed (tests/conftest.py, play_everything): shown as typed.
TYPED = ("The Drift", "Arrakis", "Ash", "Bo", "Kara", "Marcus", "Cassie", "Cass", "The docks",
         "The bridge", "Rain", "Wet again", "I pocket the key", "Follow me", "A gift",
         "Wrong hero", "Fog", "Hack", "Alarm", "Slow", "Root", "Lucky Streak", "Ambush",
         "Reinforcements", "Called Shot", "Scan", "Power: I get what I want", "Signet ring",
         "Quiet corner", "Persuasion", "A breather", "Power", "Communicate", "player2",
         "player", "cogm", "gm", "observer", "outsider",
         # The Momenta sheet's attribute names: sheet data, as the fixtures typed them.
         "GRIT", "LUCK", "WITS")  # fmt: skip


@pytest.fixture
def played(momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick, kara, marcus,
           outsider):  # fmt: skip
    """The fixtures' two campaigns with one of every event kind in their logs."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    play_everything(
        momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick, kara, marcus, outsider
    )
    return {"momenta": momenta_campaign, "d20": d20_campaign}


def pages(played) -> dict[str, list[str]]:
    """(who, url) for every page a person uses; 'anonymous' pages need no login."""
    m, d = played["momenta"].pk, played["d20"].pk
    member_pages = []
    for pk in (m, d):
        for name in ("campaign_detail", "table", "scene_reference", "recap"):
            member_pages.append(reverse(name, args=[pk]))
    hero = played["momenta"].characters.get(name="Ash").pk
    member_pages += [
        reverse("pool_ledger", args=[m]) + f"?pool=momentum&character={hero}",
        reverse("pool_ledger", args=[d]) + "?pool=group_momentum",
    ]
    gm_pages = [
        reverse("campaign_settings", args=[m]),
        reverse("campaign_settings", args=[d]),
        reverse("character_new", args=[m]),
        reverse("character_new", args=[d]),
        reverse("campaign_new"),
        reverse("pool_ledger", args=[d]) + "?pool=threat",
        # The roll templates' and patterns' forms, which the table page fetches later.
        reverse("momenta_gm_tools", args=[m]),
    ]
    return {
        "gm": ["/", reverse("person_settings"), *member_pages, *gm_pages],
        "player": ["/", *member_pages, reverse("character_new", args=[m])],
        "anonymous": [reverse("login"), reverse("signup"), reverse("password_reset")],
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_reads_in_the_readers_language(played, client_for, language):
    leaks = {}
    for who, urls in pages(played).items():
        client = client_for(who)
        for url in urls:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (who, url)
            found = english_in(response.content.decode(), language, PROPER_NAMES, TYPED)
            if found:
                leaks[f"{who} {url}"] = found
    assert not leaks, "\n".join(f"{k}:\n    " + "\n    ".join(v) for k, v in leaks.items())


def refusals(played) -> list[tuple[str, str, str, dict | None, int]]:
    """(who, method, url, data, status) for the pages that refuse or send a form back:
    the error pages and every form's errors."""
    m, d = played["momenta"].pk, played["d20"].pk
    wrong = {"username": "gm", "password": "wrong"}
    # A sheet sent with no name and no rows, as a browser sends the empty form.
    empty_sheet = {"name": ""} | {
        f"{rows}-{count}": "0"
        for rows in ("attributes", "skills", "threads", "traits", "assets")
        for count in ("TOTAL_FORMS", "INITIAL_FORMS")
    }
    return [
        ("player", "get", reverse("campaign_settings", args=[m]), None, 403),
        ("outsider", "get", reverse("table", args=[m]), None, 403),
        ("anonymous", "get", "/no-such-page/", None, 404),
        ("gm", "post", reverse("campaign_new"), {"name": "", "preset": "nope"}, 200),
        ("gm", "post", reverse("character_new", args=[m]), empty_sheet, 400),
        ("gm", "post", reverse("character_new", args=[d]), empty_sheet, 400),
        ("anonymous", "post", reverse("signup"), {"username": "", "password1": "x"}, 200),
        ("anonymous", "post", reverse("login"), wrong, 200),
        ("anonymous", "post", reverse("login"), wrong, 429),  # locked out (limit below)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusals_and_form_errors_read_in_the_readers_language(
    played, client_for, settings, language
):
    settings.LOGIN_FAILURE_LIMIT = 1
    leaks = {}
    for who, method, url, data, status in refusals(played):
        client = client_for(who)
        response = getattr(client, method)(url, data or {}, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == status, (who, method, url, response.status_code)
        html = response.content.decode()
        assert f'lang="{language}"' in html, (who, url)
        found = english_in(html, language, PROPER_NAMES, TYPED)
        if found:
            leaks[f"{who} {method} {url} ({status})"] = found
    assert not leaks, "\n".join(f"{k}:\n    " + "\n    ".join(v) for k, v in leaks.items())

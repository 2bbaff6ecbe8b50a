"""Roll from the sheet (issue 37): one's own character cards (a GM's: the NPCs') link their
attributes (2d20: and skills, focuses) to the composer with that one chosen; nobody
else's, and an observer's none. The composer views refuse a character the viewer does
not control."""

import re

import pytest
from django.urls import reverse

from tables.models import Character

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name, campaign):
    return reverse(name, args=[campaign.pk])


def sheet_links(html: str, character: Character) -> list[str]:
    """The hx-get addresses of the roll links beside `character`'s card."""
    found = re.search(
        rf'<nav class="sheet-rolls" id="sheet-rolls-{character.pk}".*?</nav>', html, re.S
    )
    if found is None:
        return []
    return [m.replace("&amp;", "&") for m in re.findall(r'hx-get="([^"]+)"', found.group(0))]


def page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def selected(html: str, field: str) -> str | None:
    """The value selected in the select named `field`."""
    select = re.search(rf'<select name="{field}".*?</select>', html, re.S)
    chosen = select and re.search(r'<option value="([^"]*)"[^>]*\bselected', select.group(0))
    return chosen.group(1) if chosen else None


# --- Momenta: attributes ------------------------------------------------------------


def test_a_player_gets_roll_links_on_their_own_card_only(
    client_for, momenta_campaign, hero, sidekick
):
    html = page(client_for("player"), momenta_campaign)
    composer = url("momenta_composer", momenta_campaign)
    assert sheet_links(html, hero) == [
        f"{composer}?character={hero.pk}&attribute={name}" for name in ("GRIT", "LUCK", "WITS")
    ]
    assert 'hx-target="#composer"' in html
    sidekick.attributes.create(name="GRIT", value=2)
    assert sheet_links(page(client_for("player"), momenta_campaign), sidekick) == []


def test_an_observer_gets_no_roll_links_and_a_gm_gets_them_for_npcs(
    client_for, momenta_campaign, hero, gm
):
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Warden", is_npc=True)
    npc.attributes.create(name="GRIT", value=5)
    html = page(client_for("observer"), momenta_campaign)
    assert "sheet-rolls" not in html
    html = page(client_for("gm"), momenta_campaign)
    assert len(sheet_links(html, npc)) == 1
    assert sheet_links(html, hero) == []  # the GM rolls for a PC from the composer


def test_the_momenta_composer_opens_with_the_attribute_from_the_sheet(
    client_for, momenta_campaign, hero
):
    answer = client_for("player").get(
        url("momenta_composer", momenta_campaign), {"character": hero.pk, "attribute": "GRIT"}, **HX
    )
    assert answer.status_code == 200
    assert selected(answer.content.decode(), "attribute") == "GRIT"


def test_the_momenta_composer_refuses_another_players_character(
    client_for, momenta_campaign, hero, sidekick
):
    sidekick.attributes.create(name="GRIT", value=2)
    answer = client_for("player").get(
        url("momenta_composer", momenta_campaign),
        {"character": sidekick.pk, "attribute": "GRIT"},
        **HX,
    )
    assert answer.status_code in (403, 404)
    assert b'id="composer"' not in answer.content
    observer = client_for("observer").get(
        url("momenta_composer", momenta_campaign), {"character": hero.pk}, **HX
    )
    assert observer.status_code in (403, 404)


# --- 2d20: attribute, skill and focus --------------------------------------------------


def test_a_2d20_card_links_attributes_skills_and_focuses(client_for, d20_campaign, kara, player2):
    other = Character.objects.create(campaign=d20_campaign, owner=player2, name="Idris")
    other.attributes.create(name="Power", value=8)
    html = page(client_for("player"), d20_campaign)
    composer = url("d20_composer", d20_campaign)
    assert sheet_links(html, kara) == [
        f"{composer}?character={kara.pk}&attribute=Power",
        f"{composer}?character={kara.pk}&skill=Communicate",
        f"{composer}?character={kara.pk}&focus=Persuasion",
    ]
    assert sheet_links(html, other) == []
    assert "sheet-rolls" not in page(client_for("observer"), d20_campaign)


def test_the_2d20_composer_opens_with_what_the_sheet_chose(client_for, d20_campaign, kara):
    kara.attributes.create(name="Will", value=9)
    kara.skills.create(name="Battle", value=2)
    kara.traits.create(kind="focus", text="Strategy")
    answer = client_for("player").get(
        url("d20_composer", d20_campaign),
        {"character": kara.pk, "attribute": "Will", "skill": "Battle", "focus": "Strategy"},
        **HX,
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert (selected(html, "attribute"), selected(html, "skill"), selected(html, "focus")) == (
        "Will",
        "Battle",
        "Strategy",
    )


def test_the_2d20_composer_refuses_another_players_character(
    client_for, d20_campaign, kara, player2
):
    answer = client_for("player2").get(
        url("d20_composer", d20_campaign), {"character": kara.pk, "attribute": "Power"}, **HX
    )
    assert answer.status_code in (403, 404)
    assert b'id="d20-play"' not in answer.content

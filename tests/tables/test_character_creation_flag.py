"""PM-12: who may set a character's "in character creation" flag on the sheet.

Creation makes Momentum free (Advantage, Disadvantage and trauma apply directly), so a
player may start a character in creation and take it out, but only a GM (or co-GM) may
put it back in. Fixtures: Ash (hero, `player`'s, Resolve 3/4) in The Drift.
"""

import pytest
from django.urls import reverse

from tables.models import Character, TableEvent
from tests.tables.test_site_permissions import sheet_data

pytestmark = pytest.mark.django_db

LOCKED = "Only the GM can put a character back into character creation."


def edit_data(character, shown_in_creation, **overrides):
    """What the edit page posts back. An unticked or disabled box is not posted, nor is a
    disabled box's hidden initial: only a page that offered the box ticked says so."""
    data = {"name": character.name, "notes": character.notes, "resolve_max": character.resolve_max}
    if shown_in_creation:
        data["initial-in_creation"] = "True"
    for prefix in ("attributes", "threads"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return data | overrides


def set_creation(character, value):
    Character.objects.filter(pk=character.pk).update(in_creation=value)
    character.refresh_from_db()


def edit_url(character):
    return reverse("character_edit", args=[character.campaign_id, character.pk])


def state(character):
    character.refresh_from_db()
    return character.in_creation, character.notes, TableEvent.objects.count()


def test_pm_12_player_takes_their_character_out_of_creation(client_for, hero):
    set_creation(hero, True)
    page = client_for("player").get(edit_url(hero)).content.decode()
    assert LOCKED not in page
    response = client_for("player").post(edit_url(hero), edit_data(hero, True))
    assert response.status_code == 302
    hero.refresh_from_db()
    assert not hero.in_creation


def test_pm_12_player_cannot_put_a_character_back_into_creation(client_for, hero):
    page = client_for("player").get(edit_url(hero)).content.decode()
    box = page.split('name="in_creation"')[1].split(">")[0]
    assert "disabled" in box
    assert LOCKED in page
    before = state(hero)
    data = edit_data(hero, False, in_creation="on", notes="Free Advantage, please")
    response = client_for("player").post(edit_url(hero), data)
    assert response.status_code == 400
    assert LOCKED in response.content.decode()
    assert response.context["form"].errors["in_creation"] == [LOCKED]
    assert state(hero) == before


@pytest.mark.parametrize("role", ["gm", "cogm"])
def test_pm_12_gm_puts_a_character_back_into_creation(client_for, hero, role):
    page = client_for(role).get(edit_url(hero)).content.decode()
    assert "disabled" not in page.split('name="in_creation"')[1].split(">")[0]
    pools = {"momentum": hero.momentum, "resolve": hero.resolve}  # a GM's pools are inputs
    data = edit_data(hero, False, in_creation="on", **pools)
    response = client_for(role).post(edit_url(hero), data)
    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.in_creation
    assert TableEvent.objects.get().kind == "character_updated"


def test_pm_12_player_creates_a_character_in_creation(client_for, momenta_campaign, player):
    url = reverse("character_new", args=[momenta_campaign.pk])
    assert "disabled" not in client_for("player").get(url).content.decode()
    response = client_for("player").post(url, sheet_data("Cass", in_creation="on"))
    assert response.status_code == 302
    cass = Character.objects.get(name="Cass")
    assert cass.owner == player and cass.in_creation
    # Left unticked, a new character starts out of creation.
    assert client_for("player").post(url, sheet_data("Dax")).status_code == 302
    assert not Character.objects.get(name="Dax").in_creation


def test_pm_12_page_drawn_locked_keeps_a_character_the_gm_put_back_in(client_for, hero):
    """The player's page showed the box locked (out of creation); the GM put Ash back in
    meanwhile. Saving the notes must not take Ash out of creation."""
    data = edit_data(hero, False, notes="Scarred")
    set_creation(hero, True)
    response = client_for("player").post(edit_url(hero), data)
    assert response.status_code == 302
    hero.refresh_from_db()
    assert (hero.in_creation, hero.notes) == (True, "Scarred")


def test_pm_12_the_service_refuses_a_players_sheet_that_puts_a_character_back(
    momenta_campaign, player, gm, hero
):
    """Whatever calls save_character (the form is one caller): a player's sheet that ticks
    a character back into creation is refused under the lock and changes nothing; a
    GM's is taken, and a player's sheet that keeps it in creation is too."""
    from tables.services.characters import BACK_INTO_CREATION, Sheet, save_character
    from tables.services.core import ServiceError

    set_creation(hero, False)
    events_before = TableEvent.objects.count()
    fields = {"name": hero.name, "notes": "Sneaky", "in_creation": True}
    with pytest.raises(ServiceError, match=BACK_INTO_CREATION):
        save_character(momenta_campaign.pk, player, Sheet(fields=dict(fields)), hero.pk)
    hero.refresh_from_db()
    assert (hero.in_creation, hero.notes, TableEvent.objects.count()) == (
        False,
        "",
        events_before,
    )
    save_character(momenta_campaign.pk, gm, Sheet(fields=dict(fields)), hero.pk)
    hero.refresh_from_db()
    assert hero.in_creation
    save_character(momenta_campaign.pk, player, Sheet(fields={**fields, "notes": "Still"}), hero.pk)
    hero.refresh_from_db()
    assert hero.in_creation and hero.notes == "Still"

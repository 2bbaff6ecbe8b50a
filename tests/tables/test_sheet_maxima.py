"""RS-01, PM-13 (issue 25): a pool's maximum is the GM's like the pool itself. A player
raised Ash's Resolve maximum from 4 to 20 on the sheet and it was saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Character, PoolChange, TableEvent
from tables.services.characters import Sheet, save_character

pytestmark = pytest.mark.django_db


def edit_data(character, **overrides):
    """What the edit page posts back (a disabled input is not posted by a browser)."""
    data = {"name": character.name, "notes": "", "resolve_max": character.resolve_max}
    for prefix in ("attributes", "threads"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return data | overrides


def state(campaign):
    return (
        list(Character.objects.filter(campaign=campaign).values_list("resolve", "resolve_max")),
        TableEvent.objects.filter(campaign=campaign).count(),
        PoolChange.objects.count(),
    )


def test_rs_01_a_player_cannot_raise_their_own_resolve_maximum_on_the_sheet(
    momenta_campaign, client_for, hero
):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    page = client_for("player").get(url).content.decode()
    field = page.split('name="resolve_max"')[1].split(">")[0]
    assert "disabled" in field  # drawn locked, like the pools
    before = state(momenta_campaign)
    response = client_for("player").post(url, edit_data(hero, resolve_max=20))
    assert response.status_code == 400
    assert "changes through play and the GM, not the sheet" in response.content.decode()
    assert state(momenta_campaign) == before
    # The rest of the sheet stays the player's, and the maximum as it was.
    assert client_for("player").post(url, edit_data(hero, notes="Scarred")).status_code == 302
    hero.refresh_from_db()
    assert (hero.notes, hero.resolve, hero.resolve_max) == ("Scarred", 3, 4)


def test_rs_01_the_service_keeps_the_gms_maximum_whatever_a_players_sheet_sent(
    momenta_campaign, player, hero
):
    """As it keeps the pools a player's new sheet carries: the maximum is not theirs."""
    fields = {"name": "Ash", "notes": "Scarred", "resolve_max": 20}
    save_character(momenta_campaign.pk, player, Sheet(fields), hero.pk)
    hero.refresh_from_db()
    assert (hero.notes, hero.resolve_max) == ("Scarred", 4)
    assert not PoolChange.objects.exists()


def test_rs_01_the_gm_sets_the_maximum_on_the_sheet(momenta_campaign, client_for, hero):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    shown = {"resolve": 3, "initial-resolve": 3, "momentum": 3, "initial-momentum": 3}
    data = edit_data(hero, resolve_max=6, **shown)
    assert client_for("gm").post(url, data).status_code == 302
    hero.refresh_from_db()
    assert hero.resolve_max == 6

"""Shared fixtures: a table with a GM, a co-GM, two players, an observer and an outsider."""

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings as hypothesis_settings

from tables.models import Campaign, Character, Membership

# These machines are noisy: never fail a property test on wall-clock time.
hypothesis_settings.register_profile("momenta", deadline=None, print_blob=True)
hypothesis_settings.load_profile("momenta")

PASSWORD = "table-pass-123"


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def gm(db):
    return make_user("gm")


@pytest.fixture
def cogm(db):
    return make_user("cogm")


@pytest.fixture
def player(db):
    return make_user("player")


@pytest.fixture
def player2(db):
    return make_user("player2")


@pytest.fixture
def observer(db):
    return make_user("observer")


@pytest.fixture
def outsider(db):
    return make_user("outsider")


def _campaign(gm, cogm, player, player2, observer, **fields):
    campaign = Campaign.objects.create(owner=gm, **fields)
    for user, role in [
        (gm, Membership.Role.GM),
        (cogm, Membership.Role.GM),
        (player, Membership.Role.PLAYER),
        (player2, Membership.Role.PLAYER),
        (observer, Membership.Role.OBSERVER),
    ]:
        Membership.objects.create(campaign=campaign, user=user, role=role)
    return campaign


@pytest.fixture
def momenta_campaign(gm, cogm, player, player2, observer):
    return _campaign(gm, cogm, player, player2, observer, name="The Drift")


@pytest.fixture
def d20_campaign(gm, cogm, player, player2, observer):
    return _campaign(
        gm,
        cogm,
        player,
        player2,
        observer,
        name="Arrakis",
        preset=Campaign.Preset.D20,
        dice_system=Campaign.DiceSystem.D20,
        economy=Campaign.Economy.GROUP,
    )


@pytest.fixture
def hero(momenta_campaign, player):
    character = Character.objects.create(
        campaign=momenta_campaign, owner=player, name="Ash", resolve=3, resolve_max=4
    )
    for name, dice in [("GRIT", 3), ("WITS", 4), ("LUCK", 2)]:
        character.attributes.create(name=name, value=dice)
    return character


@pytest.fixture
def sidekick(momenta_campaign, player2):
    return Character.objects.create(
        campaign=momenta_campaign, owner=player2, name="Bo", resolve=2, resolve_max=3
    )

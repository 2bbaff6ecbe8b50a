"""A roll reads the session's user with its membership (views/table_login.py, issue 10):
the user it lets in must be one django.contrib.auth.get_user lets in, no more."""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import MomentaRoll
from tables.services import momenta, sessions
from tests.tables.test_command_cost import HX, roll_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(momenta_campaign, gm, hero, monkeypatch):
    sessions.start_session(momenta_campaign.pk, gm)
    faces = FixedDice([5, 5, 2, 3, 1, 4, 6] * 10)
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: faces)
    return momenta_campaign


def post_roll(client, campaign, hero):
    return client.post(reverse("momenta_roll", args=[campaign.pk]), roll_data(hero), **HX)


def test_a_member_rolls_as_themselves(table, client_for, player, hero):
    response = post_roll(client_for("player"), table, hero)
    assert response.status_code == 200
    assert MomentaRoll.objects.get().actor == player


def test_a_password_changed_since_login_ends_the_session(table, client_for, player, hero):
    """Another device changed the password: this session's hash is stale, so the
    session is flushed and the roll goes to the login page, as on any other page."""
    client = client_for("player")
    player.set_password("a new long password")
    player.save()
    response = post_roll(client, table, hero)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not MomentaRoll.objects.exists()
    assert "_auth_user_id" not in client.session


def test_a_deactivated_user_cannot_roll(table, client_for, player, hero):
    client = client_for("player")
    player.is_active = False
    player.save()
    response = post_roll(client, table, hero)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not MomentaRoll.objects.exists()


@pytest.mark.parametrize("role", ["observer", "outsider"])
def test_who_does_not_play_here_is_refused(table, client_for, hero, role):
    response = post_roll(client_for(role), table, hero)
    assert response.status_code == 403
    assert not MomentaRoll.objects.exists()


def test_anonymous_goes_to_the_login_page(table, client_for, hero):
    response = post_roll(client_for("anonymous"), table, hero)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not MomentaRoll.objects.exists()


@pytest.mark.parametrize("name", ["momenta_roll", "d20_roll"])
def test_a_table_beyond_the_ids_range_is_not_found(client_for, name):
    """The membership is read before anything else: a pk no column can hold is 404."""
    response = client_for("player").post(reverse(name, args=[99999999999999999999]), {}, **HX)
    assert response.status_code == 404

"""Who may roll at a table: a logged-in member who plays there (login_required, then
views/access.player_at). A session Django no longer accepts (a password changed
elsewhere, a deactivated user) goes to the login page; others get 403 or 404."""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import MomentaRoll, TableEvent
from tables.services import momenta, sessions
from tests.tables.d20_posts import roll_data as d20_roll_data
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


COMMANDS = {  # view name -> (the campaign fixture, a post it would take from a player)
    "momenta_roll": ("momenta_campaign", lambda fx: roll_data(fx.getfixturevalue("hero"))),
    "d20_roll": ("d20_campaign", lambda fx: d20_roll_data(fx.getfixturevalue("kara"))),
    "table_talk": ("momenta_campaign", lambda fx: {"mode": "ooc", "text": "Hello"}),
}


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize(
    ("role", "status"), [("anonymous", 302), ("observer", 403), ("outsider", 403)]
)
def test_every_table_command_refuses_who_does_not_play_there(
    request, client_for, name, role, status
):
    fixture, post = COMMANDS[name]
    campaign = request.getfixturevalue(fixture)
    data = post(request)
    response = client_for(role).post(reverse(name, args=[campaign.pk]), data, **HX)
    assert response.status_code == status
    if status == 302:
        assert reverse("login") in response["Location"]
    assert not TableEvent.objects.filter(campaign=campaign).exists()

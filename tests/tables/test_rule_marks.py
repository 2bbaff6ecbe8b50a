"""Issue 37: the rules' § marks only for those who want them. A personal setting
(PersonSettings.rule_marks): by default shown on the campaigns one runs as GM, hidden
where one plays or looks on; "on" and "off" say everywhere and nowhere."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import frames
from tables.models import PersonSettings, TableEvent
from tables.policy.locale import SESSION_KEY, Reader
from tables.policy.rule_marks import SESSION_KEY as MARKS_KEY
from tables.services import momenta, sessions
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db

MARKER = 'class="rule-ref"'
SETTINGS = reverse("person_settings")


@pytest.fixture
def table(momenta_campaign, gm, player, hero):
    """A Momenta log with a Disadvantage roll: its card says "+1 Momentum (PM-02)"."""
    momenta_campaign.players_declare_edges = True
    momenta_campaign.save(update_fields=["players_declare_edges"])
    sessions.start_session(momenta_campaign.pk, gm)
    request = RollRequest(attribute="WITS", disadvantage=True)
    momenta.roll_momenta(momenta_campaign.pk, player, hero.pk, request, rng=FixedDice([6, 2, 2, 1]))
    return momenta_campaign


def page(client, campaign) -> str:
    response = client.get(reverse("table", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def choose(client, marks: str):
    return client.post(SETTINGS, {"show_stage": "on", "rule_marks": marks})


@pytest.mark.parametrize(("role", "shown"), [("gm", True), ("player", False), ("observer", False)])
def test_by_default_the_gm_sees_rule_marks_and_players_and_observers_do_not(
    table, client_for, role, shown
):
    html = page(client_for(role), table)
    assert 'data-kind="momenta_roll"' in html  # the roll's card is there to mark
    assert (MARKER in html) is shown
    assert ('title="Rule PM-02"' in html) is shown


def test_a_player_who_turns_rule_marks_on_sees_them(table, client_for, player):
    client = client_for("player")
    assert choose(client, "on").status_code == 302
    assert PersonSettings.objects.get(user=player).rule_marks == "on"
    html = page(client, table)
    assert 'title="Rule PM-02"' in html
    assert f'href="{reverse("rules")}#PM-02"' in html


def test_a_gm_who_turns_rule_marks_off_sees_none(table, client_for):
    client = client_for("gm")
    assert choose(client, "off").status_code == 302
    assert MARKER not in page(client, table)


def test_the_choice_survives_a_new_login(table, client_for, player):
    """Kept in the settings, and in the session at login (as the language is)."""
    PersonSettings.objects.create(user=player, rule_marks="on")
    client = client_for("player")
    assert client.session[MARKS_KEY] == "on" and SESSION_KEY in client.session
    assert MARKER in page(client, table)


def test_an_unknown_choice_is_refused_and_changes_nothing(client_for, player):
    client = client_for("player")
    response = choose(client, "sometimes")
    assert response.status_code == 200 and "sometimes" in response.content.decode()
    assert not PersonSettings.objects.filter(user=player).exists()


def test_the_settings_page_offers_the_choice(client_for):
    html = client_for("player").get(SETTINGS).content.decode()
    assert 'name="rule_marks"' in html and 'value="on"' in html and 'value="off"' in html


def test_pushed_fragments_follow_the_readers_choice(table):
    """The live path (frames.fragment): the players' audience draws marks only for a
    reader who asked, and the memo keeps the two apart (the Reader is its key)."""
    event = TableEvent.objects.filter(campaign=table, kind="momenta_roll").get()
    default = frames.fragment(event, "all", Reader("en", "UTC"))
    asked = frames.fragment(event, "all", Reader("en", "UTC", "on"))
    gm_off = frames.fragment(event, "gm", Reader("en", "UTC", "off"))
    assert MARKER not in default and MARKER in asked and MARKER not in gm_off
    assert MARKER in frames.fragment(event, "gm", Reader("en", "UTC"))
    assert "PM-02" not in default  # the words stay, the ID goes

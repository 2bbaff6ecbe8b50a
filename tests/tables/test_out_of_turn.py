"""A roll out of turn (issue 37): while a conflict runs, a roll by a character who is not
the one acting (no one acting, or not taking part, counts; the GM's NPCs too) carries
`out_of_turn: true` in its event, and its card says so to everyone. Without a conflict
the key stays out, and the mark costs no statement (the roller's own query reads it).

Momenta (the GM's order: the first participant acts at once): Ash (the player's) and Bo
(player2's) take part, the GM's Raider does not. 2d20 (sides alternate: no one acts
until a side chooses): Kara (the player's) and Marcus (the GM's NPC) take part, Lena
(player2's) does not.
"""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Character, TableEvent
from tables.policy.turns import out_of_turn
from tables.services import d20 as services_d20
from tables.services import momenta, sessions
from tables.services.conflicts import turns
from tables.services.d20 import tests as d20_rolls
from tables.services.momenta import RollRequest
from tests.tables.test_command_cost import (
    d20_data,
    d20_roll,
    roll,
    roll_data,
    same_d20_dice,
    same_dice,
    statements,
)

pytestmark = pytest.mark.django_db

MARK = "Out of turn"


@pytest.fixture
def raider(momenta_campaign, gm):
    character = Character.objects.create(
        campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True
    )
    character.attributes.create(name="WITS", value=2)
    return character


@pytest.fixture
def drift(momenta_campaign, gm, hero, sidekick, raider):
    sessions.start_session(momenta_campaign.pk, gm)
    sidekick.attributes.create(name="WITS", value=2)
    return momenta_campaign


@pytest.fixture
def lena(d20_campaign, player2):
    character = Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")
    character.attributes.create(name="Power", value=7)
    character.skills.create(name="Communicate", value=6)
    return character


@pytest.fixture
def marcus(marcus):
    """conftest's NPC, with what a test rolls."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    return marcus


def momenta_roll(campaign, actor, character):
    made = momenta.roll_momenta(
        campaign.pk, actor, character.pk, RollRequest(attribute="WITS"),
        rng=FixedDice([5, 5, 1, 2, 3, 4]),
    )  # fmt: skip
    return TableEvent.objects.get(pk=made.event_id).payload, made.card


def d20_test(campaign, actor, character):
    request = services_d20.D20TestRequest(attribute="Power", skill="Communicate")
    made = services_d20.roll_d20_test(
        campaign.pk, actor, character.pk, request, rng=FixedDice([3, 4])
    )
    return TableEvent.objects.get(pk=made.event_id).payload


# --- the payload ---------------------------------------------------------------------------


def test_a_momenta_roll_is_marked_unless_its_character_acts(
    drift, gm, player, player2, hero, sidekick, raider
):
    assert "out_of_turn" not in momenta_roll(drift, player, hero)[0]  # no conflict
    turns.start_conflict(drift.pk, gm, [hero.pk, sidekick.pk])
    assert turns.running_conflict(drift).acting.character == hero

    payload, card = momenta_roll(drift, player, hero)
    assert "out_of_turn" not in payload and "out_of_turn" not in card
    payload, card = momenta_roll(drift, player2, sidekick)  # takes part, not acting
    assert payload["out_of_turn"] is True and card["out_of_turn"] is True
    assert momenta_roll(drift, gm, raider)[0]["out_of_turn"] is True  # an NPC not in it

    turns.end_conflict(drift.pk, gm)
    assert "out_of_turn" not in momenta_roll(drift, player2, sidekick)[0]


def test_a_2d20_test_is_marked_unless_its_character_acts(
    d20_campaign, gm, player, player2, kara, marcus, lena
):
    assert "out_of_turn" not in d20_test(d20_campaign, player, kara)  # no conflict
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    assert d20_test(d20_campaign, player, kara)["out_of_turn"] is True  # no one acts yet

    turns.choose_next(d20_campaign.pk, player, kara.pk)
    assert "out_of_turn" not in d20_test(d20_campaign, player, kara)
    assert d20_test(d20_campaign, gm, marcus)["out_of_turn"] is True  # the GM's NPC
    assert d20_test(d20_campaign, player2, lena)["out_of_turn"] is True  # not taking part

    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    assert "out_of_turn" not in d20_test(d20_campaign, gm, marcus)
    assert d20_test(d20_campaign, player, kara)["out_of_turn"] is True


def test_a_roller_read_without_its_turn_costs_one_small_query(
    d20_campaign, gm, player, kara, marcus, django_assert_num_queries
):
    """out_of_turn on a character the loaders did not annotate (a later caller's) still
    answers, from one query."""
    fresh = Character.objects.get(pk=kara.pk)
    with django_assert_num_queries(1):
        assert out_of_turn(fresh) == {}  # no conflict
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    for character, expected in ((kara, {}), (marcus, {"out_of_turn": True})):
        fresh = Character.objects.get(pk=character.pk)
        with django_assert_num_queries(1):
            assert out_of_turn(fresh) == expected


# --- the card --------------------------------------------------------------------------------


def marks(client, campaign) -> int:
    """How many log entries on the table page carry the mark."""
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    badges = page.count('<span class="badge badge--turn" title="')
    assert page.count(f">{MARK}</span>") == badges  # each badge worded, none without one
    return badges


def test_the_card_of_a_roll_out_of_turn_says_so_to_a_player_and_to_the_gm(
    drift, client_for, gm, player, player2, hero, sidekick
):
    turns.start_conflict(drift.pk, gm, [hero.pk, sidekick.pk])
    momenta_roll(drift, player, hero)  # Ash acts: no mark
    for client in (client_for("player"), client_for("gm")):
        assert marks(client, drift) == 0
    momenta_roll(drift, player2, sidekick)
    for client in (client_for("player"), client_for("gm")):
        assert marks(client, drift) == 1


def test_the_card_of_a_2d20_test_out_of_turn_says_so_to_a_player_and_to_the_gm(
    d20_campaign, client_for, gm, player, kara, marcus
):
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    d20_test(d20_campaign, player, kara)  # Kara acts: no mark
    for client in (client_for("player"), client_for("gm")):
        assert marks(client, d20_campaign) == 0
    d20_test(d20_campaign, gm, marcus)
    for client in (client_for("player"), client_for("gm")):
        assert marks(client, d20_campaign) == 1


def test_the_mark_is_translated(drift, client_for, gm, player2, hero, sidekick):
    turns.start_conflict(drift.pk, gm, [hero.pk, sidekick.pk])
    momenta_roll(drift, player2, sidekick)
    client = client_for("player")
    client.cookies["django_language"] = "de"
    page = client.get(reverse("table", args=[drift.pk]), HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert 'class="badge badge--turn"' in html and f">{MARK}<" not in html


# --- the cost ------------------------------------------------------------------------------


def no_mark(monkeypatch):
    """The rolls as they were before the mark: the turn not asked for."""
    for module in (momenta.rolls, d20_rolls):
        monkeypatch.setattr(module, "out_of_turn", lambda character: {})


def test_the_mark_costs_a_momenta_roll_no_statement(
    drift, client_for, gm, player, hero, sidekick, monkeypatch
):
    """The same roll over HTTP costs as many statements with a conflict running (the
    roller out of turn) as without one, and as a roll that never asks for its turn:
    the turn comes in the roller's own statement."""
    client = client_for("player")
    roll(client, drift, roll_data(hero))  # warm: the first roll of a process reads more

    def same_roll():
        Character.objects.filter(pk=hero.pk).update(momentum=1, resolve=3)
        same_dice(monkeypatch)
        return statements(lambda: roll(client, drift, roll_data(hero)))

    without = same_roll()
    turns.start_conflict(drift.pk, gm, [sidekick.pk, hero.pk])
    assert same_roll() == without
    assert TableEvent.objects.filter(kind="momenta_roll").last().payload["out_of_turn"]
    no_mark(monkeypatch)
    assert same_roll() == without


def test_the_mark_costs_a_2d20_test_no_statement(
    d20_campaign, client_for, gm, player, kara, marcus, monkeypatch
):
    client = client_for("player")
    d20_roll(client, d20_campaign, d20_data(kara))  # warm

    def same_test():
        same_d20_dice(monkeypatch)
        return statements(lambda: d20_roll(client, d20_campaign, d20_data(kara)))

    without = same_test()
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    assert same_test() == without
    assert TableEvent.objects.filter(kind="d20_test").last().payload["out_of_turn"]
    no_mark(monkeypatch)
    assert same_test() == without

"""Turn order in a conflict (issue 24): SC-01 Keep the Initiative, rounds, the GM's tools.

Kara (the player's) and Lena (player2's) against Marcus (the GM's NPC), at a 2d20 table
with 4 group Momentum and 4 Threat.
"""

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from tables.models import Campaign, Character, Conflict, PoolChange, TableEvent
from tables.presenters.conflicts import side_words
from tables.services.conflicts import paid, turns
from tables.services.core import ServiceError
from tables.words.said import worded

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena(d20_campaign, player2):
    return Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")


@pytest.fixture
def fight(d20_campaign, gm, kara, lena, marcus):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=4, threat=4)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    return Conflict.objects.get(campaign=d20_campaign)


def state(campaign):
    """Everything a refused command must leave as it was."""
    campaign.refresh_from_db()
    conflict = turns.running_conflict(campaign)
    return (
        TableEvent.objects.filter(campaign=campaign).count(),
        PoolChange.objects.filter(campaign=campaign).count(),
        campaign.group_momentum,
        campaign.threat,
        conflict and (conflict.round, conflict.last_side, conflict.last_kept),
        conflict and sorted(conflict.participants.values_list("character_id", "acted", "acting")),
    )


def acting(campaign):
    conflict = turns.running_conflict(campaign)
    return conflict.acting.character.name if conflict.acting else None


def test_sc01_players_keep_the_initiative_for_two_group_momentum(
    d20_campaign, fight, player, player2, kara, lena
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)

    event = paid.keep_initiative(d20_campaign.pk, player2, lena.pk)

    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 2
    assert acting(d20_campaign) == "Lena"
    assert event.payload["action"] == "kept"
    assert event.payload["changes"][0]["pool"] == "group_momentum"
    assert event.payload["changes"][0]["delta"] == -2
    line = PoolChange.objects.get(event=event)
    assert (line.pool, line.delta, line.after) == ("group_momentum", -2, 2)


def test_sc01_the_gm_keeps_the_initiative_for_two_threat(
    d20_campaign, gm, player, kara, lena, marcus
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat=3)
    brute = Character.objects.create(campaign=d20_campaign, owner=gm, name="Brute", is_npc=True)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk, brute.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)

    event = paid.keep_initiative(d20_campaign.pk, gm, brute.pk)

    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 1
    assert acting(d20_campaign) == "Brute"
    # The log names the side as the turn tracker does (issue 37: not "The gm's side"),
    # in each reader's language.
    assert worded(event.payload) == "The GM's side keeps the initiative: Brute acts next."
    assert side_words("gm") == "The GM's side"
    with translation.override("de"):
        assert worded(event.payload) == (
            f"{side_words('gm')} behält die Initiative: Brute handelt als Nächstes."
        )


def test_sc01_without_keeping_the_sides_alternate(d20_campaign, fight, gm, player, kara, lena):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="the GM's side's turn"):
        turns.choose_next(d20_campaign.pk, player, lena.pk)

    assert state(d20_campaign) == before


def test_sc01a_a_side_keeps_the_initiative_once_in_a_row(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    """Ruling SC-01a: the turn bought by keeping passes the initiative on."""
    third = Character.objects.create(campaign=d20_campaign, owner=player, name="Third")
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, third.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    turns.end_turn(d20_campaign.pk, player2, lena.pk)
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="^The players' side already kept the initiative"):
        paid.keep_initiative(d20_campaign.pk, player, third.pk)

    assert state(d20_campaign) == before


def test_sc01b_the_round_ends_when_all_have_acted_and_the_other_side_opens_the_next(
    d20_campaign, fight, gm, player, player2, kara, lena, marcus
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    turns.choose_next(d20_campaign.pk, player2, lena.pk)
    turns.end_turn(d20_campaign.pk, player2, lena.pk)

    conflict = turns.running_conflict(d20_campaign)
    assert conflict.round == 2
    assert not conflict.participants.filter(acted=True).exists()
    last = TableEvent.objects.filter(campaign=d20_campaign).latest("seq")
    assert (last.payload["action"], last.payload["round"]) == ("new_round", 2)
    # Lena ended round 1 for the players: the GM's side opens round 2.
    with pytest.raises(ServiceError, match="the GM's side's turn"):
        turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    assert acting(d20_campaign) == "Marcus"


def test_sc01b_the_side_that_ends_a_round_may_keep_it_to_open_the_next(
    d20_campaign, fight, gm, player, player2, kara, lena, marcus
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    turns.end_turn(d20_campaign.pk, player2, lena.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)  # round 1 over

    paid.keep_initiative(d20_campaign.pk, gm, marcus.pk)

    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (2, 2)
    conflict = turns.running_conflict(d20_campaign)
    assert conflict.round == 2 and acting(d20_campaign) == "Marcus"


def test_sc01_keeping_without_enough_momentum_is_refused_and_changes_nothing(
    d20_campaign, fight, player, player2, kara, lena
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=1)
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="costs 2 Momentum"):
        paid.keep_initiative(d20_campaign.pk, player2, lena.pk)

    assert state(d20_campaign) == before


def test_sc01_keeping_is_refused_while_someone_acts(d20_campaign, fight, player, kara, lena):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="Kara is acting"):
        paid.keep_initiative(d20_campaign.pk, player, lena.pk)

    assert state(d20_campaign) == before


def test_sc01_a_player_cannot_keep_the_initiative_for_the_gm(
    d20_campaign, fight, gm, player, kara, marcus
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    # Marcus is the GM's only NPC: the players choose next, the GM has no one to keep with.
    before = state(d20_campaign)

    with pytest.raises(PermissionDenied):
        paid.keep_initiative(d20_campaign.pk, player, marcus.pk)

    assert state(d20_campaign) == before


def test_ending_another_players_turn_is_refused(d20_campaign, fight, player, player2, kara):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(PermissionDenied):
        turns.end_turn(d20_campaign.pk, player2, kara.pk)

    assert state(d20_campaign) == before


def test_ending_a_turn_out_of_turn_is_refused_with_a_message(
    d20_campaign, fight, player, player2, kara, lena
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="It is not Lena's turn"):
        turns.end_turn(d20_campaign.pk, player2, lena.pk)

    assert state(d20_campaign) == before


def test_the_gm_chooses_for_the_npcs_alone(d20_campaign, fight, player, kara, marcus):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    before = state(d20_campaign)

    with pytest.raises(PermissionDenied):
        turns.choose_next(d20_campaign.pk, player, marcus.pk)

    assert state(d20_campaign) == before


@pytest.mark.parametrize(
    "command",
    [
        lambda c, u, k: turns.start_conflict(c, u, [k]),
        lambda c, u, k: turns.end_conflict(c, u),
        lambda c, u, k: turns.skip_turn(c, u, k),
        lambda c, u, k: turns.reorder(c, u, [k]),
        lambda c, u, k: turns.choose_next(c, u, k),
    ],
)
def test_observers_change_nothing(d20_campaign, fight, observer, kara, command):
    before = state(d20_campaign)

    with pytest.raises(PermissionDenied):
        command(d20_campaign.pk, observer, kara.pk)

    assert state(d20_campaign) == before


@pytest.mark.parametrize(
    "command",
    [
        lambda c, u, k: turns.start_conflict(c, u, [k]),
        lambda c, u, k: turns.end_conflict(c, u),
        lambda c, u, k: turns.skip_turn(c, u, k),
        lambda c, u, k: turns.insert_participant(c, u, k),
        lambda c, u, k: turns.reorder(c, u, [k]),
        lambda c, u, k: turns.reorder(c, u, [k], waiting=True),
    ],
)
def test_only_the_gm_runs_the_conflict(d20_campaign, fight, player, kara, command):
    before = state(d20_campaign)

    with pytest.raises(PermissionDenied):
        command(d20_campaign.pk, player, kara.pk)

    assert state(d20_campaign) == before


def order(campaign):
    conflict = turns.running_conflict(campaign)
    return list(conflict.participants.values_list("character__name", flat=True))


def test_the_gm_reorders_those_still_to_act_and_the_others_keep_their_places(
    d20_campaign, fight, gm, player, kara, lena, marcus
):
    """Issue 37: the to-act list's new order (drag and drop, Move up/down) names only
    those still to act; Kara, who has acted, stays where she was."""
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)

    event = turns.reorder(d20_campaign.pk, gm, [str(marcus.pk), str(lena.pk)], waiting=True)

    assert order(d20_campaign) == ["Kara", "Marcus", "Lena"]
    assert event.payload["action"] == "reordered"


@pytest.mark.parametrize(
    "ids",
    [
        lambda kara, lena, marcus: [marcus.pk, lena.pk, kara.pk],  # Kara has acted
        lambda kara, lena, marcus: [marcus.pk],  # Lena left out
        lambda kara, lena, marcus: [marcus.pk, marcus.pk],  # one twice
        lambda kara, lena, marcus: [marcus.pk, "Lena"],  # not an id
        lambda kara, lena, marcus: [],
    ],
)
def test_a_new_order_not_of_exactly_those_still_to_act_is_refused_and_changes_nothing(
    d20_campaign, fight, gm, player, kara, lena, marcus, ids
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    before = (state(d20_campaign), order(d20_campaign))

    with pytest.raises(ServiceError, match="everyone still to act once"):
        turns.reorder(d20_campaign.pk, gm, ids(kara, lena, marcus), waiting=True)

    assert (state(d20_campaign), order(d20_campaign)) == before


def test_a_second_conflict_is_refused_while_one_runs(d20_campaign, fight, gm, kara):
    before = state(d20_campaign)

    with pytest.raises(ServiceError, match="already running"):
        turns.start_conflict(d20_campaign.pk, gm, [kara.pk])

    assert state(d20_campaign) == before


def test_the_gm_skips_inserts_and_ends(d20_campaign, fight, gm, player, kara, lena, marcus):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.skip_turn(d20_campaign.pk, gm, kara.pk)
    extra = Character.objects.create(campaign=d20_campaign, owner=gm, name="Extra", is_npc=True)
    turns.insert_participant(d20_campaign.pk, gm, extra.pk)

    conflict = turns.running_conflict(d20_campaign)
    assert conflict.acting is None and conflict.last_side == "players"
    assert list(
        conflict.participants.filter(acted=False).values_list("character__name", flat=True)
    ) == [
        "Lena",
        "Marcus",
        "Extra",
    ]
    turns.end_conflict(d20_campaign.pk, gm)
    assert turns.running_conflict(d20_campaign) is None


def test_momenta_runs_the_gms_order_each_once_a_round(momenta_campaign, gm, player, hero, sidekick):
    turns.start_conflict(momenta_campaign.pk, gm, [sidekick.pk, hero.pk])
    assert acting(momenta_campaign) == sidekick.name

    turns.end_turn(momenta_campaign.pk, gm, sidekick.pk)
    assert acting(momenta_campaign) == hero.name
    turns.end_turn(momenta_campaign.pk, player, hero.pk)

    conflict = turns.running_conflict(momenta_campaign)
    assert conflict.round == 2 and acting(momenta_campaign) == sidekick.name
    with pytest.raises(ServiceError, match="no one keeps the initiative"):
        paid.keep_initiative(momenta_campaign.pk, player, hero.pk)


def test_the_scene_end_ends_its_conflict(d20_campaign, fight, gm, player, kara):
    from tables.live import render as live
    from tables.services import sessions

    turns.choose_next(d20_campaign.pk, player, kara.pk)
    event = sessions.end_scene(d20_campaign.pk, gm)

    assert turns.running_conflict(d20_campaign) is None
    assert not Conflict.objects.get(campaign=d20_campaign).participants.filter(acting=True)
    assert "No conflict is running." in live.render_event_fragments(event, "all")

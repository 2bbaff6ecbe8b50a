"""rules/turns.py: which side acts next, and when a side may Keep the Initiative (SC-01)."""

from rules.turns import GM, KEEP_INITIATIVE_COST, PLAYERS, may_keep, side_to_act


def test_sc01_keeping_the_initiative_costs_two():
    assert KEEP_INITIATIVE_COST == 2


def test_sc01_the_players_open_and_the_sides_alternate():
    both = {PLAYERS: 2, GM: 2}
    assert side_to_act("", both) == PLAYERS
    assert side_to_act(PLAYERS, both) == GM
    assert side_to_act(GM, both) == PLAYERS


def test_sc01_a_side_with_no_one_left_passes_to_the_other():
    assert side_to_act(PLAYERS, {PLAYERS: 1, GM: 0}) == PLAYERS
    assert side_to_act(PLAYERS, {PLAYERS: 0, GM: 0}) is None


def test_sc01_the_side_that_just_acted_may_keep_when_it_has_someone_left():
    assert may_keep(PLAYERS, False, {PLAYERS: 1, GM: 1})
    assert not may_keep(PLAYERS, False, {PLAYERS: 0, GM: 1})


def test_sc01a_a_side_keeps_the_initiative_once_in_a_row():
    assert not may_keep(PLAYERS, True, {PLAYERS: 1, GM: 1})


def test_sc01_keeping_is_no_choice_when_the_other_side_has_no_one_left():
    assert not may_keep(GM, False, {PLAYERS: 0, GM: 2})


def test_sc01_no_one_keeps_before_the_first_turn():
    assert not may_keep("", False, {PLAYERS: 2, GM: 2})


from rules.turns import (  # noqa: E402
    INITIATIVE,
    PLAYERS_FIRST,
    by_initiative,
    initiative_from,
    keep_payments,
    may_open_round,
    players_first_side,
    rules_for,
)


def test_sc04_conan_quickstart_players_first_then_the_gm():
    assert rules_for("conan").order == PLAYERS_FIRST
    assert players_first_side({PLAYERS: 1, GM: 2}) == PLAYERS
    assert players_first_side({PLAYERS: 0, GM: 2}) == GM


def test_sc04_fallout_core_combat_initiative_is_perception_plus_agility_highest_first():
    assert rules_for("fallout").order == INITIATIVE
    assert initiative_from({"PER": 5, "AGI": 4}) == 9
    assert initiative_from({"Perception": 5}) is None
    assert by_initiative([(1, 3), (2, 9), (3, 3)]) == [2, 1, 3]  # ties keep the GM's order


def test_sc05_sta_dev_blog_006_players_keep_by_adding_threat_when_momentum_is_short():
    sta = rules_for("sta2")
    assert keep_payments(sta, PLAYERS, 1, 2) == ("add_threat",)
    assert keep_payments(sta, PLAYERS, 2, 2) == ("spend", "add_threat")
    assert keep_payments(rules_for("seeds"), PLAYERS, 1, 2) == ()


def test_sc04_sta_dev_blog_006_the_gm_buys_an_opening_the_players_would_take():
    sta = rules_for("sta1")
    assert may_open_round(sta, True, PLAYERS, True, "")  # round 1: the players would open
    assert not may_open_round(sta, False, PLAYERS, True, "")  # someone has acted
    assert not may_open_round(rules_for("seeds"), True, PLAYERS, True, "")


def test_sc01a_after_the_gms_last_turn_an_npc_next_is_keeping_not_an_opening():
    # Round 2 after the GM's side ended round 1: the GM keeps the initiative (once in a
    # row) instead; an opening sold too gave two bought GM turns running.
    assert not may_open_round(rules_for("sta2"), True, PLAYERS, True, GM)
    assert may_open_round(rules_for("sta2"), True, PLAYERS, True, PLAYERS)

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

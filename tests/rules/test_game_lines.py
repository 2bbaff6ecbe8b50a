"""2d20 game lines (GL-01 … GL-03, suggested clauses): the table of lines and Determination
spent before the roll in Star Trek Adventures, 1st edition (GL-02) and 2nd edition (GL-03).
T-04 (the seeds' reroll) stays the default line's."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules import game_lines, pools
from rules.d20 import (
    InvalidTest,
    RerollRefused,
    SkillTest,
    reroll,
    roll_test,
    score_test,
    skill_odds,
)
from rules.game_lines import BONUS_ONE, DEFAULT, LINES, REROLL, SET_ONE, line_of
from rules.momentum import GroupPool


class FakeRandom:
    def __init__(self, faces):
        self.faces = list(faces)
        self.calls = 0

    def randint(self, low, high):
        self.calls += 1
        return self.faces.pop(0)


def test_gl_01_the_default_line_is_what_the_seeds_play():
    """GL-01: Momentum (6), Threat, Determination rerolls (T-04)."""
    line = line_of("")
    assert line.key == DEFAULT == "seeds"
    assert (line.group_pool, line.gm_pool, line.personal_pool) == (
        "Momentum",
        "Threat",
        "Determination",
    )
    assert line.personal_spend == REROLL and not line.spends_before_roll
    assert line.group_max == pools.GROUP_POOL_MAX == 6


def test_gl_01_each_line_names_its_pools():
    assert (LINES["conan"].gm_pool, LINES["conan"].personal_pool) == ("Doom", "Fortune")
    assert (LINES["fallout"].group_pool, LINES["fallout"].personal_pool) == (
        "Action Points",
        "Luck",
    )
    assert {k for k, line in LINES.items() if line.personal_spend == BONUS_ONE} == {
        "sta1",
        "conan",
    }
    assert {k for k, line in LINES.items() if line.personal_spend == SET_ONE} == {
        "sta2",
        "dune",
        "achtung",
    }
    # GL-02: Conan's and Achtung! Cthulhu's Fortune buys nothing after the roll.
    assert {k for k, line in LINES.items() if not line.rerolls_after} == {"conan", "achtung"}
    fallout = LINES["fallout"]  # Stacked Deck before, Miss Fortune (one d20, no leave) after
    assert (fallout.personal_spend, fallout.reroll_most_dice, fallout.reroll_needs_leave) == (
        game_lines.STACKED_DECK,
        1,
        False,
    )
    assert fallout.personal_bounds(7) == (7, 7) and fallout.personal_bounds(None) == (None, None)
    assert LINES["sta2"].personal_bounds(7) == (3, 1)
    assert all(line.group_max == 6 for line in LINES.values())


def test_gl_01_an_unknown_line_is_refused():
    with pytest.raises(ValueError, match="unknown game line"):
        line_of("sta3")


def test_gl_01_a_line_with_an_impossible_cap_or_spend_cannot_be_declared():
    with pytest.raises(ValueError, match="group cap"):
        game_lines.GameLine("x", "X", group_cap=0)
    with pytest.raises(ValueError, match="personal spend"):
        game_lines.GameLine("x", "X", personal_spend="double")


def test_gl_01_mo_06_a_lines_cap_bounds_the_group_pool():
    """GL-01, MO-06: a line's cap replaces the default in rules.pools; gains beyond it are lost."""
    step = pools.change(pools.GROUP_MOMENTUM, 3, 4, own_cap=4)
    assert (step.after, step.lost, step.cap) == (4, 3, 4)
    assert pools.change(pools.GROUP_MOMENTUM, 3, 4).after == 6  # no line cap: MO-06
    pool, entry = GroupPool(3, own_cap=4).gain(4, "saved")
    assert (pool.value, entry.lost, pool.cap) == (4, 3, 4)
    with pytest.raises(pools.PoolOutOfBounds, match="at most 4"):
        GroupPool(5, own_cap=4)


def test_gl_01_the_caps_for_the_database_cover_every_line_once():
    keys = [k for ks in game_lines.caps().values() for k in ks]
    assert sorted(keys) == sorted(LINES)


# --- Determination before the roll ---------------------------------------------------


def _spent(key, **kw):
    ones, extra = LINES[key].determination_dice(True)
    return SkillTest(ones=ones, extra_dice=extra, **kw)


def test_gl_02_sta_1st_edition_adds_a_bonus_d20_showing_1():
    """GL-02: 2d20 + Determination is three dice, the first a 1 (2 successes), unrolled."""
    test = _spent("sta1", target=10, difficulty=2)
    assert test.dice == 3
    rng = FakeRandom([15, 20])
    result = roll_test(test, rng)
    assert result.faces == (1, 15, 20)
    assert rng.calls == 2
    assert (result.successes, result.passed, result.complications) == (2, True, 1)


def test_gl_03_the_bonus_die_counts_within_the_three_bonus_dice():
    """GL-03, STA 1st ed. core (Perfect Opportunity: the normal limit of bought d20s still
    applies): 5d20 in all."""
    assert _spent("sta1", target=10, bought_dice=2).dice == 5
    with pytest.raises(InvalidTest, match="At most 3 bonus d20s"):
        _spent("sta1", target=10, bought_dice=3)


def test_gl_03_sta_2nd_edition_sets_one_of_the_pools_d20s_to_1():
    """GL-03: the pool stays 2d20; one shows 1 and only the other is rolled."""
    test = _spent("sta2", target=10, difficulty=2)
    assert test.dice == 2
    rng = FakeRandom([15])
    result = roll_test(test, rng)
    assert result.faces == (1, 15)
    assert rng.calls == 1
    assert (result.successes, result.passed) == (2, True)


def test_gl_03_a_die_set_to_1_must_show_1_and_is_not_rerolled():
    test = _spent("sta2", target=10)
    with pytest.raises(InvalidTest, match="shows 1"):
        score_test(test, (7, 15))
    result = score_test(test, (1, 15))
    with pytest.raises(RerollRefused, match="not rerolled"):
        reroll(result, [0], faces=[20])
    assert reroll(result, [1], faces=[3]).faces == (1, 3)


def test_gl_01_t_04_the_reroll_lines_spend_nothing_before_the_roll():
    assert LINES["seeds"].determination_dice(False) == (0, 0)
    with pytest.raises(ValueError, match="after the roll"):
        LINES["seeds"].determination_dice(True)


def _brute(test: SkillTest):
    """Every combination of the rolled dice (the set ones fixed at 1), scored by the rules."""
    rolled = test.dice - test.ones
    passed = Counter()
    momentum = Counter()
    complicated = 0
    for faces in itertools.product(range(1, 21), repeat=rolled):
        result = score_test(test, (1,) * test.ones + faces)
        passed[result.passed] += 1
        momentum[result.momentum] += 1
        complicated += result.complications > 0
    total = 20**rolled
    return (
        Fraction(passed[True], total),
        {m: Fraction(n, total) for m, n in momentum.items()},
        Fraction(complicated, total),
    )


@pytest.mark.parametrize(
    ("key", "target", "focus", "difficulty", "bought", "complication_range"),
    [
        ("sta1", 10, 1, 3, 0, 1),
        ("sta1", 14, 4, 4, 1, 2),
        ("sta1", 9, 2, 5, 2, 5),  # 5d20: two bought and the Determination die
        ("sta2", 10, 1, 3, 0, 1),
        ("sta2", 12, 3, 4, 1, 3),
        ("sta2", 9, 1, 2, 0, 20),  # every face complicates, the set 1 too
        ("conan", 11, 3, 3, 1, 1),  # Fortune: a d20 counting as 1, within the bonus dice
        ("conan", 8, 1, 5, 2, 2),
        ("achtung", 10, 2, 3, 1, 1),  # Fortune: one d20 declared a 1
        ("dune", 12, 4, 4, 2, 1),  # Determination: Automatic 1
    ],
)
def test_gl_02_gl_03_t_05_exact_odds_equal_brute_force(
    key, target, focus, difficulty, bought, complication_range
):
    """T-05 with GL-02 / GL-03: the preview's exact odds match enumerating every roll."""
    test = _spent(
        key,
        target=target,
        focus=focus,
        difficulty=difficulty,
        bought_dice=bought,
        complication_range=complication_range,
    )
    exact = skill_odds(test)
    pass_chance, momentum, complication = _brute(test)
    assert exact.pass_chance == pass_chance
    assert exact.momentum == momentum
    assert exact.complication_chance == complication


def test_gl_03_setting_a_die_to_1_beats_rolling_it():
    """GL-02 vs GL-03 vs the plain test: Difficulty 3 at target 10."""
    plain = skill_odds(SkillTest(target=10, difficulty=3))
    set_one = skill_odds(_spent("sta2", target=10, difficulty=3))
    bonus = skill_odds(_spent("sta1", target=10, difficulty=3))
    assert plain.pass_chance < set_one.pass_chance < bonus.pass_chance
    assert set_one.pass_chance == Fraction(1, 2)  # the set 1 scores 2; the other die ≤ 10
    assert bonus.pass_chance == 1 - Fraction(10, 20) ** 2  # one of two rolled dice ≤ 10


# --- GL-05: the complication range -----------------------------------------------------


def test_gl_05_a_rolls_range_widens_the_gms_never_narrows_it():
    seeds = LINES["seeds"]
    assert seeds.roll_range(3) == 3
    assert seeds.roll_range(3, 1) == 3  # the player's 1 does not beat the GM's 3
    assert seeds.roll_range(3, 6) == 6
    assert seeds.complication_max == 20


def test_gl_05_star_trek_bounds_the_range_at_16_to_20():
    """Star Trek Adventures core rulebooks (1st and 2nd edition), Complication Range: 1 to 5,
    at most complications on 16–20."""
    for key in ("sta1", "sta2"):
        assert LINES[key].complication_max == 5
        assert LINES[key].roll_range(8) == 5
        assert LINES[key].roll_range(2, 5) == 5
    with pytest.raises(ValueError, match="complication range"):
        game_lines.GameLine("x", "X", complication_max=21)


# --- Conan, Achtung! Cthulhu, Dune ------------------------------------------------------


def test_gl_02_conan_fortune_adds_a_d20_counting_as_1_within_the_bonus_dice():
    """GL-02, GL-03, Robert E. Howard's Conan core rulebook (Fortune: a bonus d20 that
    counts as having rolled a 1; bonus d20s, however gained, stop at three)."""
    test = _spent("conan", target=9, difficulty=3, bought_dice=2)
    assert test.dice == 5
    result = roll_test(test, FakeRandom([20, 10, 9, 3]))
    assert result.faces == (1, 20, 10, 9, 3)
    assert (result.successes, result.momentum) == (4, 1)  # 1 → 2, 20 and 10 miss, 9 and 3 hit
    with pytest.raises(InvalidTest, match="At most 3"):
        _spent("conan", target=9, bought_dice=3)


def test_gl_02_achtung_fortune_declares_one_d20_a_1_instead_of_rolling_it():
    """GL-02, Achtung! Cthulhu 2d20 core (Fortune: one d20 counts as a 1, not rolled):
    the pool stays 2d20, one rolled."""
    test = _spent("achtung", target=8, difficulty=3)
    rng = FakeRandom([8])
    result = roll_test(test, rng)
    assert (result.faces, rng.calls, result.successes, result.passed) == ((1, 8), 1, 3, True)


def test_gl_02_dune_a_rerolled_die_is_not_rerolled_again():
    """Dune: Adventures in the Imperium core rulebook (Re-rolls: "Once you've re-rolled a
    die, you may not re-roll it again: the second result stands")."""
    test = _spent("dune", target=10, difficulty=2, bought_dice=1)
    first = score_test(test, (1, 15, 20))
    once = LINES["dune"].reroll_once
    second = reroll(first, [2], faces=[18], once=once)
    with pytest.raises(RerollRefused, match="second result stands"):
        reroll(second, [2], faces=[3], once=once)
    assert reroll(second, [1], faces=[3], once=once).faces == (1, 3, 18)
    assert reroll(second, [2], faces=[3]).faces == (1, 15, 3)  # the seeds' T-04 allows it


# --- GL-06: what assistance costs --------------------------------------------------------


def test_gl_06_sta_2nd_edition_charges_each_assistant_after_the_first():
    """GL-06, STA 2nd ed. core p. 255 ("You may accept one assistant at no cost on any
    individual task ... each assistant after the first either costs 1 Momentum or adds 1
    Threat", quoted on r/startrekadventures, "Is the ship an assistant? [2E]"); every
    other line lets assistants in free."""
    sta2 = LINES["sta2"]
    assert [sta2.assistance_cost(n) for n in range(5)] == [0, 0, 1, 2, 3]
    for key in ("seeds", "sta1", "conan", "fallout", "dune", "achtung"):
        assert LINES[key].assistance_cost(4) == 0, key
    with pytest.raises(ValueError, match="whole number"):
        sta2.assistance_cost(-1)
    with pytest.raises(ValueError, match="free assistants"):
        game_lines.GameLine("odd", "Odd", free_assistants=-1)


def test_gl_06_assistants_are_paid_in_momentum_or_threat_as_bought_dice_are():
    """GL-06 with MO-08's split: a player pays some from the group pool and adds the rest
    to Threat; the GM pays an NPC's from Threat, never Momentum."""
    from rules.ledger import GM, GROUP_MOMENTUM, PLAYER, THREAT
    from rules.momentum import SpendRefused, Threat, pay_for_assistants

    paid = pay_for_assistants(
        2, actor=PLAYER, threat=Threat(0), momentum=GroupPool(3), from_momentum=1
    )
    assert (paid.cost, paid.from_momentum, paid.to_threat) == (2, 1, 1)
    assert [(e.pool, e.delta) for e in paid.entries] == [(GROUP_MOMENTUM, -1), (THREAT, 1)]
    assert paid.momentum.value == 2 and paid.threat.value == 1
    assert "after the first (GL-06)" in paid.entries[0].reason
    npc = pay_for_assistants(1, actor=GM, threat=Threat(2))
    assert (npc.threat_spent, npc.threat.value) == (1, 1)
    with pytest.raises(SpendRefused, match="not Momentum"):
        pay_for_assistants(1, actor=GM, threat=Threat(2), from_momentum=1)
    with pytest.raises(SpendRefused, match="between 0 and 1"):
        pay_for_assistants(
            1, actor=PLAYER, threat=Threat(0), momentum=GroupPool(3), from_momentum=2
        )

"""2d20 skill tests: T-R1, T-R2, T-03, T-04, T-05, MO-01."""

import itertools
import secrets
from collections import Counter
from fractions import Fraction

import pytest

from rules.d20 import (
    Assistant,
    InvalidTest,
    RerollRefused,
    SkillTest,
    determination_reroll,
    die_successes,
    expected_momentum,
    is_complication,
    momentum_distribution,
    pass_chance,
    reroll,
    roll_test,
    score_test,
    skill_odds,
)
from rules.errors import RulesError
from rules.ledger import DETERMINATION, NotEnoughInPool


class FakeRandom:
    """A random source that returns the faces a test chose, in order."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.calls = []

    def randint(self, low, high):
        self.calls.append((low, high))
        return self.faces.pop(0)


# --- brute force over every face combination (tests only) ---------------------


def brute_histogram(target, dice, focus):
    """Successes of every one of the 20**dice face combinations, counted."""
    per_face = [2 if f <= focus else 1 if f <= target else 0 for f in range(1, 21)]
    return Counter(map(sum, itertools.product(per_face, repeat=dice)))


def brute_pass(histogram, dice, difficulty):
    hits = sum(n for successes, n in histogram.items() if successes >= difficulty)
    return Fraction(hits, 20**dice)


def brute_momentum(histogram, dice, difficulty):
    out = Counter()
    for successes, n in histogram.items():
        out[successes - difficulty if successes >= difficulty else 0] += n
    return {m: Fraction(n, 20**dice) for m, n in out.items()}


BRUTE_CASES = [
    # (target, focus, dice): 2–5 dice, several targets and focus values
    (10, 1, 2),
    (14, 4, 2),
    (20, 1, 2),
    (1, 1, 2),
    (8, 1, 3),
    (13, 3, 3),
    (11, 2, 4),
    (16, 5, 4),
    (12, 3, 5),
]


@pytest.mark.parametrize(("target", "focus", "dice"), BRUTE_CASES)
def test_t_05_pass_chance_equals_brute_force(target, focus, dice):
    """T-05: the exact chance to pass matches enumerating every face combination."""
    histogram = brute_histogram(target, dice, focus)
    for difficulty in range(0, 7):
        expected = brute_pass(histogram, dice, difficulty)
        assert pass_chance(target, difficulty, dice, focus) == expected


@pytest.mark.parametrize(("target", "focus", "dice"), BRUTE_CASES)
def test_t_05_momentum_distribution_equals_brute_force(target, focus, dice):
    """T-05, MO-01: the Momentum distribution (0 covering failure) matches brute force."""
    histogram = brute_histogram(target, dice, focus)
    for difficulty in range(0, 6):
        expected = brute_momentum(histogram, dice, difficulty)
        got = momentum_distribution(target, difficulty, dice, focus)
        assert {m: p for m, p in got.items() if p} == expected
        assert sum(got.values()) == 1
        mean = sum(m * p for m, p in expected.items())
        assert expected_momentum(target, difficulty, dice, focus) == mean


def test_t_05_known_values():
    """T-05: a few values worked by hand."""
    # Difficulty 0 always passes; 2d20 at target 10, Difficulty 1: 1 − (10/20)².
    assert pass_chance(10, 0) == 1
    assert pass_chance(10, 1) == Fraction(3, 4)
    # Difficulty 4 on 2d20 needs both dice at or under focus 1.
    assert pass_chance(10, 4) == Fraction(1, 400)
    assert momentum_distribution(10, 4) == {0: 1}
    assert isinstance(pass_chance(10, 2), Fraction)


def test_t_05_results_are_copies():
    """T-05: the cached distribution cannot be corrupted by a caller."""
    first = momentum_distribution(12, 1, 3, 2)
    first[99] = Fraction(1)
    assert 99 not in momentum_distribution(12, 1, 3, 2)


@pytest.mark.parametrize(
    "args", [(0, 1, 2, 1), (10, -1, 2, 1), (10, 1, 0, 1), (10, 1, 2, 0), (10, 1, 2, 21)]
)
def test_t_05_bad_odds_arguments_are_refused(args):
    with pytest.raises(InvalidTest):
        pass_chance(*args)


def test_t_05_skill_odds_with_assistance_equal_brute_force():
    """T-05, T-03: odds with an assistant (help counted only if the leader scores)."""
    test = SkillTest(
        target=9, difficulty=3, focus=2, bought_dice=1, assistants=(Assistant("Anna", 11, 3),)
    )
    hits = momentum = complications = 0
    total = 20**4
    for *own, helper in itertools.product(range(1, 21), repeat=4):
        result = score_test(test, own, [(helper,)])
        hits += result.passed
        momentum += result.momentum
        complications += result.complications > 0
    odds = skill_odds(test)
    assert odds.pass_chance == Fraction(hits, total)
    assert odds.expected_momentum == Fraction(momentum, total)
    assert odds.complication_chance == Fraction(complications, total)
    assert sum(odds.momentum.values()) == 1


def test_t_05_skill_odds_without_assistance_match_pass_chance():
    test = SkillTest(target=12, difficulty=2, focus=3, factors=(1, -1, 1))
    odds = skill_odds(test)
    assert odds.pass_chance == pass_chance(12, 3, 2, 3)
    assert odds.momentum == momentum_distribution(12, 3, 2, 3)
    assert odds.complication_chance == 1 - Fraction(19, 20) ** 2


# --- T-R1 -------------------------------------------------------------------


def test_t_r1_die_at_or_under_target_is_one_success():
    assert die_successes(10, target=10) == 1
    assert die_successes(11, target=10) == 0
    assert die_successes(1, target=10) == 2  # default focus 1


def test_t_r1_die_at_or_under_focus_is_two_successes():
    assert die_successes(4, target=12, focus=4) == 2
    assert die_successes(5, target=12, focus=4) == 1


def test_t_r1_complication_range_default_is_only_20s():
    assert is_complication(20)
    assert not is_complication(19)


def test_t_r1_complication_range_widens_from_the_top():
    """T-R1 ruling: range r makes faces ≥ 21 − r complications."""
    assert [f for f in range(1, 21) if is_complication(f, 3)] == [18, 19, 20]
    test = SkillTest(target=20, difficulty=0, complication_range=2)
    result = score_test(test, (19, 20))
    assert result.complications == 2
    assert result.successes == 2  # a complication can still be a success


def test_t_r1_pool_is_two_dice_plus_bought_dice():
    assert SkillTest(target=10).dice == 2
    assert SkillTest(target=10, bought_dice=3).dice == 5
    with pytest.raises(InvalidTest, match="between 0 and 3"):
        SkillTest(target=10, bought_dice=4)


def test_t_r1_faces_are_checked():
    test = SkillTest(target=10)
    with pytest.raises(InvalidTest, match="needs 2"):
        score_test(test, (1, 2, 3))
    with pytest.raises(InvalidTest, match="1 to 20"):
        score_test(test, (1, 21))
    with pytest.raises(InvalidTest, match="1 to 20"):
        score_test(test, (0, 5))


def test_t_r1_rolls_with_the_injected_random_source():
    rng = FakeRandom([3, 15, 9, 20])
    test = SkillTest(target=10, bought_dice=1, assistants=(Assistant("Anna", 8),))
    result = roll_test(test, rng)
    assert result.faces == (3, 15, 9)
    assert result.assistance_faces == ((20,),)
    assert rng.calls == [(1, 20)] * 4


def test_t_r1_default_random_source_is_the_system_one():
    results = [roll_test(SkillTest(target=10)) for _ in range(20)]
    assert all(1 <= f <= 20 for r in results for f in r.faces)
    assert isinstance(secrets.SystemRandom(), secrets.SystemRandom)


# --- T-R2, MO-01 -----------------------------------------------------------


def test_t_r2_passes_when_successes_reach_difficulty():
    test = SkillTest(target=10, difficulty=2)
    assert score_test(test, (5, 9)).passed
    assert not score_test(test, (5, 19)).passed


def test_t_r2_factors_move_difficulty_and_never_below_zero():
    assert SkillTest(target=10, difficulty=2, factors=(1, 1)).final_difficulty == 4
    assert SkillTest(target=10, difficulty=1, factors=(-1, -1, -1)).final_difficulty == 0
    result = score_test(SkillTest(target=10, difficulty=1, factors=(-1, -1)), (15, 16))
    assert result.difficulty == 0 and result.passed and result.momentum == 0


def test_t_r2_difficulty_is_zero_to_five_unless_opposed():
    with pytest.raises(InvalidTest, match="between 0 and 5"):
        SkillTest(target=10, difficulty=6)
    with pytest.raises(InvalidTest):
        SkillTest(target=10, difficulty=-1)
    assert SkillTest(target=10, difficulty=7, opposed=True).final_difficulty == 7


def test_t_r2_a_factor_is_plus_or_minus_one():
    with pytest.raises(InvalidTest, match="by 1"):
        SkillTest(target=10, factors=(2,))


def test_mo_01_each_success_beyond_difficulty_is_momentum():
    result = score_test(SkillTest(target=12, difficulty=1, focus=2), (2, 7))
    assert result.successes == 3
    assert result.momentum == 2


def test_mo_01_failed_test_generates_no_momentum():
    result = score_test(SkillTest(target=12, difficulty=3, bonus_momentum=2), (2, 17))
    assert not result.passed
    assert result.momentum == 0
    assert result.bonus_momentum == 0  # MO-05: bonus only adds to a passed test


def test_mo_05_bonus_momentum_adds_to_a_passed_test():
    test = SkillTest(target=12, difficulty=1, bonus_momentum=2, bonus_restricted_to={"x"})
    result = score_test(test, (5, 7))
    assert result.momentum == 1
    assert result.bonus_momentum == 2
    assert result.total_momentum == 3
    assert test.bonus_restricted_to == frozenset({"x"})


def test_kara_obtain_information_roll_yields_one_momentum():
    """MO-01, seed 000: Kara scores 4 successes against Difficulty 3: 1 Momentum."""
    result = score_test(SkillTest(target=11, difficulty=3, focus=2), (1, 2))
    assert result.successes == 4
    assert result.passed
    assert result.momentum == 1


# --- T-03 -------------------------------------------------------------------


def test_t_03_assistance_successes_join_the_leaders():
    test = SkillTest(target=10, difficulty=3, assistants=(Assistant("Anna", 12, 3),))
    result = score_test(test, (5, 15), [(2,)])
    assert result.own_successes == 1
    assert result.assistance_successes == 2  # Anna's focus 3
    assert result.successes == 3
    assert result.passed


def test_t_03_assistance_counts_only_if_the_leader_scores():
    test = SkillTest(target=10, difficulty=1, assistants=(Assistant("Anna", 12),))
    result = score_test(test, (15, 16), [(2,)])
    assert result.assistance_successes == 1
    assert not result.assistance_counted
    assert result.successes == 0
    assert not result.passed


def test_t_03_ruling_off_counts_assistance_regardless():
    test = SkillTest(
        target=10,
        difficulty=1,
        assistants=(Assistant("Anna", 12),),
        assistance_needs_leader_success=False,
    )
    result = score_test(test, (15, 16), [(2,)])
    assert result.successes == 1
    assert result.passed


def test_t_03_assistance_dice_are_not_part_of_the_pool():
    test = SkillTest(target=10, assistants=(Assistant("Anna", 12), Assistant("Bo", 9)))
    result = score_test(test, (5, 6), [(20,), (3,)])
    assert len(result.faces) == 2
    assert result.assistance_faces == ((20,), (3,))
    assert result.own_complications == 0
    assert result.complications == 1
    with pytest.raises(InvalidTest, match="2 assistants"):
        score_test(test, (5, 6), [(20,)])


# --- T-04 -------------------------------------------------------------------


def test_t_04_reroll_chosen_dice_of_own_pool():
    test = SkillTest(target=10, difficulty=2, bought_dice=1)
    first = score_test(test, (5, 15, 18))
    again = reroll(first, [1, 2], faces=(4, 1))
    assert again.faces == (5, 4, 1)
    assert again.successes == 4
    assert again.rerolled == (1, 2)
    assert first.faces == (5, 15, 18)  # the first result is unchanged


def test_t_04_reroll_uses_the_injected_random_source():
    first = score_test(SkillTest(target=10), (15, 18))
    again = reroll(first, [0], rng=FakeRandom([2]))
    assert again.faces == (2, 18)


def test_t_04_assistance_dice_cannot_be_rerolled():
    test = SkillTest(target=10, assistants=(Assistant("Anna", 9),))
    first = score_test(test, (15, 18), [(17,)])
    with pytest.raises(RerollRefused, match="Assistance dice"):
        reroll(first, [2], faces=(1,))


@pytest.mark.parametrize(
    ("indices", "match"), [([], "at least one"), ([0, 0], "once"), ([5], "#5")]
)
def test_t_04_bad_reroll_choices_are_refused(indices, match):
    first = score_test(SkillTest(target=10), (15, 18))
    with pytest.raises(RerollRefused, match=match):
        reroll(first, indices, faces=(1,) * len(indices))


def test_t_04_determination_reroll_spends_one_with_the_gms_leave():
    first = score_test(SkillTest(target=10, difficulty=2), (5, 15))
    spent = determination_reroll(
        first, [1], determination=2, holder="Kara", gm_permits=True, faces=(3,)
    )
    assert spent.result.passed
    assert spent.determination == 1
    (entry,) = spent.entries
    assert (entry.pool, entry.holder, entry.delta, entry.after) == (DETERMINATION, "Kara", -1, 1)
    assert "T-04" in entry.reason


def test_t_04_determination_needs_the_gm_and_a_point():
    first = score_test(SkillTest(target=10), (5, 15))
    with pytest.raises(RerollRefused, match="GM"):
        determination_reroll(first, [1], determination=1, holder="Kara", gm_permits=False)
    with pytest.raises(NotEnoughInPool, match="no Determination"):
        determination_reroll(first, [1], determination=0, holder="Kara", gm_permits=True)


def test_every_refusal_is_a_rules_error_with_a_message():
    for build in (
        lambda: SkillTest(target=0),
        lambda: SkillTest(target=10, focus=0),
        lambda: SkillTest(target=10, complication_range=0),
        lambda: SkillTest(target=10, bonus_momentum=-1),
        lambda: Assistant("Anna", 0),
    ):
        with pytest.raises(RulesError) as caught:
            build()
        assert str(caught.value)

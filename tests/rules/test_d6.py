"""Momenta d6 pools: building, rolling and reading a roll (D6-01..D6-11, PAT-R2, PM-R1, RS-01)."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules.d6 import (
    IllegalRefund,
    InvalidRoll,
    RollSpec,
    apply_allocation,
    band_of,
    count_successes,
    resolve_roll,
)
from rules.dice import FixedDice, roll_d6, system_random
from rules.errors import RulesError
from rules.odds import band_distribution
from rules.templates import (
    DEFAULT_BAND_LABELS,
    InvalidTemplate,
    RollTemplate,
    divide,
)

SWORD = RollTemplate(
    name="Sword",
    bands=("Scratch", "Cut", "Wound", "Maim"),
    overflow="The target staggers",
    damage=(1, 2, 3, 4),
)


def roll(faces, opposition_faces=None, **spec):
    return resolve_roll(RollSpec(**spec), faces=faces, opposition_faces=opposition_faces)


# --- D6-01 successes --------------------------------------------------------------------


def test_d6_01_fives_and_sixes_are_successes():
    """D6-01: each die showing 5 or 6 is one success; 1-4 are not."""
    result = roll([1, 2, 3, 4, 5, 6], attribute=6)
    assert result.successes == 2
    assert count_successes([5, 5, 6, 6]) == 4
    assert count_successes([4, 4, 4]) == 0


def test_d6_01_pool_rolls_one_die_per_pool_dice_with_injected_source():
    """D6-01: the pool rolls exactly as many d6 as its size, from the injected source."""
    result = resolve_roll(RollSpec(attribute=3), rng=FixedDice([6, 1, 5]))
    assert result.faces == (6, 1, 5)
    assert result.successes == 2


def test_d6_01_production_source_is_the_system_csprng():
    """D6-01 / TB-02: without a source, faces come from secrets.SystemRandom."""
    import secrets

    assert isinstance(system_random(), secrets.SystemRandom)
    faces = roll_d6(200)
    assert len(faces) == 200 and set(faces) <= set(range(1, 7))
    result = resolve_roll(RollSpec(attribute=4))
    assert len(result.faces) == 4


def test_d6_01_seeded_random_is_accepted_as_source():
    """D6-01: any object with randint works as the source (random.Random for replays)."""
    a = resolve_roll(RollSpec(attribute=5), rng=random.Random(7))
    b = resolve_roll(RollSpec(attribute=5), rng=random.Random(7))
    assert a.faces == b.faces


def test_d6_01_given_faces_must_match_pool_and_be_d6_faces():
    """D6-01: chosen faces are checked: one per die, each 1 to 6."""
    with pytest.raises(InvalidRoll, match="needs 3"):
        roll([5, 5], attribute=3)
    with pytest.raises(InvalidRoll, match="1 to 6"):
        roll([5, 7, 1], attribute=3)


# --- D6-02 / D6-03 bands and overflow ---------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "band"),
    [([1, 2, 3, 4], 0), ([5, 2, 3, 4], 1), ([5, 6, 3, 4], 2), ([5, 6, 6, 4], 3), ([5, 6, 6, 5], 3)],
)
def test_d6_02_band_is_read_from_effective_successes(faces, band):
    """D6-02: bands 0, 1, 2, 3+ from effective successes."""
    result = roll(faces, attribute=4)
    assert result.band == band
    assert result.outcome == DEFAULT_BAND_LABELS[band]


def test_d6_02_zero_successes_is_a_graze_that_still_reads_band_zero_text():
    """D6-02: 0 successes is the graze band, which still has its own outcome text."""
    result = roll([1, 2, 3], attribute=3, template=SWORD, kind="attack", play="structured")
    assert result.graze and result.band == 0
    assert result.outcome == "Scratch"
    assert result.damage == 1  # the weakest outcome still does something


def test_d6_02_band_of_caps_at_three():
    """D6-02: anything above 3 reads as the 3+ band."""
    assert [band_of(n) for n in range(7)] == [0, 1, 2, 3, 3, 3, 3]


def test_d6_03_overflow_counts_each_success_above_three():
    """D6-03: each effective success above 3 applies the overflow effect once."""
    result = roll([5, 6, 6, 5, 6, 1], attribute=6, template=SWORD, kind="attack")
    assert result.effective_successes == 5
    assert result.overflow == 2
    assert result.overflow_effect == "The target staggers"
    assert roll([5, 6, 6, 1], attribute=4).overflow == 0


def test_d6_03_overflow_damage_adds_per_overflow_success():
    """D6-03: a template may give overflow harm, applied once per overflow success."""
    template = RollTemplate(damage=(0, 1, 2, 3), overflow="+1 damage", overflow_damage=1)
    result = roll([5, 6, 6, 5, 6], attribute=5, template=template, kind="attack")
    assert result.overflow == 2 and result.damage == 3 + 2


# --- D6-05, D6-R1: a template that divides its harm -------------------------------------

HALVED = (0, 1, 3, 5)  # band 0..3+ before the division


@pytest.mark.parametrize(
    ("rounding", "by_band"),
    [("down", (0, 0, 1, 2)), ("up", (0, 1, 2, 3)), ("nearest", (0, 1, 2, 3))],
)
def test_d6_05_a_halving_template_rounds_its_harm_as_it_says(rounding, by_band):
    """D6-05 (seed 002: "Always round down ... unless specifically called out"): a template
    dividing harm by 2 gives, per band, half of 0/1/3/5, rounded its way (1/2 and 5/2
    round up to the nearest)."""
    template = RollTemplate(damage=HALVED, harm_divisor=2, rounding=rounding)
    faces_by_band = ([1, 2, 3], [5, 2, 3], [5, 6, 3], [5, 6, 6])
    got = tuple(
        roll(faces, attribute=3, template=template, kind="attack", patterns=()).damage
        for faces in faces_by_band
    )
    assert got == by_band


def test_d6_05_rounds_down_unless_the_template_says_otherwise():
    """D6-05: a new template rounds down; 7 harm (band 3+ 5, overflow 2) halves to 3."""
    template = RollTemplate(damage=HALVED, overflow_damage=1, harm_divisor=2)
    assert template.rounding == "down"
    result = roll([5, 6, 6, 5, 6], attribute=5, template=template, kind="attack", patterns=())
    assert result.overflow == 2 and result.damage == 3


def test_d6_r1_solid_hits_harm_is_divided_with_the_rest():
    """D6-R1 (ruling), PAT-06: the divisor applies to the whole harm, Solid Hit's +N in:
    band 2 (3) + Solid Hit on double 5 (+5) = 8, halved 4 (not 1 + 5 = 6)."""
    template = RollTemplate(damage=HALVED, harm_divisor=2)
    result = roll([5, 5, 2], attribute=3, template=template, kind="attack")
    assert result.damage == 1  # before the patterns: 3 halved
    applied = apply_allocation(result, [("Solid Hit", 5)])
    assert (applied.damage_bonus, applied.damage) == (5, 4)


def test_d6_05_exact_harm_odds_of_a_halved_3d6_attack_equal_brute_force():
    """D6-05, D6-12: the chance of each harm of a halved attack (rounded up), exact from
    the band odds, equals counting all 216 rolls of 3d6."""
    template = RollTemplate(damage=HALVED, harm_divisor=2, rounding="up")
    exact = {}
    for band, chance in band_distribution(3).items():
        harm = template.harm_dealt(HALVED[band])
        exact[harm] = exact.get(harm, Fraction(0)) + chance
    counted = Counter(
        roll(list(faces), attribute=3, template=template, kind="attack", patterns=()).damage
        for faces in itertools.product(range(1, 7), repeat=3)
    )
    assert exact == {harm: Fraction(n, 216) for harm, n in counted.items()}
    assert sorted(exact) == [0, 1, 2, 3]  # 0, 1, 3, 5 halved, rounded up
    assert exact[1] == Fraction(4, 9)  # band 1: 3 * 2 * 4 * 4 / 216


@pytest.mark.parametrize("divisor", [0, -1, 11, 1.5, True])
def test_d6_05_an_impossible_divisor_is_refused(divisor):
    with pytest.raises(InvalidTemplate, match="divisor"):
        RollTemplate(harm_divisor=divisor)


def test_d6_05_old_templates_divide_nothing():
    """A template stored before the divisor existed reads as dividing by 1."""
    template = RollTemplate.from_dict({"damage": [1, 2, 3, 4], "rounding": "up"})
    assert template.harm_divisor == 1 and template.harm_dealt(3) == 3
    assert RollTemplate.from_dict(template.to_dict()) == template


# --- D6-04 / D6-05 / PAT-R2 templates ---------------------------------------------------


def test_d6_04_template_defines_band_texts_overflow_and_damage():
    """D6-04: the template gives each band's text, the overflow effect and damage per band."""
    for faces, text, damage in [
        ([1, 1, 1], "Scratch", 1),
        ([5, 1, 1], "Cut", 2),
        ([5, 5, 1], "Wound", 3),
        ([5, 5, 6], "Maim", 4),
    ]:
        result = roll(faces, attribute=3, template=SWORD, kind="attack", play="structured")
        assert (result.outcome, result.damage) == (text, damage)


def test_d6_04_template_round_trips_through_json_dict():
    """D6-04: templates are stored as plain JSON data."""
    import json

    data = json.loads(json.dumps(SWORD.to_dict()))
    assert RollTemplate.from_dict(data) == SWORD
    assert RollTemplate.from_dict({}) == RollTemplate()


def test_d6_04_bad_templates_are_refused_with_readable_messages():
    """D6-04: a template needs four band texts and four damage values."""
    with pytest.raises(InvalidTemplate, match="bands 0, 1, 2, 3"):
        RollTemplate(bands=("a", "b", "c"))
    with pytest.raises(InvalidTemplate, match="four whole numbers"):
        RollTemplate(damage=(1, 2, 3))
    with pytest.raises(InvalidTemplate, match="Harm must be"):
        RollTemplate(harm="fire")
    with pytest.raises(InvalidTemplate, match="Unknown roll template fields"):
        RollTemplate.from_dict({"colour": "red"})
    assert issubclass(InvalidTemplate, RulesError)


def test_d6_04_damage_is_only_read_for_attacks():
    """D6-04 / D6-09: only attacks inflict harm; other rolls carry no damage."""
    assert roll([5, 5, 5], attribute=3, template=SWORD).damage is None


def test_d6_05_division_rounds_down_unless_template_says_otherwise():
    """D6-05: division rounds down by default; a template may round up or to nearest."""
    assert divide(7, 2) == 3
    assert divide(-7, 2) == -4  # down, not toward zero
    assert divide(7, 2, "up") == 4
    assert divide(5, 2, "nearest") == 3 and divide(9, 4, "nearest") == 2
    assert RollTemplate().divide(5, 3) == 1
    assert RollTemplate(rounding="up").divide(5, 3) == 2
    with pytest.raises(InvalidTemplate):
        divide(1, 0)
    with pytest.raises(InvalidTemplate, match="rounding"):
        divide(1, 2, "sideways")


def test_pat_r2_default_narrative_band_labels():
    """PAT-R2: 0 Setback, 1 Success at a Cost, 2 Success, 3+ Success with a Bonus."""
    assert RollTemplate().bands == (
        "Setback",
        "Success at a Cost",
        "Success",
        "Success with a Bonus",
    )
    assert roll([5, 1], attribute=2).outcome == "Success at a Cost"


def test_pat_r2_template_may_rename_band_labels():
    """PAT-R2: a template may rename the labels."""
    template = RollTemplate(bands=("Miss", "Glance", "Hit", "Crit"))
    assert roll([5, 6], attribute=2, template=template).outcome == "Hit"


# --- D6-06 pool size and PM-R1 ---------------------------------------------------------


def test_d6_06_modifiers_net_together_before_rolling():
    """D6-06: pool = attribute + all bonuses and penalties netted, then rolled."""
    spec = RollSpec(attribute=3, modifiers=(2, -1, 1, -3))
    assert spec.pool == 2
    result = resolve_roll(spec, faces=[6, 6])
    assert result.successes == 2


def test_d6_06_penalties_below_zero_give_a_zero_dice_roll():
    """D6-06: netting can go to 0 or below; the roll then follows D6-07."""
    spec = RollSpec(attribute=2, modifiers=(-4,))
    assert spec.pool == -2 and spec.zero_dice and spec.dice_rolled == 2


def test_pm_r1_advantage_adds_a_die_and_disadvantage_removes_one():
    """PM-R1: in Momenta, Advantage is +1d and Disadvantage -1d on the pool."""
    assert RollSpec(attribute=3, advantage=True).pool == 4
    assert RollSpec(attribute=3, disadvantage=True).pool == 2
    result = resolve_roll(RollSpec(attribute=3, advantage=True), faces=[5, 5, 5, 5])
    assert result.successes == 4


def test_pm_r1_advantage_dice_is_a_campaign_setting():
    """PM-R1: N of +Nd / -Nd is a parameter (default 1)."""
    assert RollSpec(attribute=3, advantage=True, advantage_dice=2).pool == 5
    assert RollSpec(attribute=3, disadvantage=True, advantage_dice=2).pool == 1


def test_pm_r1_pm_11_advantage_and_disadvantage_cancel():
    """PM-R1 with PM-11: Advantage and Disadvantage on one roll cancel: no dice change."""
    spec = RollSpec(attribute=3, modifiers=(1,), advantage=True, disadvantage=True)
    assert spec.advantage_modifier == 0
    assert spec.pool == 4


def test_pm_r1_disadvantage_can_push_pool_to_zero_dice():
    """PM-R1: Disadvantage on a 1-die pool leaves 0 dice: D6-07 applies."""
    result = roll([6, 4], attribute=1, disadvantage=True)
    assert result.zero_dice and result.successes == 0


# --- D6-07 zero dice -------------------------------------------------------------------


def test_d6_07_zero_dice_takes_lowest_of_two():
    """D6-07: a pool of 0 or fewer rolls 2d6 and keeps the lowest."""
    result = roll([6, 5], attribute=0)
    assert result.zero_dice
    assert result.faces == (6, 5) and result.kept == (5,)
    assert result.successes == 1 and result.band == 1
    miss = roll([6, 4], attribute=0)
    assert miss.kept == (4,) and miss.successes == 0


def test_d6_07_negative_pool_also_rolls_two_keep_lowest():
    """D6-07: 'or fewer': a -3 pool rolls 2d6 keep lowest, not -3 dice."""
    result = resolve_roll(RollSpec(attribute=1, modifiers=(-4,)), rng=FixedDice([6, 6]))
    assert result.faces == (6, 6) and result.successes == 1


def test_d6_07_zero_dice_roll_offers_no_patterns():
    """D6-07 / PAT-05: a zero-dice roll with a double offers only the empty allocation."""
    result = roll([6, 6], attribute=0)
    assert result.successes == 1
    assert result.allocations == ((),)
    assert result.default_allocation == ()
    assert result.patterns == ()


def test_d6_07_zero_dice_opposition_keeps_lowest_too():
    """D6-07: an opposition pool of 0 or fewer also rolls 2d6 keep lowest."""
    result = roll([5, 6, 6], [6, 5], attribute=3, opposition_pool=0)
    assert result.opposition_faces == (6, 5) and result.opposition_successes == 1
    assert result.effective_successes == 2


# --- D6-08 Threads ---------------------------------------------------------------------


def test_d6_08_thread_gives_two_dice_in_narrative_play():
    """D6-08: an applicable Thread gives +2d in narrative play."""
    spec = RollSpec(attribute=2, threads=1)
    assert spec.pool == 4
    assert resolve_roll(spec, faces=[1, 2, 5, 6]).successes == 2


def test_d6_08_thread_bonus_applies_once_however_many_threads():
    """D6-08: once per roll, however many Threads apply."""
    assert RollSpec(attribute=2, threads=3).pool == 4


def test_d6_08_threads_apply_only_in_narrative_play():
    """D6-08: a Thread in structured play is refused with a readable message."""
    with pytest.raises(InvalidRoll, match="only in narrative play"):
        RollSpec(attribute=2, threads=1, play="structured")


def test_d6_08_every_pool_roll_is_an_action_roll():
    """D6-08: attack and luck rolls are action rolls: same pool, same success count."""
    for kind in ("action", "attack", "luck"):
        result = roll([5, 1, 6], attribute=3, kind=kind)
        assert (result.successes, result.band) == (2, 2)


# --- D6-09 attacks ---------------------------------------------------------------------


def test_d6_09_threads_never_apply_to_attacks():
    """D6-09: saying a Thread applies to an attack is refused, not ignored."""
    with pytest.raises(InvalidRoll, match="Threads never apply to attacks"):
        RollSpec(attribute=3, kind="attack", threads=1)


def test_d6_09_attack_inflicts_harm_by_band_and_defense_may_oppose():
    """D6-09: an attack deals its band's damage; the target's defense may oppose it."""
    result = roll(
        [5, 6, 6, 2], [5, 1], attribute=4, kind="attack", template=SWORD, opposition_pool=2
    )
    assert result.successes == 3 and result.opposition_successes == 1
    assert result.band == 2 and result.damage == 3


# --- D6-10 opposition ------------------------------------------------------------------


def test_d6_10_opposition_successes_subtract():
    """D6-10: effective successes = opposed successes - opposition successes."""
    result = roll([5, 6, 6, 1], attribute=4, opposition_successes=1)
    assert result.successes == 3 and result.effective_successes == 2 and result.band == 2


def test_d6_10_effective_successes_never_below_zero():
    """D6-10: minimum 0 effective successes."""
    result = roll([5, 1], [6, 6, 6], attribute=2, opposition_pool=3)
    assert result.opposition_successes == 3
    assert result.effective_successes == 0 and result.band == 0


def test_d6_10_attack_reduced_to_zero_is_a_graze():
    """D6-10: an attack reduced to 0 effective successes is a graze (band 0, its damage)."""
    result = roll([5, 6], [5, 6], attribute=2, kind="attack", template=SWORD, opposition_pool=2)
    assert result.successes == 2 and result.graze
    assert result.outcome == "Scratch" and result.damage == 1


def test_d6_10_opposition_pool_rolls_from_the_same_source():
    """D6-10: an opposition pool to roll is rolled after the opposed pool."""
    result = resolve_roll(RollSpec(attribute=2, opposition_pool=2), rng=FixedDice([5, 6, 5, 1]))
    assert result.faces == (5, 6) and result.opposition_faces == (5, 1)
    assert result.effective_successes == 1


def test_d6_10_opposition_given_twice_is_refused():
    """D6-10: opposition is either successes already rolled or a pool, not both."""
    with pytest.raises(InvalidRoll, match="not both"):
        RollSpec(attribute=2, opposition_successes=1, opposition_pool=2)
    with pytest.raises(InvalidRoll, match="no opposition pool"):
        roll([5, 5], [5], attribute=2)


# --- D6-11 luck ------------------------------------------------------------------------


def test_d6_11_luck_roll_is_straight():
    """D6-11: a luck roll uses LUCK as is."""
    result = roll([5, 3], attribute=2, kind="luck")
    assert result.successes == 1 and result.pool == 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"modifiers": (1,)}, "no dice modifiers"),
        ({"modifiers": (-1,)}, "no dice modifiers"),
        ({"threads": 1}, "Threads do not apply"),
        ({"advantage": True}, "no Advantage"),
        ({"disadvantage": True}, "no Advantage or Disadvantage"),
        ({"opposition_successes": 1}, "Nothing opposes a luck roll"),
        ({"opposition_pool": 2}, "Nothing opposes a luck roll"),
    ],
)
def test_d6_11_luck_roll_refuses_modifiers_threads_advantage_and_opposition(extra, message):
    """D6-11: no modifiers, no Thread, no Advantage; nothing opposes a luck roll."""
    with pytest.raises(InvalidRoll, match=message):
        RollSpec(attribute=2, kind="luck", **extra)


def test_d6_11_luck_roll_may_serve_as_opposition():
    """D6-11: a luck roll's successes may oppose another roll."""
    luck = roll([6, 5, 1], attribute=3, kind="luck")
    result = roll([5, 5, 5], attribute=3, opposition_successes=luck.successes)
    assert result.effective_successes == 1


# --- RS-01 Resolve ---------------------------------------------------------------------


def test_rs_01_roll_records_who_spent_how_much_resolve():
    """RS-01: the roll records each spender and amount (roller and assisting allies)."""
    spec = RollSpec(attribute=3, resolve_spent=(("Ash", 1), ("Bo", 2)))
    result = resolve_roll(spec, faces=[5, 1, 2])
    assert result.spec.resolve_spent == (("Ash", 1), ("Bo", 2))
    assert result.spec.resolve_total == 3


def test_rs_01_effortless_gives_resolve_back_to_a_chosen_spender():
    """RS-01 / PAT-08: the record lets Effortless return Resolve to whoever spent it."""
    spec = RollSpec(attribute=4, resolve_spent=(("Ash", 1), ("Bo", 1)))
    result = resolve_roll(spec, faces=[3, 3, 3, 5])
    assert apply_allocation(result, [("Effortless", 3)], refund_to=["Bo"]).refunds == (("Bo", 1),)
    with pytest.raises(IllegalRefund, match="Cy spent no Resolve"):
        apply_allocation(result, [("Effortless", 3)], refund_to=["Cy"])


def test_rs_01_bad_resolve_records_are_refused():
    """RS-01: each entry is (who, at least 1)."""
    with pytest.raises(InvalidRoll, match="at least 1 Resolve"):
        RollSpec(attribute=3, resolve_spent=(("Ash", 0),))
    with pytest.raises(InvalidRoll, match=r"\(who, how much\)"):
        RollSpec(attribute=3, resolve_spent=(("", 1),))


# --- spec plumbing ---------------------------------------------------------------------


def test_roll_spec_round_trips_through_json_dict():
    """D6-04: a roll spec (template and patterns included) stores as JSON."""
    import json

    spec = RollSpec(
        attribute=4,
        kind="attack",
        play="structured",
        modifiers=(1, -2),
        opposition_pool=2,
        resolve_spent=(("Ash", 1), (7, 2)),
        template=SWORD,
    )
    assert RollSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
    result = resolve_roll(spec, faces=[5, 5, 1], opposition_faces=[1, 1])
    json.dumps(result.to_dict())
    json.dumps(result.apply().to_dict())


def test_bad_roll_specs_have_readable_errors():
    """Every refusal is a RulesError with a message a player can read."""
    with pytest.raises(InvalidRoll, match="action, attack or luck"):
        RollSpec(attribute=2, kind="dance")
    with pytest.raises(InvalidRoll, match="narrative or structured"):
        RollSpec(attribute=2, play="downtime")
    with pytest.raises(InvalidRoll, match="attribute must be"):
        RollSpec(attribute=-1)
    with pytest.raises(InvalidRoll, match="malformed"):
        RollSpec.from_dict({"attribute": 2, "modifiers": 7})
    with pytest.raises(InvalidTemplate, match="malformed"):
        RollTemplate.from_dict({"bands": 3})
    assert issubclass(InvalidRoll, RulesError)

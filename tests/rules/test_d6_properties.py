"""Property tests over random specs and faces (D6-02, D6-10, PAT-02, PAT-04, PAT-05, PAT-09)."""

from collections import Counter
from itertools import product

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.d6 import RollSpec, apply_allocation, resolve_roll
from rules.patterns import (
    BUILTIN_PATTERNS,
    KIND_SIZES,
    IllegalAllocation,
    Pattern,
    allocations,
)
from rules.templates import RollTemplate

CUSTOM = (
    Pattern("Crushing Blow", "quad", "damage", amount=5, roll_kinds=("attack",)),
    Pattern("Flourish", "double", "text", min_effective_successes=0),
    Pattern("Second Wind", "triple", "resolve_refund", amount=2, min_effective_successes=2),
)
names = st.sampled_from(["Ash", "Bo", "Cy"])
templates = st.builds(
    RollTemplate,
    damage=st.none() | st.tuples(*[st.integers(0, 6)] * 4),
    harm=st.sampled_from(["damage", "strain"]),
    overflow_damage=st.integers(0, 2),
)


@st.composite
def specs(draw):
    kind = draw(st.sampled_from(["action", "attack", "luck"]))
    play = draw(st.sampled_from(["narrative", "structured"]))
    fields = {
        "attribute": draw(st.integers(0, 5)),
        "kind": kind,
        "play": play,
        "template": draw(templates),
        "stack_extra_success": draw(st.booleans()),
        "resolve_spent": tuple(draw(st.lists(st.tuples(names, st.integers(1, 3)), max_size=3))),
        "patterns": BUILTIN_PATTERNS + (CUSTOM if draw(st.booleans()) else ()),
    }
    if kind != "luck":
        fields["modifiers"] = tuple(draw(st.lists(st.integers(-3, 2), max_size=2)))
        fields["advantage"] = draw(st.booleans())
        fields["disadvantage"] = draw(st.booleans())
        if kind == "action" and play == "narrative":
            fields["threads"] = draw(st.integers(0, 2))
        opposition = draw(st.sampled_from(["none", "successes", "pool"]))
        if opposition == "successes":
            fields["opposition_successes"] = draw(st.integers(0, 4))
        elif opposition == "pool":
            fields["opposition_pool"] = draw(st.integers(-1, 4))
    return RollSpec(**fields)


@st.composite
def rolls(draw):
    spec = draw(specs())
    faces = draw(st.lists(st.integers(1, 6), min_size=spec.dice_rolled, max_size=spec.dice_rolled))
    n = spec.opposition_dice_rolled
    opp = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)) if n else None
    return resolve_roll(spec, faces=faces, opposition_faces=opp)


@st.composite
def contested_rolls(draw):
    """Narrative actions and attacks with big pools from few faces and Resolve spent:
    the rolls where patterns compete for the same dice (PAT-09's hard cases)."""
    spec = RollSpec(
        attribute=draw(st.integers(4, 8)),
        kind=draw(st.sampled_from(["action", "attack"])),
        play="narrative",
        template=draw(templates),
        stack_extra_success=draw(st.booleans()),
        resolve_spent=tuple(
            draw(st.lists(st.tuples(names, st.integers(1, 3)), min_size=1, max_size=2))
        ),
        patterns=BUILTIN_PATTERNS + (CUSTOM if draw(st.booleans()) else ()),
    )
    shown = draw(st.lists(st.integers(1, 6), min_size=2, max_size=4, unique=True))
    size = spec.dice_rolled
    return resolve_roll(
        spec, faces=draw(st.lists(st.sampled_from(shown), min_size=size, max_size=size))
    )


def uses_of(result, allocation):
    by_name = {p.name: p for p in result.spec.patterns}
    return [(by_name[name], face) for name, face in allocation]


# --- An oracle for PAT-09 that shares no code with rules.d6 --------------------------------


def every_allocation(faces, patterns):
    """PAT-02 by brute force: each face's dice split among the patterns, none used twice."""
    counts = Counter(faces)
    per_face = []
    for face in sorted(counts):
        options = []

        def fill(start, dice_left, chosen, face=face, options=options):
            options.append(chosen)
            for i in range(start, len(patterns)):
                if patterns[i].size <= dice_left:
                    used = chosen + ((patterns[i].name, face),)
                    fill(i, dice_left - patterns[i].size, used)

        fill(0, counts[face], ())
        per_face.append(options)
    return {tuple(sorted(sum(parts, ()))) for parts in product(*per_face)}


def effects(result, allocation):
    """What the allocation does, read from the patterns' own definitions:
    (final band, extra harm, Resolve back, narrated extras)."""
    spec = result.spec
    upgrades, harm, refund, extras = [], 0, 0, 0
    for pattern, face in uses_of(result, allocation):
        if pattern.effect == "outcome_upgrade":  # PAT-07
            upgrades.append(pattern.amount)
        elif pattern.effect == "damage_per_face":  # PAT-06: +N per Double N
            harm += pattern.amount * face
        elif pattern.effect == "damage":
            harm += pattern.amount
        elif pattern.effect == "resolve_refund":  # PAT-08
            refund += pattern.amount
        elif pattern.effect == "text":
            extras += 1
    # PAT-R1: repeated upgrades add up when the ruling is on, else only the biggest counts.
    steps = (sum(upgrades) if spec.stack_extra_success else max(upgrades)) if upgrades else 0
    band = min(3, result.band + steps)  # D6-02: 3+ is the top band
    return band, harm, min(refund, spec.resolve_total), extras


def worth_to_the_roller(result, allocation):
    """PAT-09 "worth most to them", bigger is better, compared in this order: the best
    outcome, then the most harm, then the most Resolve back, then the most narrated
    extras; among equals, the fewest dice spent, then the highest faces."""
    dice = sorted(
        (face for pattern, face in uses_of(result, allocation) for _ in range(pattern.size)),
        reverse=True,
    )
    return (*effects(result, allocation), -len(dice), dice)


@settings(max_examples=300)
@given(rolls())
def test_d6_02_d6_10_effective_successes_never_negative_and_band_in_range(result):
    """D6-02 / D6-10: effective successes >= 0, band 0..3, overflow above 3 only."""
    assert result.effective_successes >= 0
    assert 0 <= result.band <= 3
    assert result.band == min(result.effective_successes, 3)
    assert result.overflow == max(result.effective_successes - 3, 0)
    assert result.effective_successes == max(0, result.successes - result.opposition_successes)
    assert result.successes <= len(result.kept)
    if result.zero_dice:
        assert len(result.faces) == 2 and result.kept == (min(result.faces),)


# Two Extra Successes on Success at a Cost: with PAT-R1 stacking they make 3+.
STACKED = RollSpec(attribute=5, stack_extra_success=True, patterns=BUILTIN_PATTERNS)
# Four 5s on an attack with Resolve spent: two Solid Hits (+10 harm) beat Second
# Wind's Resolve back and Crushing Blow's +5.
FOUR_FIVES = RollSpec(
    attribute=5, kind="attack", resolve_spent=(("Ash", 1),), patterns=BUILTIN_PATTERNS + CUSTOM
)


@settings(max_examples=500)
@given(rolls() | contested_rolls())
@example(resolve_roll(STACKED, faces=[5, 1, 1, 2, 2]))
@example(resolve_roll(FOUR_FIVES, faces=[5, 5, 5, 5, 1]))
def test_pat_02_pat_09_every_offered_allocation_is_legal_and_default_is_best(result):
    """PAT-02 / PAT-09: every legal allocation is offered once, each applies with the
    effects its patterns define, and the pre-selected default is worth the most
    (judged by the oracle above, not by rules.d6's own ordering)."""
    offered = result.allocations
    assert len(offered) == len(set(offered))
    legal = every_allocation(result.faces, sorted(result.patterns, key=lambda p: p.name))
    assert set(offered) == legal
    assert result.default_allocation in offered
    faces = Counter(result.faces)
    for allocation in offered:
        used: Counter[int] = Counter()
        for pattern, face in uses_of(result, allocation):
            used[face] += pattern.size
        assert all(used[face] <= faces[face] for face in used)  # no die in two patterns
        applied = apply_allocation(result, allocation)
        assert applied.allocation == allocation
        assert 0 <= applied.band <= 3 and applied.band >= result.band
        assert sum(n for _, n in applied.refunds) <= result.spec.resolve_total
        band, harm, refund, _ = effects(result, allocation)
        assert (applied.band, applied.damage_bonus) == (band, harm)
        assert sum(n for _, n in applied.refunds) == refund
    best = max(worth_to_the_roller(result, a) for a in legal)
    assert worth_to_the_roller(result, result.default_allocation) == best


@settings(max_examples=200)
@given(rolls())
def test_pat_04_pat_05_no_pattern_on_zero_dice_or_unqualified_graze(result):
    """PAT-04 / PAT-05: zero-dice rolls offer nothing; a graze only offers overriding patterns."""
    if result.zero_dice:
        assert result.allocations == ((),)
    if result.graze:
        assert all(p.min_effective_successes == 0 for p in result.patterns)


@settings(max_examples=300)
@given(rolls(), st.data())
def test_pat_02_apply_accepts_exactly_the_offered_allocations(result, data):
    """PAT-02: a random allocation applies iff it is offered; otherwise a RulesError."""
    pattern_names = [p.name for p in result.spec.patterns]
    attempt = data.draw(
        st.lists(st.tuples(st.sampled_from(pattern_names), st.integers(1, 6)), max_size=4)
    )
    try:
        applied = apply_allocation(result, attempt)
    except IllegalAllocation as error:
        assert str(error)
        assert tuple(sorted(attempt)) not in result.allocations
    else:
        assert applied.allocation == tuple(sorted(attempt))
        assert applied.allocation in result.allocations


@given(st.lists(st.integers(1, 6), max_size=9))
def test_pat_02_public_allocations_are_legal_distinct_and_include_none(faces):
    """PAT-01 / PAT-02: allocations(faces) lists each legal allocation once, empty included."""
    found = allocations(faces)
    assert () in found
    assert len(found) == len(set(found))
    counts = Counter(faces)
    for allocation in found:
        assert list(allocation) == sorted(allocation)
        used: Counter[int] = Counter()
        for kind, face in allocation:
            used[face] += KIND_SIZES[kind]
        assert all(used[face] <= counts[face] for face in used)
    # Complete: every maximal Double-only allocation is there.
    doubles = tuple(sorted(("double", f) for f, c in counts.items() for _ in range(c // 2)))
    assert doubles in found

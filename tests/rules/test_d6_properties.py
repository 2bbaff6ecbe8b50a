"""Property tests over random specs and faces (D6-02, D6-10, PAT-02, PAT-04, PAT-05, PAT-09)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.d6 import RollSpec, apply_allocation, resolve_roll, worth_key
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


def uses_of(result, allocation):
    by_name = {p.name: p for p in result.spec.patterns}
    return [(by_name[name], face) for name, face in allocation]


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


@settings(max_examples=500)
@given(rolls())
def test_pat_02_pat_09_every_offered_allocation_is_legal_and_default_is_best(result):
    """PAT-02 / PAT-09: each offered allocation applies, uses no die twice, and the
    pre-selected default is among them and worth the most."""
    offered = result.allocations
    assert len(offered) == len(set(offered))
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
    key = worth_key(result.spec, result.band, uses_of(result, result.default_allocation))
    best = max(worth_key(result.spec, result.band, uses_of(result, a)) for a in offered)
    assert key == best


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

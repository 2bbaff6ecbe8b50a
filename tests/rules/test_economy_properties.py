"""Property tests: pools stay in bounds and ledgers add up (MO-04 … MO-13, PM-01 … PM-13).

Random sequences of gains, spends, refunds, scene ends and session starts run
against both economies. Whatever happens, no pool leaves its bounds, every
refused operation changes nothing, and the ledger's deltas add up to each
pool's change (with each entry's `after` the running value).

Only the refusals a legal operation may meet are caught (not enough in a
pool, a spend the rules forbid): PoolOutOfBounds is never one of them, so a
pool pushed past its cap fails the test instead of passing as "refused".
"""

from collections import defaultdict

from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from rules.ledger import GM, GROUP_MOMENTUM, PLAYER, THREAT
from rules.momentum import (
    GM_SIDE,
    PLAYERS_SIDE,
    STANDARD_SPENDS,
    GroupPool,
    MomentumError,
    MomentumSpendLedger,
    Threat,
    buy_d20s,
    custom_spend,
    end_scene,
)
from rules.personal import (
    AdvantageSource,
    AssistOffer,
    PersonalMomentum,
    PersonalMomentumError,
    gain_momentum,
    settle_roll_momentum,
    start_session,
    suffer_trauma,
)
from rules.pools import GROUP_POOL_MAX, PERSONAL_MOMENTUM_MAX, NotEnoughInPool, cap_of

# What a legal operation may be refused with; anything else is a bug.
GROUP_REFUSALS = (NotEnoughInPool, MomentumError)
PERSONAL_REFUSALS = (NotEnoughInPool, PersonalMomentumError)

KINDS = STANDARD_SPENDS + (custom_spend("Disarm", 3), custom_spend("Rumour", 1, True))
actors = st.sampled_from([GM, PLAYER])

opening = st.tuples(
    st.just("open"),
    st.integers(0, 8),
    st.integers(0, 3),
    st.sampled_from([PLAYERS_SIDE, GM_SIDE]),
    st.booleans(),
)
spending = st.tuples(
    st.just("spend"),
    st.sampled_from([0, 1, 2, 3, 3, 3, 4, 5]),  # 3: Obtain Information, refundable
    st.one_of(st.none(), st.integers(0, 3)),
    st.sampled_from([0, 0, 0, 1, 2]),
)
group_ops = st.lists(
    st.one_of(
        opening,
        spending,
        spending,
        st.tuples(st.just("refund"), st.integers(0, 2)),
        st.tuples(st.just("veto"), st.integers(0, 2), actors),
        st.tuples(st.just("resolve"), st.booleans()),
        st.tuples(st.just("scene_end")),
        st.tuples(st.just("buy"), st.integers(0, 4), st.integers(0, 6), actors),
        st.tuples(st.just("add_threat"), st.integers(0, 4)),
        st.tuples(st.just("spend_threat"), st.integers(0, 4), actors),
    ),
    max_size=40,
)


def check_entries(entries, start):
    """Deltas sum to each pool's change; `after` is the running value."""
    running = dict(start)
    for entry in entries:
        key = (entry.pool, entry.holder)
        running[key] += entry.delta
        assert entry.after == running[key]
        assert entry.reason
        assert entry.lost >= 0
        if entry.lost:  # only a full pool swallows a gain (MO-04, PM-04)
            assert entry.after == cap_of(entry.pool)
    return running


@settings(max_examples=300)
@given(st.integers(0, 6), st.integers(0, 10), group_ops)
@example(2, 0, [("spend", 3, None, 0), ("refund", 0), ("spend", 0, None, 1), ("veto", 1, GM)])
@example(
    6, 1, [("spend", 0, 1, 0), ("resolve", True), ("open", 4, 0, GM_SIDE, False), ("resolve", True)]
)
def test_mo_06_group_economy_stays_in_bounds_and_ledger_adds_up(pool0, threat0, ops):
    """MO-06, MO-04, MO-05, MO-07, MO-08, MO-11, MO-12, MO-13: pool 0–6, Threat ≥ 0.

    Gains, spends, refunds, vetoes, resolutions, scene ends and dice bought:
    the ledger's deltas always add up to each pool's change.
    """
    pool, threat = GroupPool(pool0), Threat(threat0)
    ledger = None
    entries = []
    for op in [("open", 3, 1, PLAYERS_SIDE, False), *ops]:
        name, *args = op
        before = (pool, threat, ledger)
        try:
            if name == "open":
                momentum, bonus, side, restricted = args
                ledger = MomentumSpendLedger(
                    roll_momentum=momentum,
                    bonus_momentum=bonus,
                    bonus_restricted_to={"obtain_information"} if restricted else None,
                    side=side,
                )
                continue
            if name == "scene_end":
                pool, new = end_scene(pool)
            elif name == "buy":
                dice, from_momentum, actor = args
                out = buy_d20s(
                    dice, actor=actor, threat=threat, momentum=pool, from_momentum=from_momentum
                )
                pool, threat, new = out.momentum, out.threat, out.entries
            elif name == "add_threat":
                threat, entry = threat.add(args[0], "added")
                new = (entry,)
            elif name == "spend_threat":
                threat, entry = threat.spend(args[0], "NPC", actor=args[1])
                new = (entry,)
            elif ledger is None:
                continue
            elif name == "spend":
                kind, from_pool, to_threat = args
                out = ledger.spend(
                    KINDS[kind], pool, from_pool=from_pool, to_threat=to_threat, threat=threat
                )
                ledger, pool, threat, new = out.ledger, out.pool, out.threat, out.entries
            elif name == "refund":
                out = ledger.refund_dont_know(args[0], pool, actor=GM, threat=threat)
                ledger, pool, threat, new = out.ledger, out.pool, out.threat, out.entries
            elif name == "veto":
                out = ledger.veto(args[0], pool, actor=args[1], threat=threat)
                ledger, pool, threat, new = out.ledger, out.pool, out.threat, out.entries
            else:  # resolve
                res = ledger.resolve(pool, threat=threat, gm_momentum_to_threat=args[0])
                ledger, pool, threat, new = res.ledger, res.pool, res.threat, res.entries
                assert res.saved + res.lost_overflow + res.lost_unsaved == before[2].roll_momentum
                assert res.lost_bonus == before[2].bonus_momentum
        except GROUP_REFUSALS as error:
            event(f"{name} refused")
            assert str(error)
            assert (pool, threat, ledger) == before  # a refusal changes nothing
            continue
        event(f"{name} done")
        entries.extend(new)
        assert 0 <= pool.value <= GROUP_POOL_MAX
        assert threat.value >= 0
        if ledger is not None:
            assert ledger.roll_momentum >= 0 and ledger.bonus_momentum >= 0
    running = check_entries(entries, {(GROUP_MOMENTUM, None): pool0, (THREAT, None): threat0})
    assert running[(GROUP_MOMENTUM, None)] == pool.value
    assert running[(THREAT, None)] == threat.value


sources = st.lists(st.sampled_from(list(AdvantageSource)), max_size=3)
personal_ops = st.lists(
    st.one_of(
        st.tuples(st.just("session")),
        st.tuples(st.just("trauma"), st.integers(0, 5), st.booleans()),
        st.tuples(st.just("gain"), st.integers(0, 4)),
        st.tuples(st.just("spend"), st.integers(0, 4)),
        st.tuples(
            st.just("roll"),
            st.booleans(),  # Ash rolls (else Bo)
            sources,
            st.booleans(),  # Disadvantage
            st.booleans(),  # creation mode
            st.one_of(
                st.none(),
                st.tuples(
                    st.booleans(),  # GM accepted
                    st.booleans(),  # structured time
                    st.sampled_from([(False, None), (True, True), (True, False), (True, None)]),
                ),
            ),
        ),
    ),
    max_size=40,
)


@settings(max_examples=300)
@given(st.integers(0, 6), st.integers(0, 6), personal_ops)
def test_pm_04_personal_economy_stays_in_bounds_and_ledger_adds_up(ash0, bo0, ops):
    """PM-04, PM-01, PM-02, PM-03, PM-08, PM-13: each pool stays within 0–6.

    Session starts, trauma, gains, spends and rolls with Advantage,
    Disadvantage and Assists: the ledger's deltas add up to each pool's change.
    """
    pools = {"Ash": PersonalMomentum(ash0, "Ash"), "Bo": PersonalMomentum(bo0, "Bo")}
    entries = []
    for op in ops:
        name, *args = op
        before = dict(pools)
        try:
            if name == "roll":
                ash_rolls, srcs, disadvantage, creation, assist = args
                roller, helper = ("Ash", "Bo") if ash_rolls else ("Bo", "Ash")
                offers = ()
                if assist is not None:
                    accepted, structured, (called, passed) = assist
                    offers = (
                        AssistOffer(
                            pools[helper], accepted, structured, called, passed, helper_agreed=True
                        ),
                    )
                out = settle_roll_momentum(
                    pools[roller],
                    advantage_sources=srcs,
                    disadvantage=disadvantage,
                    assists=offers,
                    creation=creation,
                )
                assert not (out.advantage and out.disadvantage)
                pools[roller] = out.roller
                if out.helper is not None:
                    pools[helper] = out.helper
                new = out.entries
            else:
                batch = []
                for who in ("Ash", "Bo"):
                    if name == "session":
                        pools[who], new = start_session(pools[who])
                    elif name == "trauma":
                        pools[who], new = suffer_trauma(pools[who], args[0], creation=args[1])
                    elif name == "gain":
                        pools[who], new = gain_momentum(pools[who], args[0], "GM award")
                    else:
                        pools[who], entry = pools[who].spend(args[0], "spent")
                        new = (entry,)
                    batch.extend(new)
                new = batch
        except PERSONAL_REFUSALS as error:
            event(f"{name} refused")
            assert str(error)
            # Pools are immutable: the refused step's partial results are simply dropped.
            pools = before
            continue
        event(f"{name} done")
        entries.extend(new)
        for pool in pools.values():
            assert 0 <= pool.value <= PERSONAL_MOMENTUM_MAX
    start = defaultdict(int, {("momentum", "Ash"): ash0, ("momentum", "Bo"): bo0})
    running = check_entries(entries, start)
    assert running[("momentum", "Ash")] == pools["Ash"].value
    assert running[("momentum", "Bo")] == pools["Bo"].value

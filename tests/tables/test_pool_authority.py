"""One pool authority: the database follows rules.pools, and a 2d20 summary follows
the ledger (MO-04, MO-05, MO-06, PM-04, RS-01, CT-R1).

change_pool writes what rules.pools.change works out; the caps the models'
constraints, the ledger view and the presenters show are the same constants;
the text a player reads after a 2d20 test is made of the PoolChange lines
that test wrote, never recomputed beside them.
"""

import ast
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st

from rules import pools
from rules.dice import FixedDice
from rules.momentum import GroupPool
from rules.pools import (
    GROUP_MOMENTUM,
    GROUP_POOL_MAX,
    MOMENTUM,
    PERSONAL_MOMENTUM_MAX,
    RESOLVE,
    THREAT,
)
from tables.models import Campaign, Character, PoolChange
from tables.presenters.momenta import cost_lines
from tables.services import d20 as services_d20
from tables.services.core import ServiceError, StaleState, change_pool, lock_campaign
from tables.services.momenta import RollRequest, plan_roll
from tables.views.table import _cap

ROOT = Path(__file__).resolve().parents[2]


# --- caps: defined once, used everywhere --------------------------------------------


def test_each_cap_constant_is_defined_once_in_rules_pools():
    """No module of rules/ or tables/ assigns a cap of its own: each imports it."""
    names = {"GROUP_POOL_MAX", "PERSONAL_MOMENTUM_MAX", "SESSION_START_MOMENTUM"}
    homes = {}
    for package in ("rules", "tables"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                targets = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, ast.AnnAssign):
                    targets = [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id in names:
                        homes.setdefault(target.id, []).append(path.relative_to(ROOT).as_posix())
    assert homes == {name: ["rules/pools.py"] for name in names}


def _upper_bound(model, name: str, field: str):
    """The `<field>__lte` value of the named CheckConstraint."""
    (constraint,) = [c for c in model._meta.constraints if c.name == name]
    bounds = dict(child for child in constraint.condition.children if isinstance(child, tuple))
    return bounds[f"{field}__lte"]


def test_mo_06_pm_04_database_constraints_use_the_rules_caps():
    """MO-06, PM-04: the CheckConstraints hold the rules' caps (every game line's group cap
    is MO-06's today; tests/tables/test_game_lines.py checks the constraint per line)."""
    assert _upper_bound(Campaign, "campaign_group_momentum_within_line_cap", "group_momentum") == (
        GROUP_POOL_MAX
    )
    assert _upper_bound(Character, "character_momentum_0_6", "momentum") == (PERSONAL_MOMENTUM_MAX)


@pytest.mark.django_db
def test_mo_06_change_pool_clamps_group_momentum_at_the_rules_cap(d20_campaign):
    """MO-06, MO-04: the service fills the pool to rules.pools' cap; the rest is lost."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=GROUP_POOL_MAX - 1)
    campaign = lock_campaign(d20_campaign.pk)
    change = change_pool(campaign, GROUP_MOMENTUM, 3, "saved")
    assert (change.delta, change.after, change.lost) == (1, GROUP_POOL_MAX, 2)
    campaign.refresh_from_db()
    assert campaign.group_momentum == GROUP_POOL_MAX


@pytest.mark.django_db
def test_pm_04_change_pool_clamps_personal_momentum_at_the_rules_cap(momenta_campaign, hero):
    """PM-04: gains past the cap are lost and reported."""
    Character.objects.filter(pk=hero.pk).update(momentum=PERSONAL_MOMENTUM_MAX)
    change = change_pool(momenta_campaign, MOMENTUM, 2, "GM award", character=hero)
    assert (change.delta, change.after, change.lost) == (0, PERSONAL_MOMENTUM_MAX, 2)


@pytest.mark.django_db
def test_rs_01_change_pool_caps_resolve_at_the_sheets_maximum(momenta_campaign, hero):
    """RS-01: Resolve 3 of 4, +3 → 4, 2 lost."""
    change = change_pool(momenta_campaign, RESOLVE, 3, "rest", character=hero)
    assert (change.delta, change.after, change.lost) == (1, hero.resolve_max, 2)


@pytest.mark.django_db
def test_change_pool_asks_the_rules_for_every_cap(
    d20_campaign, momenta_campaign, hero, monkeypatch
):
    """With the rules' caps lowered, the service, the ledger view and the model pools
    follow: nothing in tables/ keeps a cap or a clamp of its own."""
    monkeypatch.setitem(pools.CAPS, GROUP_MOMENTUM, 4)
    monkeypatch.setitem(pools.CAPS, MOMENTUM, 5)
    campaign = lock_campaign(d20_campaign.pk)
    assert change_pool(campaign, GROUP_MOMENTUM, 6, "saved").after == 4
    Character.objects.filter(pk=hero.pk).update(momentum=4)
    change = change_pool(momenta_campaign, MOMENTUM, 3, "award", character=hero)
    assert (change.after, change.lost) == (5, 2)
    assert (_cap(GROUP_MOMENTUM, None), _cap(MOMENTUM, hero)) == (4, 5)
    assert (_cap(RESOLVE, hero), _cap(THREAT, None)) == (hero.resolve_max, None)


@pytest.mark.django_db
def test_pm_04_the_composer_warns_at_the_rules_cap(momenta_campaign, hero, monkeypatch):
    """PM-02, PM-04: the gain from Disadvantage is lost at the cap the rules set."""
    monkeypatch.setitem(pools.CAPS, MOMENTUM, 4)
    Character.objects.filter(pk=hero.pk).update(momentum=4)
    hero.refresh_from_db()
    plan = plan_roll(
        momenta_campaign, hero, RollRequest(attribute="GRIT", disadvantage=True), sees_hidden=False
    )
    assert any("(at the cap of 4: it will be lost, PM-04)" in line for line in cost_lines(plan))


@pytest.mark.django_db
def test_change_pool_refuses_a_spend_below_0_and_writes_nothing(d20_campaign):
    campaign = lock_campaign(d20_campaign.pk)
    with pytest.raises(ServiceError, match="Not enough Group Momentum: 0 available, 2 needed"):
        change_pool(campaign, GROUP_MOMENTUM, -2, "spent")
    campaign.refresh_from_db()
    assert campaign.group_momentum == 0


@pytest.mark.django_db
def test_a_rules_entry_worked_out_on_a_stale_pool_is_never_written(d20_campaign):
    """apply_entries writes an entry only if the database lands where the rules said."""
    _, entry = GroupPool(2).gain(1, "saved")  # the rules saw 2 → 3
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=GROUP_POOL_MAX)
    campaign = lock_campaign(d20_campaign.pk)
    with pytest.raises(StaleState):
        services_d20.apply_entries(campaign, [entry], who="Kara")


# --- a 2d20 test's summary is its ledger lines -------------------------------------------

PART = re.compile(
    r"(?P<saved>\d+) saved to (?P<where>the group pool|Threat)"
    r"|(?P<overflow>\d+) lost \(pool full\)"
    r"|(?P<bonus>\d+) bonus Momentum lost"
    r"|(?P<unsaved>\d+) lost"
)


def read_summary(text: str) -> dict:
    """The numbers a player reads in a resolution summary; every part must parse."""
    read = {"saved": 0, "where": None, "overflow": 0, "bonus": 0, "unsaved": 0}
    if text == "nothing left to save":
        return read
    for part in text.split("; "):
        match = PART.fullmatch(part)
        assert match, f"unreadable part {part!r} in {text!r}"
        for key, value in match.groupdict().items():
            if value is not None:
                read[key] = value if key == "where" else int(value)
    return read


@pytest.fixture
def marcus_sheet(marcus):
    marcus.attributes.create(name="Power", value=5)
    marcus.skills.create(name="Communicate", value=4)
    return marcus


faces = st.sampled_from([1, 1, 1, 2, 5, 9, 13, 14, 20])  # mostly passes, with Momentum
spends = st.lists(
    st.tuples(
        st.sampled_from(["create_trait", "create_asset", "obtain_information"]),
        st.one_of(st.none(), st.integers(0, 2)),  # from the group pool
        st.sampled_from([0, 0, 1]),  # paid in Threat
        st.booleans(),  # the GM vetoes it
    ),
    max_size=3,
)


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    # The fixtures are built once; each example sets the pools it starts from.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],  # no slow "explain"
)
@given(
    npc=st.sampled_from([False, False, True]),  # a GM character's Momentum goes to Threat
    pool0=st.sampled_from([0, 2, 4, 5, GROUP_POOL_MAX, GROUP_POOL_MAX]),  # often near full
    threat0=st.integers(0, 6),
    to_threat_ruling=st.booleans(),
    dice=st.tuples(faces, faces),
    difficulty=st.integers(0, 2),
    bonus=st.integers(0, 2),
    plan=spends,
)
@example(  # 4 Momentum into a pool of 5: 1 saved, 3 lost to the cap (MO-06)
    npc=False, pool0=5, threat0=0, to_threat_ruling=True, dice=(1, 1), difficulty=0, bonus=1,
    plan=[("obtain_information", None, 0, False)],
)  # fmt: skip
def test_mo_04_the_summary_a_player_reads_equals_the_ledger_lines_written(
    d20_campaign, gm, player, kara, marcus_sheet,
    npc, pool0, threat0, to_threat_ruling, dice, difficulty, bonus, plan,
):  # fmt: skip
    """MO-04, MO-05, MO-06, CT-R1: after random spends, vetoes and "Done", the summary's
    numbers are the resolve event's PoolChange lines, and both are what the rules
    allow: unspent Momentum fills the group pool to its cap (or goes to Threat for
    a GM character under CT-R1), the rest and all bonus Momentum are lost."""
    campaign = d20_campaign
    Campaign.objects.filter(pk=campaign.pk).update(
        group_momentum=pool0, threat=threat0, gm_momentum_to_threat=to_threat_ruling
    )
    character, actor = (marcus_sheet, gm) if npc else (kara, player)
    test = services_d20.roll_d20_test(
        campaign.pk,
        actor,
        character.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=difficulty, bonus_momentum=bonus
        ),
        rng=FixedDice(list(dice)),
    )
    for kind, from_pool, to_threat, veto in plan:
        try:
            spent = services_d20.spend_momentum(
                campaign.pk, actor, test.pk, kind, from_pool=from_pool, to_threat=to_threat
            )
        except ServiceError:
            continue  # a refused spend changes nothing
        if veto:
            index = spent.payload["spend"]["index"]
            services_d20.veto_spend(campaign.pk, gm, test.pk, index)
    test.refresh_from_db()
    campaign.refresh_from_db()
    unspent, bonus_left = test.ledger["roll_momentum"], test.ledger["bonus_momentum"]
    before = {GROUP_MOMENTUM: campaign.group_momentum, THREAT: campaign.threat}

    done = services_d20.resolve_test(campaign.pk, actor, test.pk)

    lines = list(PoolChange.objects.filter(event=done))
    shown = done.payload["resolution"]
    read = read_summary(shown["summary"])
    assert (
        done.payload["summary"] == f"{character.name}'s Momentum is resolved: {shown['summary']}."
    )
    # The text says what the ledger lines did, pool by pool.
    saved_to = THREAT if npc else GROUP_MOMENTUM
    assert {line.pool for line in lines} <= {saved_to}
    assert read["saved"] == sum(line.delta for line in lines) == shown["saved"]
    assert read["overflow"] == sum(line.lost for line in lines) == shown["lost_overflow"]
    assert read["where"] == (None if not read["saved"] else "Threat" if npc else "the group pool")
    assert (read["bonus"], read["unsaved"]) == (shown["lost_bonus"], shown["lost_unsaved"])
    assert shown["lost"] == read["overflow"] + read["bonus"] + read["unsaved"]
    campaign.refresh_from_db()
    for line in lines:
        assert line.after == getattr(campaign, line.pool)
    # And both are what the rules allow (an oracle independent of the code under test).
    if npc:
        expected = (unspent, 0, 0) if to_threat_ruling else (0, 0, unspent)
    else:
        fits = min(unspent, GROUP_POOL_MAX - before[GROUP_MOMENTUM])
        expected = (fits, unspent - fits, 0)
    assert (read["saved"], read["overflow"], read["unsaved"]) == expected
    assert read["bonus"] == bonus_left
    event("GM character" if npc else "player character")
    event("cap overflowed" if read["overflow"] else "nothing over the cap")

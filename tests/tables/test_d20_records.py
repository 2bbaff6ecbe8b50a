"""D20Test rows stored by the hand-written codec (before services/d20 became a package)
read back to the same rules objects, and are written back in the same shape.

The literals are what the code of commit b3c5b27 stored, copied from rows it wrote
(rolls, spends, a refund, a veto, a custom spend, a contest and a reroll), with their
character ids as they were; the last spec is older still (before the game lines, GL-02).
"""

import pytest

from rules.d20 import Assistant, SkillTest, score_test
from rules.dice import FixedDice
from rules.momentum import (
    CREATE_ASSET,
    GM_SIDE,
    OBTAIN_INFORMATION,
    PLAYERS_SIDE,
    MomentumSpendLedger,
    Spend,
    custom_spend,
)
from tables.models import Campaign, D20Test
from tables.policy import d20_records as records
from tables.services import d20 as services_d20

# Kara (target 13, focus Persuasion 6) with a bought die and Marcus assisting, Difficulty 1
# and one factor; spent: a question refunded (MO-11), an asset vetoed (MO-12), a custom
# spend paid from the pool (MO-14).
SPENT = {
    "ledger": {
        "bonus_generated": 2,
        "bonus_momentum": 2,
        "bonus_restricted_to": ["create_trait", "obtain_information"],
        "contest_won": None,
        "generated": 3,
        "holder": "Kara",
        "holder_character_id": 1,
        "passed": True,
        "resolution": None,
        "resolved": False,
        "roll_momentum": 3,
        "side": "players",
        "spends": [
            {
                "cost": 1,
                "custom": False,
                "description": "Ask the GM one question; “you don't know” refunds it (MO-11).",
                "from_bonus": 1,
                "from_pool": 0,
                "from_roll": 0,
                "index": 0,
                "key": "obtain_information",
                "name": "Obtain Information",
                "note": "Who sent him?",
                "points": 1,
                "refund_reason": "the answer was “you don't know” (MO-11)",
                "refunded": True,
                "repeatable": True,
                "to_threat": 0,
            },
            {
                "cost": 2,
                "custom": False,
                "description": "A Quality 0 asset that lasts to the end of the scene (MO-10).",
                "from_bonus": 0,
                "from_pool": 0,
                "from_roll": 2,
                "index": 1,
                "key": "create_asset",
                "name": "Create Asset",
                "note": "A bribe",
                "points": 2,
                "refund_reason": "vetoed by the GM: Too easy (MO-12)",
                "refunded": True,
                "repeatable": False,
                "to_threat": 0,
            },
            {
                "cost": 1,
                "custom": True,
                "description": "Win them over",
                "from_bonus": 0,
                "from_pool": 1,
                "from_roll": 0,
                "index": 2,
                "key": "custom:sway_the_crowd",
                "name": "Sway the crowd",
                "note": "",
                "points": 1,
                "refund_reason": "",
                "refunded": False,
                "repeatable": False,
                "to_threat": 0,
            },
        ],
    },
    "result": {
        "assist_dice": [{"complication": False, "face": 3, "name": "Marcus", "successes": 1}],
        "assistance_counted": True,
        "assistance_faces": [[3]],
        "assistance_successes": 1,
        "bonus_momentum": 2,
        "complications": 1,
        "dice": [
            {"complication": False, "face": 1, "rerolled": False, "successes": 2},
            {"complication": False, "face": 5, "rerolled": False, "successes": 2},
            {"complication": True, "face": 20, "rerolled": False, "successes": 0},
        ],
        "difficulty": 2,
        "faces": [1, 5, 20],
        "focus": 6,
        "momentum": 3,
        "own_complications": 1,
        "own_successes": 4,
        "passed": True,
        "rerolled": [],
        "shortfall": 0,
        "successes": 5,
        "target": 13,
    },
    "spec": {
        "assistance_needs_leader_success": True,
        "assistants": [
            {
                "attribute": "Power",
                "character_id": 2,
                "focus": 1,
                "focus_name": "",
                "name": "Marcus",
                "skill": "Communicate",
                "target": 12,
            }
        ],
        "attribute": "Power",
        "bonus_momentum": 2,
        "bonus_restricted_to": ["create_trait", "obtain_information"],
        "bought_dice": 1,
        "complication_range": 1,
        "dice": 3,
        "difficulty": 1,
        "extra_dice": 0,
        "factors": [1],
        "final_difficulty": 2,
        "focus": 6,
        "focus_name": "Persuasion",
        "game_line": "seeds",
        "ones": 0,
        "opposed": False,
        "paid": {"cost": 1, "from_momentum": 0, "threat_spent": 0, "to_threat": 1},
        "skill": "Communicate",
        "target": 13,
    },
}

# Kara answers Marcus's contest and fails: Marcus holds 2 Momentum (CT-04).
CONTEST_LOST = {
    "ledger": {
        "bonus_generated": 0,
        "bonus_momentum": 0,
        "bonus_restricted_to": None,
        "contest_won": False,
        "generated": 2,
        "holder": "Marcus",
        "holder_character_id": 2,
        "passed": True,
        "resolution": None,
        "resolved": False,
        "roll_momentum": 2,
        "side": "gm",
        "spends": [],
    },
    "result": {
        "assist_dice": [],
        "assistance_counted": False,
        "assistance_faces": [],
        "assistance_successes": 0,
        "bonus_momentum": 0,
        "complications": 0,
        "dice": [
            {"complication": False, "face": 15, "rerolled": False, "successes": 0},
            {"complication": False, "face": 16, "rerolled": False, "successes": 0},
        ],
        "difficulty": 2,
        "faces": [15, 16],
        "focus": 1,
        "momentum": 0,
        "own_complications": 0,
        "own_successes": 0,
        "passed": False,
        "rerolled": [],
        "shortfall": 2,
        "successes": 0,
        "target": 13,
    },
    "spec": {
        "assistance_needs_leader_success": True,
        "assistants": [],
        "attribute": "Power",
        "bonus_momentum": 0,
        "bonus_restricted_to": None,
        "bought_dice": 0,
        "complication_range": 1,
        "dice": 2,
        "difficulty": 2,
        "extra_dice": 0,
        "factors": [],
        "final_difficulty": 2,
        "focus": 1,
        "focus_name": "",
        "game_line": "seeds",
        "ones": 0,
        "opposed": True,
        "paid": {"cost": 0, "from_momentum": 0, "threat_spent": 0, "to_threat": 0},
        "skill": "Communicate",
        "target": 13,
    },
}

# Kara's failed test after a Determination reroll of her first die (T-04).
REROLLED = {
    "ledger": {
        "bonus_generated": 0,
        "bonus_momentum": 0,
        "bonus_restricted_to": None,
        "contest_won": None,
        "generated": 0,
        "holder": "Kara",
        "holder_character_id": 1,
        "passed": False,
        "resolution": None,
        "resolved": False,
        "roll_momentum": 0,
        "side": "players",
        "spends": [],
    },
    "result": {
        "assist_dice": [],
        "assistance_counted": True,
        "assistance_faces": [],
        "assistance_successes": 0,
        "bonus_momentum": 0,
        "complications": 1,
        "dice": [
            {"complication": False, "face": 1, "rerolled": True, "successes": 2},
            {"complication": True, "face": 20, "rerolled": False, "successes": 0},
        ],
        "difficulty": 3,
        "faces": [1, 20],
        "focus": 1,
        "momentum": 0,
        "own_complications": 1,
        "own_successes": 2,
        "passed": False,
        "rerolled": [0],
        "shortfall": 1,
        "successes": 2,
        "target": 13,
    },
    "spec": {
        "assistance_needs_leader_success": True,
        "assistants": [],
        "attribute": "Power",
        "bonus_momentum": 0,
        "bonus_restricted_to": None,
        "bought_dice": 0,
        "complication_range": 1,
        "dice": 2,
        "difficulty": 3,
        "extra_dice": 0,
        "factors": [],
        "final_difficulty": 3,
        "focus": 1,
        "focus_name": "",
        "game_line": "seeds",
        "ones": 0,
        "opposed": False,
        "paid": {"cost": 0, "from_momentum": 0, "threat_spent": 0, "to_threat": 0},
        "skill": "Communicate",
        "target": 13,
    },
}

# A spec stored before the game lines: no `ones`, `extra_dice` or `game_line`.
BEFORE_LINES_SPEC = {
    "assistance_needs_leader_success": True,
    "assistants": [],
    "attribute": "Power",
    "bonus_momentum": 0,
    "bonus_restricted_to": None,
    "bought_dice": 0,
    "complication_range": 1,
    "dice": 2,
    "difficulty": 3,
    "factors": [],
    "final_difficulty": 3,
    "focus": 1,
    "focus_name": "",
    "opposed": False,
    "paid": {"cost": 0, "from_momentum": 0, "threat_spent": 0, "to_threat": 0},
    "skill": "Communicate",
    "target": 13,
}

KARAS_TEST = SkillTest(
    target=13,
    difficulty=1,
    focus=6,
    complication_range=1,
    factors=(1,),
    bought_dice=1,
    assistants=(Assistant("Marcus", 12, 1),),
    bonus_momentum=2,
    bonus_restricted_to=frozenset({"create_trait", "obtain_information"}),
)
KARAS_SPENDS = (
    Spend(
        0,
        OBTAIN_INFORMATION,
        from_bonus=1,
        note="Who sent him?",
        refunded=True,
        refund_reason="the answer was “you don't know” (MO-11)",
    ),
    Spend(
        1,
        CREATE_ASSET,
        from_roll=2,
        note="A bribe",
        refunded=True,
        refund_reason="vetoed by the GM: Too easy (MO-12)",
    ),
    Spend(2, custom_spend("Sway the crowd", 1, False, "Win them over"), from_pool=1),
)


def stored(row: dict) -> D20Test:
    return D20Test(spec=row["spec"], result=row["result"], ledger=row["ledger"])


def test_t_r1_mo_01_an_old_test_reads_back_to_the_rules_test_and_its_scored_result():
    record = stored(SPENT)
    result = services_d20.result_of(record)
    assert result == score_test(KARAS_TEST, (1, 5, 20), ((3,),))
    assert (result.successes, result.difficulty, result.momentum, result.bonus_momentum) == (
        5,
        2,
        3,
        2,
    )


def test_mo_02_mo_14_an_old_ledger_reads_back_with_its_refunded_vetoed_and_custom_spends():
    assert services_d20.ledger_of(stored(SPENT)) == MomentumSpendLedger(
        roll_momentum=3,
        bonus_momentum=2,
        bonus_restricted_to=frozenset({"create_trait", "obtain_information"}),
        passed=True,
        side=PLAYERS_SIDE,
        holder="Kara",
        spends=KARAS_SPENDS,
    )


def test_ct_04_an_old_contest_ledger_reads_back_as_the_opposers():
    record = stored(CONTEST_LOST)
    assert services_d20.ledger_of(record) == MomentumSpendLedger(
        roll_momentum=2, passed=True, side=GM_SIDE, holder="Marcus"
    )
    result = services_d20.result_of(record)
    assert result.test == SkillTest(target=13, difficulty=2, opposed=True)
    assert (result.successes, result.passed) == (0, False)


def test_t_04_an_old_rerolled_test_keeps_which_die_was_rerolled():
    result = services_d20.result_of(stored(REROLLED))
    assert result.faces == (1, 20) and result.rerolled == (0,)
    assert result.test == SkillTest(target=13, difficulty=3)


def test_gl_02_a_spec_from_before_the_game_lines_reads_as_no_determination_dice():
    record = D20Test(spec=BEFORE_LINES_SPEC, result=REROLLED["result"], ledger={})
    test = services_d20.result_of(record).test
    assert (test.ones, test.extra_dice, test.dice) == (0, 0, 2)


@pytest.mark.parametrize("row", [SPENT, CONTEST_LOST, REROLLED], ids=["spent", "contest", "reroll"])
def test_what_is_read_back_is_written_in_the_shape_it_was_stored(row):
    """Templates, events and exports read these keys: the writer keeps every one."""
    record = stored(row)
    result = services_d20.result_of(record)
    assert records.result_json(result, record.spec) == row["result"]
    assert records.ledger_json(services_d20.ledger_of(record), record.ledger) == row["ledger"]
    spec = records.spec_json(result.test)
    helpers = spec.pop("assistants")  # the stored ones add the sheet's names and ids
    assert spec == {k: row["spec"][k] for k in spec}
    assert helpers == [
        {k: a[k] for k in ("name", "target", "focus")} for a in row["spec"]["assistants"]
    ]


def test_mo_04_an_old_row_is_spent_on_and_resolved_by_todays_services(
    d20_campaign, player, kara, marcus
):
    """MO-04, MO-05, MO-11: Kara's old test, 3 roll and 2 bonus Momentum left, asks one
    more question from her bonus; "Done" saves the 3 to the group pool, loses the 1 bonus."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=0)
    ledger = {**SPENT["ledger"], "holder_character_id": kara.pk}
    record = D20Test.objects.create(
        campaign=d20_campaign,
        character=kara,
        actor=player,
        spec=SPENT["spec"],
        result=SPENT["result"],
        ledger=ledger,
        state=D20Test.State.SPENDING,
    )
    services_d20.spend_momentum(d20_campaign.pk, player, record.pk, "obtain_information")
    event = services_d20.resolve_test(d20_campaign.pk, player, record.pk)
    assert event.payload["resolution"]["saved"] == 3
    assert event.payload["resolution"]["lost_bonus"] == 1
    record.refresh_from_db()
    assert [s["key"] for s in record.ledger["spends"]][-1] == "obtain_information"
    assert record.ledger["spends"][-1]["from_bonus"] == 1
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 3


def test_a_new_roll_is_stored_in_the_old_shape(d20_campaign, gm, player, kara, marcus):
    """The same roll as SPENT's, made today, stores the same spec and result keys."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    request = services_d20.D20TestRequest(
        "Power",
        "Communicate",
        "Persuasion",
        difficulty=1,
        factors=[1],
        bought_dice=1,
        assistants=[marcus.pk],
        bonus_momentum=2,
        bonus_restricted_to=["obtain_information", "create_trait"],
    )
    test = services_d20.roll_d20_test(
        d20_campaign.pk, gm, kara.pk, request, rng=FixedDice([1, 5, 20, 3])
    )
    old_spec = {**SPENT["spec"], "assistants": [{**SPENT["spec"]["assistants"][0]}]}
    old_spec["assistants"][0]["character_id"] = marcus.pk
    assert test.spec == old_spec
    assert test.result == SPENT["result"]
    assert {k: v for k, v in test.ledger.items() if k != "holder_character_id"} == {
        **{k: v for k, v in SPENT["ledger"].items() if k != "holder_character_id"},
        "bonus_momentum": 2,
        "roll_momentum": 3,
        "spends": [],
    }

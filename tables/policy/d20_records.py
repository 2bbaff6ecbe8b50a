"""What a D20Test row stores (spec, result, ledger) and how it reads back.

The JSON is the rules' own dataclasses (rules/d20.py, rules/momentum.py) through
pydantic TypeAdapters, plus what only the table knows: the sheet's names, the
dice as shown, the holder's id and the resolution. The shape is the one rows
have always been stored in (tests/tables/test_d20_records.py reads old rows), so
nothing needs migrating: a spend keeps its kind's fields beside its own, and keys
rows from before the game lines lack (`ones`, `extra_dice`…) take the rules'
defaults. Stored counts are for display only: result_of scores the faces again.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.contest import resolve_contest
from rules.d20 import SkillTest, SkillTestResult, die_successes, is_complication, score_test
from rules.momentum import GM_SIDE, PLAYERS_SIDE, MomentumSpendLedger, Spend, SpendKind
from tables.models import Character, D20Test

SKILL_TEST = TypeAdapter(SkillTest)
RESULT = TypeAdapter(SkillTestResult)
SPEND_KIND = TypeAdapter(SpendKind)
SPEND = TypeAdapter(Spend)
LEDGER = TypeAdapter(MomentumSpendLedger)


def _sorted_keys(keys: frozenset[str] | None) -> list[str] | None:
    """A frozenset as JSON in one order, so the same ledger is always stored the same."""
    return sorted(keys) if keys is not None else None


# --- the test and its result -----------------------------------------------------------


def spec_json(test: SkillTest) -> dict:
    """The rules' SkillTest as the spec's plain values (the table adds names and ids)."""
    data = SKILL_TEST.dump_python(test, mode="json")
    data["bonus_restricted_to"] = _sorted_keys(test.bonus_restricted_to)
    return data


def result_json(result: SkillTestResult, spec: dict) -> dict:
    """The scored test as stored and shown: the rules' counts and each die as drawn."""
    test = result.test
    data = RESULT.dump_python(result, mode="json", exclude={"test"})
    data["dice"] = [
        {
            "face": face,
            "successes": die_successes(face, test.target, test.focus),
            "complication": is_complication(face, test.complication_range),
            "rerolled": i in result.rerolled,
        }
        for i, face in enumerate(result.faces)
    ]
    data["assist_dice"] = [
        {
            "name": a.name,
            "face": face,
            "successes": die_successes(face, a.target, a.focus),
            "complication": is_complication(face, test.complication_range),
        }
        for a, faces in zip(test.assistants, result.assistance_faces, strict=True)
        for face in faces
    ]
    data.update(shortfall=result.shortfall, target=spec["target"], focus=spec["focus"])
    return data


def result_of(record: D20Test) -> SkillTestResult:
    """Score the stored faces again: the stored result is for display only."""
    stored = RESULT.validate_python({**record.result, "test": record.spec})
    return score_test(stored.test, stored.faces, stored.assistance_faces, rerolled=stored.rerolled)


# --- the Momentum ledger ----------------------------------------------------------------


def spend_json(spend: Spend) -> dict:
    """One spend with its kind's fields beside its own, and the points it took."""
    # MO-11, MO-12: only a refund that gave points to the test says so; the rest keep
    # the shape they were stored in.
    exclude = {"kind"} if spend.back_to_test else {"kind", "back_to_test"}
    data = SPEND.dump_python(spend, mode="json", exclude=exclude)
    data.update(SPEND_KIND.dump_python(spend.kind, mode="json"), points=spend.points)
    return data


def ledger_json(ledger: MomentumSpendLedger, previous: dict) -> dict:
    """The ledger as plain values, keeping what only the service knows (holder id, totals)."""
    data = dict(previous)
    data.update(LEDGER.dump_python(ledger, mode="json", exclude={"spends"}))
    data["bonus_restricted_to"] = _sorted_keys(ledger.bonus_restricted_to)
    data["spends"] = [spend_json(s) for s in ledger.spends]
    return data


def ledger_of(record: D20Test) -> MomentumSpendLedger:
    """The rules' ledger of a stored test (each spend's kind is read from its own keys)."""
    data = record.ledger
    spends = [{**s, "kind": s} for s in data.get("spends", ())]
    return LEDGER.validate_python({**data, "spends": spends})


def ledger_view(record: D20Test) -> dict:
    """What a log entry shows of the ledger: who holds how much, nothing of Threat's total."""
    data = record.ledger or {}
    return {
        "holder": data.get("holder"),
        "holder_character_id": data.get("holder_character_id"),
        "roll_momentum": data.get("roll_momentum", 0),
        "bonus_momentum": data.get("bonus_momentum", 0),
        "contest_won": data.get("contest_won"),
        "passed": data.get("passed"),
    }


def fresh_ledger(record: D20Test, result: SkillTestResult) -> dict:
    """Open the Momentum ledger of a freshly scored test (MO-01, MO-05, CT-03, CT-04).

    In a contest the loser's roll opens the opposer's ledger instead: 1 Momentum
    per success short, spent by whoever controls the opposer (CT-04).
    """
    character = record.character
    holder = character
    if record.role == D20Test.Role.ACTIVE:
        contest = record.contest
        outcome = resolve_contest(
            result_of(contest.tests.get(role=D20Test.Role.OPPOSER)),
            result,
            hindrances=contest.hindrances,
            opposer_is_gm_character=contest.opposer.is_npc,
            active_is_gm_character=character.is_npc,
            opposer_name=contest.opposer.name,
            active_name=character.name,
        )
        if outcome.active_won:
            ledger = outcome.active_ledger
        else:
            ledger, holder = outcome.opposer_ledger, contest.opposer
    else:
        ledger = MomentumSpendLedger.for_result(
            result, side=side_of(character), holder=character.name
        )
    return ledger_json(
        ledger,
        {
            "holder_character_id": holder.pk,
            "generated": ledger.roll_momentum,
            "bonus_generated": ledger.bonus_momentum,
            "contest_won": (holder.pk == character.pk) if record.contest_id else None,
            "resolution": None,
        },
    )


def holder_of(record: D20Test) -> Character:
    """Whose Momentum the ledger holds: the roller, or the opposer who won (CT-04)."""
    holder_id = record.ledger.get("holder_character_id", record.character_id)
    if holder_id == record.character_id:
        return record.character
    return Character.objects.get(pk=holder_id)


def side_of(character: Character) -> str:
    """NPCs are the GM's characters (MO-13, CT-R1)."""
    return GM_SIDE if character.is_npc else PLAYERS_SIDE

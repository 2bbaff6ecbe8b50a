"""2d20 play: skill tests, Determination, Momentum spends and contests.

Same shape as services.py: one function per command a person can give. Each
opens a transaction, locks the campaign row, checks who may do it, lets
rules/ decide, writes every pool change through change_pool (with its reason)
and appends one TableEvent.

Choices made here, where the seeds leave the table to decide:

- Target number = the character's Attribute value + Skill value (T-R1), read
  from the sheet by name.
- A focus applies only if the character has it (a Trait of kind "focus").
  With a focus, every die at or under the *skill* value scores 2 successes
  (the usual 2d20 convention); without one, only a 1 does (focus 1).
- Assisting characters roll against their own attribute + skill of the same
  names as the leader's unless the command names others (T-03).
- NPCs (is_npc) are the GM's characters: the GM buys their dice with Threat
  (MO-08, MO-13) and their unspent Momentum goes to Threat (CT-R1).
- Determination rerolls (T-04) come before any Momentum is spent: the first
  spend closes the dice.
- A secret test (TB-03) changes no pool a player sees while it is hidden: not
  the group pool, not Determination, not Threat while it is shown to players.
  Those pools are on every screen (PM-13, MO-13), and a move with no log entry
  would betray the roll. So a hidden test buys its dice only with Threat the
  players cannot see, spends only its own Momentum, and is revealed before a
  Determination reroll or before its unspent Momentum is saved to a pool they
  see; anything else is refused and changes nothing. The Momenta side refuses
  the same (services_momenta.roll_momenta: a secret roll changes no pool).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import contextmanager

from django.core.exceptions import PermissionDenied
from django.db import transaction

from rules.contest import contest_difficulty, opposing_test, resolve_contest
from rules.d20 import (
    Assistant,
    SkillOdds,
    SkillTest,
    SkillTestResult,
    die_successes,
    is_complication,
    roll_test,
    score_test,
    skill_odds,
)
from rules.d20 import determination_reroll as rules_determination_reroll
from rules.errors import RulesError
from rules.game_lines import BONUS_ONE, SET_ONE
from rules.ledger import DETERMINATION, GM, GROUP_MOMENTUM, PLAYER, THREAT, LedgerEntry
from rules.momentum import (
    CREATE_ASSET,
    GM_SIDE,
    MAKE_ASSET_PERMANENT,
    PLAYERS_SIDE,
    GroupPool,
    MomentumSpendLedger,
    Resolution,
    Spend,
    SpendKind,
    Threat,
    buy_d20s,
    custom_spend,
    d20_purchase_cost,
    resolution_summary,
    spend_catalogue,
)
from tables import events
from tables.models import (
    Asset,
    Campaign,
    Character,
    Contest,
    D20Test,
    Membership,
    PoolChange,
    TableEvent,
    Trait,
)
from tables.services import game_lines as line_rules
from tables.services.access import audience_of, can_control, require_control, seen_by
from tables.services.core import (
    Change,
    ServiceError,
    StaleState,
    append_event,
    change_pool,
    character_in,
    character_under_lock,
    lock_campaign,
    players_see,
    playing_member,
    require_gm,
    require_playing,
)
from tables.services.wording import count, refund_back, spend_paid, successes

NOTE_MAX = 120  # a spend's note; the pool ledger's reason holds 200


# --- small helpers ----------------------------------------------------------------


@contextmanager
def refused_by_rules():
    """Turn a refusal by the rules into a ServiceError with the same message."""
    try:
        yield
    except RulesError as error:
        raise ServiceError(str(error)) from error


def _require_d20(campaign: Campaign) -> None:
    if campaign.dice_system != Campaign.DiceSystem.D20 or not campaign.uses_group_economy:
        raise ServiceError(
            "2d20 tests need the d20 dice system and the group Momentum economy "
            "(see the campaign settings)."
        )


def _group_pool(campaign: Campaign) -> GroupPool:
    """The group pool as the rules see it, with the game line's cap (MO-06, GL-01)."""
    return GroupPool(campaign.group_momentum, own_cap=campaign.group_cap)


def _side(character: Character) -> str:
    """NPCs are the GM's characters (MO-13, CT-R1)."""
    return GM_SIDE if character.is_npc else PLAYERS_SIDE


# resolve_test's name for access.audience_of (TB-03: events about a hidden test reach GMs).
_audience = audience_of


def _keep_secret(campaign: Campaign, hidden: bool, changes: list[Change], instead: str) -> None:
    """TB-03: a hidden test moves no pool the players see (see the module docstring).

    Called inside the transaction after the changes are made: raising rolls them back.
    """
    seen = sorted({PoolChange.Pool(c.pool).label for c in changes if players_see(campaign, c.pool)})
    if hidden and seen:
        raise ServiceError(
            f"A secret test cannot change {' or '.join(seen)}: every player would see it "
            f"move. {instead}"
        )


def visible_test_record(campaign: Campaign, membership: Membership, test_id) -> D20Test:
    """A test of this campaign that the member may see (TB-03: secret ones are GM-only)."""
    tests = D20Test.objects.select_related("character", "contest", "contest__opposer")
    record = seen_by(membership, tests.filter(campaign=campaign)).filter(pk=test_id).first()
    if record is None:
        raise ServiceError("There is no such test at this table.")
    return record


def catalogue(campaign: Campaign) -> dict[str, SpendKind]:
    """Standard spends plus the campaign's custom ones, by key (MO-09 … MO-11, MO-14)."""
    custom = [
        custom_spend(s.name, s.cost, s.repeatable, s.description)
        for s in campaign.custom_spends.order_by("name")
    ]
    with refused_by_rules():
        return spend_catalogue(custom)


def _apply(
    campaign: Campaign,
    entries: Iterable[LedgerEntry],
    *,
    who: str,
    character: Character | None = None,
    expected_momentum: int | None = None,
    fresh: bool = False,
) -> list[Change]:
    """Write rules' ledger entries as pool changes, in order, each with its reason.

    `expected_momentum` is the group pool the person saw: if it moved since,
    StaleState is raised before anything is written (the transaction rolls back).
    `fresh`: the campaign's pools were read with its lock (change_pool's `fresh`).
    """
    changes = []
    for entry in entries:
        reason = f"{who}: {entry.reason}"[:200]
        if entry.pool in (GROUP_MOMENTUM, THREAT):
            expected = expected_momentum if entry.pool == GROUP_MOMENTUM else None
            owner = None
        elif entry.pool == DETERMINATION:
            expected, owner = None, character
        else:  # pragma: no cover - the 2d20 rules touch no other pool
            raise ValueError(f"unexpected pool {entry.pool!r}")
        # Hand change_pool what the rules asked for; rules.pools works out the
        # cap for both, so the line written is the entry, or the pool moved.
        change = change_pool(
            campaign,
            entry.pool,
            entry.requested,
            reason,
            character=owner,
            expected=expected,
            fresh=fresh and owner is None,
        )
        if (change.delta, change.lost, change.after) != (entry.delta, entry.lost, entry.after):
            raise StaleState("The pools changed while this was worked out; try again.")
        changes.append(change)
    return changes


# --- (de)serialising what rules/ returns ------------------------------------------


def _test_from_spec(spec: dict) -> SkillTest:
    restricted = spec.get("bonus_restricted_to")
    return SkillTest(
        target=spec["target"],
        difficulty=spec["difficulty"],
        focus=spec["focus"],
        complication_range=spec["complication_range"],
        factors=tuple(spec["factors"]),
        bought_dice=spec["bought_dice"],
        assistants=tuple(Assistant(a["name"], a["target"], a["focus"]) for a in spec["assistants"]),
        bonus_momentum=spec["bonus_momentum"],
        bonus_restricted_to=frozenset(restricted) if restricted is not None else None,
        assistance_needs_leader_success=spec["assistance_needs_leader_success"],
        opposed=spec["opposed"],
        ones=spec.get("ones", 0),  # GL-02, GL-03 (absent from tests rolled before lines)
        extra_dice=spec.get("extra_dice", 0),
    )


def result_of(record: D20Test) -> SkillTestResult:
    """Score the stored faces again: the stored result is for display only."""
    data = record.result
    return score_test(
        _test_from_spec(record.spec),
        data["faces"],
        [tuple(f) for f in data["assistance_faces"]],
        rerolled=tuple(data.get("rerolled", ())),
    )


def _result_json(result: SkillTestResult, spec: dict) -> dict:
    test = result.test
    dice = [
        {
            "face": face,
            "successes": die_successes(face, test.target, test.focus),
            "complication": is_complication(face, test.complication_range),
            "rerolled": i in result.rerolled,
        }
        for i, face in enumerate(result.faces)
    ]
    assist_dice = [
        {
            "name": a.name,
            "face": face,
            "successes": die_successes(face, a.target, a.focus),
            "complication": is_complication(face, test.complication_range),
        }
        for a, faces in zip(test.assistants, result.assistance_faces, strict=True)
        for face in faces
    ]
    return {
        "faces": list(result.faces),
        "assistance_faces": [list(f) for f in result.assistance_faces],
        "dice": dice,
        "assist_dice": assist_dice,
        "own_successes": result.own_successes,
        "assistance_successes": result.assistance_successes,
        "assistance_counted": result.assistance_counted,
        "successes": result.successes,
        "difficulty": result.difficulty,
        "passed": result.passed,
        "momentum": result.momentum,
        "bonus_momentum": result.bonus_momentum,
        "own_complications": result.own_complications,
        "complications": result.complications,
        "shortfall": result.shortfall,
        "rerolled": list(result.rerolled),
        "target": spec["target"],
        "focus": spec["focus"],
    }


def _spend_json(spend: Spend) -> dict:
    kind = spend.kind
    return {
        "index": spend.index,
        "key": kind.key,
        "name": kind.name,
        "cost": kind.cost,
        "repeatable": kind.repeatable,
        "description": kind.description,
        "custom": kind.custom,
        "from_roll": spend.from_roll,
        "from_bonus": spend.from_bonus,
        "from_pool": spend.from_pool,
        "to_threat": spend.to_threat,
        "note": spend.note,
        "refunded": spend.refunded,
        "refund_reason": spend.refund_reason,
        "points": spend.points,
    }


def _spend_from(data: dict) -> Spend:
    kind = SpendKind(
        data["key"],
        data["name"],
        data["cost"],
        data["repeatable"],
        data.get("description", ""),
        data.get("custom", False),
    )
    return Spend(
        data["index"],
        kind,
        data["from_roll"],
        data["from_bonus"],
        data["from_pool"],
        data["to_threat"],
        data.get("note", ""),
        data.get("refunded", False),
        data.get("refund_reason", ""),
    )


def _ledger_json(ledger: MomentumSpendLedger, previous: dict) -> dict:
    """The ledger as plain values, keeping what only the service knows (holder id, totals)."""
    data = dict(previous)
    restricted = ledger.bonus_restricted_to
    data.update(
        side=ledger.side,
        holder=ledger.holder,
        roll_momentum=ledger.roll_momentum,
        bonus_momentum=ledger.bonus_momentum,
        bonus_restricted_to=sorted(restricted) if restricted is not None else None,
        passed=ledger.passed,
        resolved=ledger.resolved,
        spends=[_spend_json(s) for s in ledger.spends],
    )
    return data


def ledger_of(record: D20Test) -> MomentumSpendLedger:
    data = record.ledger
    restricted = data.get("bonus_restricted_to")
    return MomentumSpendLedger(
        roll_momentum=data["roll_momentum"],
        bonus_momentum=data["bonus_momentum"],
        bonus_restricted_to=frozenset(restricted) if restricted is not None else None,
        passed=data["passed"],
        side=data["side"],
        holder=data.get("holder"),
        spends=tuple(_spend_from(s) for s in data.get("spends", ())),
        resolved=data.get("resolved", False),
    )


def _fresh_ledger(record: D20Test, result: SkillTestResult) -> dict:
    """Open the Momentum ledger of a freshly scored test (MO-01, MO-05, CT-03, CT-04).

    In a contest the loser's roll opens the opposer's ledger instead: 1 Momentum
    per success short, spent by whoever controls the opposer (CT-04).
    """
    character = record.character
    holder = character
    if record.role == D20Test.Role.ACTIVE:
        contest = record.contest
        opposer_record = contest.tests.get(role=D20Test.Role.OPPOSER)
        outcome = resolve_contest(
            result_of(opposer_record),
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
            result, side=_side(character), holder=character.name
        )
    return _ledger_json(
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


# --- building a test from the sheet -------------------------------------------------


def _named(rows, name: str, attr: str = "name"):
    """The row whose `attr` is `name`, ignoring case and spaces around it; else None.
    Matched here, not in SQL, so a sheet the caller prefetched is not read again."""
    wanted = (name or "").strip().casefold()
    return next((r for r in rows if getattr(r, attr).casefold() == wanted), None)


def _target(character: Character, attribute: str, skill: str) -> tuple[int, int, dict]:
    """T-R1: target = attribute + skill, from the character's sheet."""
    attr = _named(character.attributes.all(), attribute)
    if attr is None:
        raise ServiceError(f"{character.name} has no attribute called “{attribute}”.")
    row = _named(character.skills.all(), skill)
    if row is None:
        raise ServiceError(f"{character.name} has no skill called “{skill}”.")
    if attr.value + row.value < 1:
        raise ServiceError(f"{character.name}'s {attr.name} + {row.name} is 0: no target.")
    return attr.value + row.value, row.value, {"attribute": attr.name, "skill": row.name}


def _focus(character: Character, focus_name: str, skill_value: int) -> tuple[int, str]:
    """A focus the character has: every die ≤ skill scores 2 (T-R1); otherwise focus 1."""
    focus_name = (focus_name or "").strip()
    if not focus_name:
        return 1, ""
    focuses = [t for t in character.traits.all() if t.kind == Trait.Kind.FOCUS]
    trait = _named(focuses, focus_name, "text")
    if trait is None:
        raise ServiceError(f"{character.name} has no focus called “{focus_name}”.")
    return max(1, min(20, skill_value)), trait.text


def _assistants(
    campaign: Campaign, leader: Character, assistants: Sequence, attribute: str, skill: str
) -> list[dict]:
    """T-03: each ally's own target number; (character_id[, attribute, skill[, focus]])."""
    out, seen = [], {leader.pk}
    for item in assistants or ():
        item = (item,) if isinstance(item, int | str) else tuple(item)
        character = character_in(campaign, item[0])
        if character.pk in seen:
            raise ServiceError(
                f"{character.name} is already rolling in this test."
                if character.pk == leader.pk
                else f"{character.name} can assist only once."
            )
        seen.add(character.pk)
        a_attr = item[1] if len(item) > 1 and item[1] else attribute
        a_skill = item[2] if len(item) > 2 and item[2] else skill
        target, skill_value, names = _target(character, a_attr, a_skill)
        focus, focus_name = _focus(character, item[3] if len(item) > 3 else "", skill_value)
        out.append(
            {
                "character_id": character.pk,
                "name": character.name,
                **names,
                "target": target,
                "focus": focus,
                "focus_name": focus_name,
            }
        )
    return out


def build_spec(
    campaign: Campaign,
    character: Character,
    *,
    attribute: str,
    skill: str,
    focus: str = "",
    difficulty: int = 1,
    factors: Sequence[int] = (),
    bought_dice: int = 0,
    assistants: Sequence = (),
    bonus_momentum: int = 0,
    bonus_restricted_to: Iterable[str] | None = None,
    contest: Contest | None = None,
    opposer: bool = False,
    complication_range: int | None = None,
    spend_determination: bool = False,
) -> tuple[dict, SkillTest]:
    """Everything decided before the roll, as plain values, and the rules' SkillTest.

    Reads the sheet only; used for the odds preview (T-05) and for the roll.
    `spend_determination`: the line's Determination spent before the roll (GL-02, GL-03).
    """
    line = campaign.line
    if spend_determination and not line.spends_before_roll:
        raise ServiceError(
            f"In {line.title}, {line.personal_pool} rerolls dice after the roll, "
            "with the GM's leave (T-04)."
        )
    if spend_determination and opposer:
        raise ServiceError(f"The opposer's roll only sets the Difficulty: no {line.personal_pool}.")
    ones, extra_dice = line.determination_dice(spend_determination)
    target, skill_value, names = _target(character, attribute, skill)
    focus_value, focus_name = _focus(character, focus, skill_value)
    restricted = sorted(set(bonus_restricted_to)) if bonus_restricted_to else None
    if restricted:
        known = catalogue(campaign)
        unknown = [k for k in restricted if k not in known]
        if unknown:
            raise ServiceError("Bonus Momentum can be kept only for spends on the list.")
    if contest is not None:
        difficulty = contest.difficulty  # CT-01, CT-02: set by the opposer's roll
    if opposer:
        difficulty, factors, bonus_momentum, restricted = 0, (), 0, None
    spec = {
        **names,
        "target": target,
        "focus": focus_value,
        "focus_name": focus_name,
        "difficulty": difficulty,
        "factors": list(factors or ()),
        "bought_dice": bought_dice,
        "assistants": _assistants(
            campaign, character, assistants, names["attribute"], names["skill"]
        ),
        "bonus_momentum": bonus_momentum,
        "bonus_restricted_to": restricted,
        # A called test's or the composer's own range, else the scene's (GL-05), else T-R1's.
        "complication_range": line_rules.complication_range(campaign, complication_range),
        "assistance_needs_leader_success": campaign.assistance_needs_leader_success,
        "opposed": contest is not None,
        "ones": ones,
        "extra_dice": extra_dice,
        "game_line": line.key,
    }
    with refused_by_rules():
        d20_purchase_cost(bought_dice)  # MO-08: a fourth die gets the rules' own words
        test = _test_from_spec(spec)
    spec["final_difficulty"] = test.final_difficulty
    spec["dice"] = test.dice
    return spec, test


def preview_odds(campaign: Campaign, character: Character, **params) -> tuple[dict, SkillOdds]:
    """T-05: the exact odds of the test the composer describes; changes nothing."""
    spec, test = build_spec(campaign, character, **params)
    return spec, skill_odds(test)


def _buy(
    campaign: Campaign,
    character: Character,
    membership: Membership,
    dice: int,
    from_momentum: int,
    expected_momentum: int | None,
) -> tuple[dict, list[Change]]:
    """MO-08, MO-13: pay for bought d20s. Players split the cost between the group
    pool and Threat; the GM pays an NPC's dice from Threat."""
    if not dice:
        if from_momentum:
            raise ServiceError("No dice bought, so there is nothing to pay.")
        return {"cost": 0, "from_momentum": 0, "to_threat": 0, "threat_spent": 0}, []
    with refused_by_rules():
        if character.is_npc:
            if not membership.is_gm:  # pragma: no cover - can_control already refused
                raise PermissionDenied("Only the GM buys dice for NPCs.")
            purchase = buy_d20s(
                dice, actor=GM, threat=Threat(campaign.threat), from_momentum=from_momentum
            )
        else:
            purchase = buy_d20s(
                dice,
                actor=PLAYER,
                threat=Threat(campaign.threat),
                momentum=_group_pool(campaign),
                from_momentum=from_momentum,
            )
    # Both callers hand over the campaign they just locked: its pools are current.
    changes = _apply(
        campaign,
        purchase.entries,
        who=character.name,
        expected_momentum=expected_momentum,
        fresh=True,
    )
    paid = {
        "cost": purchase.cost,
        "from_momentum": purchase.from_momentum,
        "to_threat": purchase.to_threat,
        "threat_spent": purchase.threat_spent,
    }
    return paid, changes


def _roll_payload(record: D20Test, **extra) -> dict:
    spec, result = record.spec, record.result
    character = record.character
    verdict = "passes" if result["passed"] else "fails"
    text = (
        f"{character.name} rolls {spec['attribute']} + {spec['skill']} "
        f"(target {spec['target']}{', focus ' + spec['focus_name'] if spec['focus_name'] else ''})"
        f": {successes(result['successes'])} against Difficulty {result['difficulty']}, {verdict}"
    )
    if result["passed"] and result["momentum"]:
        text += f", {result['momentum']} Momentum"
    payload = {
        "test_id": record.pk,
        "character_id": character.pk,
        "character": character.name,
        "role": record.role,
        "contest_id": record.contest_id,
        "secret": record.secret,
        "spec": spec,
        "result": result,
        "ledger": _ledger_view(record),
        "summary": text + ".",
    }
    payload.update(extra)
    return payload


def _ledger_view(record: D20Test) -> dict:
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


# --- rolling ----------------------------------------------------------------------


def roll_d20_test(
    campaign_id: int,
    actor,
    character_id: int,
    *,
    attribute: str,
    skill: str,
    focus: str = "",
    difficulty: int = 1,
    factors: Sequence[int] = (),
    bought_dice: int = 0,
    buy_from_momentum: int = 0,
    expected_momentum: int | None = None,
    assistants: Sequence = (),
    bonus_momentum: int = 0,
    bonus_restricted_to: Iterable[str] | None = None,
    contest_id: int | None = None,
    secret: bool = False,
    rng=None,
    membership: Membership | None = None,
    character: Character | None = None,
    complication_range: int | None = None,
    seen_seq: int | None = None,
    spend_determination: bool = False,
) -> D20Test:
    """Roll a 2d20 skill test (T-R1, T-R2, T-03, MO-01, MO-05, MO-08, CT-01, CT-02, TB-02, TB-03).

    Bought dice are paid first: `buy_from_momentum` points from the group pool
    (stale-checked against `expected_momentum`), the rest added to Threat; the
    GM pays an NPC's from Threat. A fourth bought die is refused. With
    `contest_id` the Difficulty is the opposer's (CT-01, CT-02) and `factors`
    move it as usual; the test's failure hands the opposer Momentum (CT-04).
    `secret` (GM only) keeps the roll to GMs until revealed (TB-03).
    `rng` (anything with randint) is for tests; play uses the system CSPRNG.
    `membership` and `character` (with its sheet), if the caller read them for this
    command, are not read again: only what a concurrent command can change is, and
    not even that if the campaign's last_seq is still `seen_seq`, the one read before
    `character` (core.character_under_lock).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = playing_member(campaign, actor, membership)
        _require_d20(campaign)
        character = character_under_lock(
            campaign, character_id, character, _FRESH_FIELDS, seen_seq=seen_seq
        )
        require_control(membership, character, f"{character.name} is not yours to play.")
        if secret and not membership.is_gm:
            raise PermissionDenied("Only the GM can roll secretly.")
        contest = None
        if contest_id is not None:
            contest = _open_contest(campaign, contest_id)
            if contest.state != Contest.State.AWAITING:
                raise ServiceError(f"{contest.active.name} has already rolled in this contest.")
            if contest.active_id != character.pk:
                raise ServiceError(f"This contest is {contest.active.name}'s to roll.")
            if secret:
                raise ServiceError("A contest roll is everyone's business: it cannot be secret.")
        spec, test = build_spec(
            campaign,
            character,
            attribute=attribute,
            skill=skill,
            focus=focus,
            difficulty=difficulty,
            factors=factors,
            bought_dice=bought_dice,
            assistants=assistants,
            bonus_momentum=bonus_momentum,
            bonus_restricted_to=bonus_restricted_to,
            contest=contest,
            complication_range=complication_range,
            spend_determination=spend_determination,
        )
        paid, changes = _buy(
            campaign, character, membership, bought_dice, buy_from_momentum, expected_momentum
        )
        if spend_determination:  # GL-02, GL-03: paid before the dice are rolled
            changes.append(_determination_before_roll(campaign, character))
        _keep_secret(
            campaign, secret, changes, "Roll it openly, or buy its dice with hidden Threat."
        )
        spec["paid"] = paid
        with refused_by_rules():
            result = roll_test(test, rng)  # TB-02: server-side dice
        record = D20Test(
            campaign=campaign,
            character=character,
            actor=actor,
            role=D20Test.Role.ACTIVE if contest else D20Test.Role.TEST,
            contest=contest,
            spec=spec,
            result=_result_json(result, spec),
            secret=secret,
        )
        record.ledger = _fresh_ledger(record, result)
        record.save()
        if contest is not None:
            contest.state = Contest.State.ROLLED
            contest.save(update_fields=["state"])
        extra = {}
        if contest is not None:
            extra["contest"] = _contest_view(contest)
        event = append_event(
            campaign,
            events.D20_TEST,
            actor,
            _roll_payload(record, **extra),
            audience=audience_of(record),
            changes=changes,
        )
        record.event = event
        record.save(update_fields=["event"])
    return record


# What a concurrent command may change on a character read before the lock.
_FRESH_FIELDS = ("name", "owner", "is_npc", "determination")

# What one point of the personal pool buys before the roll, in the ledger's words.
_BEFORE_ROLL_WORDS = {
    BONUS_ONE: "a bonus d20 showing 1 (GL-02)",
    SET_ONE: "one d20 set to 1 (GL-03)",
}


def _determination_before_roll(campaign: Campaign, character: Character) -> Change:
    """GL-02, GL-03: 1 point of the line's personal pool, spent as the test is rolled."""
    line = campaign.line
    reason = f"{character.name}: {line.personal_pool} for {_BEFORE_ROLL_WORDS[line.personal_spend]}"
    if character.determination < 1:
        raise ServiceError(f"{character.name} has no {line.personal_pool} left to spend.")
    return change_pool(campaign, DETERMINATION, -1, reason, character=character)


def _open_contest(campaign: Campaign, contest_id) -> Contest:
    contest = (
        Contest.objects.select_related("opposer", "active")
        .filter(campaign=campaign, pk=contest_id)
        .first()
    )
    if contest is None:
        raise ServiceError("There is no such contest at this table.")
    if not contest.is_open:
        raise ServiceError("That contest is over.")
    return contest


def _contest_view(contest: Contest) -> dict:
    return {
        "id": contest.pk,
        "opposer": contest.opposer.name,
        "opposer_id": contest.opposer_id,
        "active": contest.active.name,
        "active_id": contest.active_id,
        "hindrances": contest.hindrances,
        "difficulty": contest.difficulty,
        "state": contest.state,
    }


def determination_reroll(
    campaign_id: int, actor, test_id: int, indices: Sequence[int], *, rng=None
) -> TableEvent:
    """T-04: with the GM's leave, spend 1 Determination to reroll chosen dice of one's
    own pool (never assistance dice). Only before any Momentum is spent."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = visible_test_record(campaign, membership, test_id)
        character = record.character
        require_control(membership, character, f"{character.name} is not yours to play.")
        if record.role == D20Test.Role.OPPOSER:
            raise ServiceError("The opposer's roll has set the Difficulty; it is not rerolled.")
        line = campaign.line
        if line.spends_before_roll:  # GL-02, GL-03: that line spends it as the test is rolled
            raise ServiceError(
                f"In {line.title}, {line.personal_pool} is spent as you roll, not to reroll."
            )
        if record.state != D20Test.State.ROLLED:
            raise ServiceError(
                "Determination rerolls come before Momentum is spent; this test is past that."
            )
        character.refresh_from_db(fields=["determination"])
        before = record.result
        with refused_by_rules():
            reroll = rules_determination_reroll(
                result_of(record),
                [int(i) for i in indices],
                determination=character.determination,
                holder=character.name,
                gm_permits=record.determination_permitted,
                rng=rng,
            )
        changes = _apply(campaign, reroll.entries, who=character.name, character=character)
        _keep_secret(campaign, record.hidden, changes, "Reveal the test first.")
        record.result = _result_json(reroll.result, record.spec)
        record.ledger = _fresh_ledger(record, reroll.result)
        record.save(update_fields=["result", "ledger"])
        payload = _roll_payload(
            record,
            indices=sorted(int(i) for i in indices),
            faces_before=before["faces"],
            successes_before=before["successes"],
        )
        payload["summary"] = (
            f"{character.name} spends Determination to reroll "
            f"{count(len(payload['indices']), 'die', 'dice')}: {before['successes']} → "
            f"{successes(record.result['successes'])}, "
            f"{'passes' if record.result['passed'] else 'fails'}."
        )
        return append_event(
            campaign,
            events.D20_REROLL,
            actor,
            payload,
            audience=audience_of(record),
            changes=changes,
        )


# --- spending Momentum --------------------------------------------------------------


def _open_for_spending(campaign: Campaign, membership: Membership, test_id) -> D20Test:
    record = visible_test_record(campaign, membership, test_id)
    if record.role == D20Test.Role.OPPOSER:
        raise ServiceError("The opposer's roll only sets the Difficulty; it has no Momentum.")
    if record.state == D20Test.State.RESOLVED:
        raise ServiceError("This test's Momentum has already been resolved.")
    return record


def spend_momentum(
    campaign_id: int,
    actor,
    test_id: int,
    kind_key: str,
    *,
    from_pool: int | None = None,
    to_threat: int = 0,
    note: str = "",
    expected_momentum: int | None = None,
) -> TableEvent:
    """Make one use of a Momentum spend after the GM has narrated (MO-02, MO-03, MO-05,
    MO-09, MO-10, MO-11, MO-13, MO-14, CT-03, CT-04).

    Nothing is declared in advance: each call is one use, paid from the roll's
    Momentum (bonus first where allowed), `from_pool` points from the group
    pool (None: whatever the roll does not cover) and `to_threat` points added
    to Threat. A once-per-test spend cannot repeat. The group pool must still
    hold `expected_momentum` if given (else StaleState, nothing changed).
    """
    note = (note or "").strip()[:NOTE_MAX]
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = _open_for_spending(campaign, membership, test_id)
        holder = holder_of(record)
        require_control(membership, holder, f"{holder.name} is not yours to play.")
        kind = catalogue(campaign).get(kind_key)
        if kind is None:
            raise ServiceError("Choose a spend from the list.")
        # MO-10: the asset is named before any point moves; the note keeps its name.
        asset, note = _asset_for(holder, kind, note)
        ledger = ledger_of(record)
        players = ledger.side == PLAYERS_SIDE
        with refused_by_rules():
            outcome = ledger.spend(
                kind,
                _group_pool(campaign) if players else None,
                from_pool=from_pool,
                to_threat=to_threat,
                threat=Threat(campaign.threat),
                note=note,
            )
        changes = _apply(
            campaign, outcome.entries, who=holder.name, expected_momentum=expected_momentum
        )
        _keep_secret(
            campaign,
            record.hidden,
            changes,
            "Pay from the roll's own Momentum, or reveal the test first.",
        )
        record.ledger = _ledger_json(outcome.ledger, record.ledger)
        record.state = D20Test.State.SPENDING
        record.save(update_fields=["ledger", "state"])
        asset = _place_asset(holder, kind, asset, note)
        summary = _spend_summary(holder.name, outcome.spend)
        payload = _spend_payload(record, holder, outcome.spend, summary)
        if asset is not None:
            payload["asset"] = {"name": asset.name, "quality": asset.quality,
                                "permanent": asset.permanent}  # fmt: skip
        return append_event(
            campaign,
            events.D20_SPEND,
            actor,
            payload,
            audience=audience_of(record),
            changes=changes,
        )


ASSET_DEFAULT_NAME = "Scene asset"


def _asset_for(holder: Character, kind: SpendKind, note: str) -> tuple[Asset | None, str]:
    """MO-10, before anything is paid: (the scene's asset a Make-permanent spend keeps, or
    None; the spend's note, which names the asset so a veto finds it again)."""
    if kind.key == CREATE_ASSET.key:
        return None, note or ASSET_DEFAULT_NAME
    if kind.key != MAKE_ASSET_PERMANENT.key:
        return None, note
    scene_assets = Asset.objects.filter(character=holder, permanent=False)
    if note:
        scene_assets = scene_assets.filter(name__iexact=note)
    asset = scene_assets.order_by("-pk").first()
    if asset is None:
        named = f" named {note}" if note else ""
        raise ServiceError(
            f"{holder.name} has no asset from this scene{named} to make permanent (MO-10). "
            "Nothing was spent."
        )
    return asset, asset.name


def _place_asset(holder: Character, kind: SpendKind, asset: Asset | None, note: str):
    """MO-10, once paid: Create Asset puts a Quality 0 asset on the sheet until the scene
    ends (sessions.end_scene removes it); Make permanent keeps one for good."""
    if kind.key == CREATE_ASSET.key:
        return Asset.objects.create(character=holder, name=note, quality=0, permanent=False)
    if asset is not None:
        asset.permanent, asset.quality = True, 0
        asset.save(update_fields=["permanent", "quality"])
    return asset


def _take_back_asset(holder: Character, spend: Spend) -> None:
    """MO-12: a vetoed asset spend is undone on the sheet as its points are refunded."""
    if spend.kind.key == CREATE_ASSET.key:
        made = Asset.objects.filter(character=holder, name=spend.note, permanent=False)
        made.filter(pk__in=made.order_by("-pk").values("pk")[:1]).delete()
    elif spend.kind.key == MAKE_ASSET_PERMANENT.key:
        kept = Asset.objects.filter(character=holder, name=spend.note, permanent=True)
        kept = kept.order_by("-pk").first()
        if kept is not None:
            kept.permanent = False
            kept.save(update_fields=["permanent"])


def _spend_payload(record: D20Test, holder: Character, spend: Spend, summary: str) -> dict:
    """The event of one spend, or of its refund or veto: the spend and what is left."""
    return {
        "test_id": record.pk,
        "character_id": holder.pk,
        "character": holder.name,
        "spend": _spend_json(spend),
        "ledger": _ledger_view(record),
        "summary": summary,
    }


def _spend_summary(name: str, spend: Spend) -> str:
    note = f": {spend.note}" if spend.note else ""
    paid = spend_paid(spend)
    return f"{name} spends {spend.kind.cost} Momentum on {spend.kind.name}{note} ({paid})."


def _gm_refund(campaign_id, actor, test_id, index, *, veto: bool, reason: str = "") -> TableEvent:
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        record = _open_for_spending(campaign, membership, test_id)
        holder = holder_of(record)
        ledger = ledger_of(record)
        pool = _group_pool(campaign) if ledger.side == PLAYERS_SIDE else None
        with refused_by_rules():
            if veto:
                outcome = ledger.veto(
                    index, pool, actor=GM, threat=Threat(campaign.threat), reason=reason
                )
            else:
                outcome = ledger.refund_dont_know(
                    index, pool, actor=GM, threat=Threat(campaign.threat)
                )
        changes = _apply(campaign, outcome.entries, who=holder.name)
        _keep_secret(campaign, record.hidden, changes, "Reveal the test first.")
        record.ledger = _ledger_json(outcome.ledger, record.ledger)
        record.save(update_fields=["ledger"])
        spend = outcome.spend
        if veto:
            _take_back_asset(holder, spend)
        what = "vetoes" if veto else "answers “you don't know” and refunds"
        summary = (
            f"The GM {what} {holder.name}'s {spend.kind.name} "
            f"({refund_back(spend, changes)}): {spend.refund_reason}."
        )
        return append_event(
            campaign,
            events.D20_VETO if veto else events.D20_REFUND,
            actor,
            _spend_payload(record, holder, spend, summary),
            audience=audience_of(record),
            changes=changes,
        )


def refund_dont_know(campaign_id: int, actor, test_id: int, spend_index: int) -> TableEvent:
    """MO-11: the GM answered “you don't know”: that question's point comes back
    where it came from (the roll, the group pool, or Threat taken back)."""
    return _gm_refund(campaign_id, actor, test_id, spend_index, veto=False)


def veto_spend(
    campaign_id: int, actor, test_id: int, spend_index: int, reason: str = ""
) -> TableEvent:
    """MO-12: the GM vetoes a spend; every point goes back where it came from."""
    reason = (reason or "").strip()[:NOTE_MAX]
    return _gm_refund(campaign_id, actor, test_id, spend_index, veto=True, reason=reason)


def resolve_test(campaign_id: int, actor, test_id: int) -> TableEvent:
    """“Done”: close the test's Momentum (MO-04, MO-05, MO-06, CT-04, CT-R1).

    Unspent roll Momentum saves to the group pool up to 6; what does not fit
    is lost, and bonus Momentum is always lost; the event says how much. A GM
    character's unspent Momentum goes to Threat when the campaign's CT-R1
    ruling is on. Closing a contest's active test ends the contest.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = _open_for_spending(campaign, membership, test_id)
        holder = holder_of(record)
        if not can_control(membership, holder):
            raise PermissionDenied(f"Only {holder.name}'s player or the GM can close this test.")
        ledger = ledger_of(record)
        with refused_by_rules():
            resolution: Resolution = ledger.resolve(
                _group_pool(campaign),
                threat=Threat(campaign.threat),
                gm_momentum_to_threat=campaign.gm_momentum_to_threat,
            )
        changes = _apply(campaign, resolution.entries, who=holder.name)
        _keep_secret(
            campaign,
            record.hidden,
            changes,
            "Reveal the test before its unspent Momentum is saved, or spend it first.",
        )
        # What the player reads is worked out from the lines just written, in the
        # rules' one wording, so text and ledger cannot disagree.
        saved = sum(c.delta for c in changes)
        lost_overflow = sum(c.lost for c in changes)
        summary = resolution_summary(
            ledger.side, saved, lost_overflow, resolution.lost_bonus, resolution.lost_unsaved
        )
        data = _ledger_json(resolution.ledger, record.ledger)
        data["resolution"] = {
            "saved": saved,
            "saved_to": THREAT if ledger.side == GM_SIDE else GROUP_MOMENTUM,
            "lost_overflow": lost_overflow,
            "lost_bonus": resolution.lost_bonus,
            "lost_unsaved": resolution.lost_unsaved,
            "lost": lost_overflow + resolution.lost_bonus + resolution.lost_unsaved,
            "summary": summary,
        }
        record.ledger = data
        record.state = D20Test.State.RESOLVED
        record.save(update_fields=["ledger", "state"])
        payload = {
            "test_id": record.pk,
            "character_id": holder.pk,
            "character": holder.name,
            "resolution": data["resolution"],
            "spends": data["spends"],
            "summary": f"{holder.name}'s Momentum is resolved: {summary}.",
        }
        kind = events.D20_RESOLVED
        if record.role == D20Test.Role.ACTIVE:
            contest = record.contest
            contest.state = Contest.State.RESOLVED
            contest.active_won = bool(data.get("contest_won"))
            contest.save(update_fields=["state", "active_won"])
            kind = events.CONTEST_RESOLVED
            payload["contest"] = _contest_view(contest)
            winner = record.character if contest.active_won else contest.opposer
            payload["summary"] = (
                f"{winner.name} wins the contest ({contest.opposer.name} against "
                f"{contest.active.name}). {payload['summary']}"
            )
        return append_event(
            campaign, kind, actor, payload, audience=_audience(record), changes=changes
        )


# --- contests -----------------------------------------------------------------------


def contest_opposer_roll(
    campaign_id: int,
    actor,
    opposer_id: int,
    active_id: int,
    *,
    attribute: str,
    skill: str,
    focus: str = "",
    bought_dice: int = 0,
    buy_from_momentum: int = 0,
    expected_momentum: int | None = None,
    assistants: Sequence = (),
    hindrances: int = 0,
    rng=None,
) -> Contest:
    """The GM opens a contest: the opposer rolls first (CT-01); their successes, less
    one per factor hindering them (not below 0), are the active character's
    Difficulty (CT-02). The opposer may buy dice (an NPC's with Threat, MO-08) and
    be assisted (CT-05). The active character then rolls with roll_d20_test(contest_id=…).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        _require_d20(campaign)
        opposer, active = _contest_sides(campaign, opposer_id, active_id, hindrances)
        spec, test = _opposing_test(
            campaign, opposer, attribute, skill, focus, bought_dice, assistants
        )
        spec["paid"], changes = _buy(
            campaign, opposer, membership, bought_dice, buy_from_momentum, expected_momentum
        )
        with refused_by_rules():
            result = roll_test(test, rng)
            difficulty = contest_difficulty(result, hindrances)  # CT-02
        contest = Contest.objects.create(
            campaign=campaign,
            opposer=opposer,
            active=active,
            actor=actor,
            hindrances=hindrances,
            difficulty=difficulty,
        )
        record = D20Test.objects.create(
            campaign=campaign,
            character=opposer,
            actor=actor,
            role=D20Test.Role.OPPOSER,
            contest=contest,
            spec=spec,
            result=_result_json(result, spec),
            state=D20Test.State.RESOLVED,
        )
        record.event = _announce_contest(campaign, actor, contest, record, changes)
        record.save(update_fields=["event"])
    return contest


def _contest_sides(
    campaign: Campaign, opposer_id, active_id, hindrances
) -> tuple[Character, Character]:
    """The opposer and the active character of a new contest, or why there can be none."""
    opposer = character_in(campaign, opposer_id)
    active = character_in(campaign, active_id)
    if opposer.pk == active.pk:
        raise ServiceError("A character cannot oppose themselves.")
    waiting = Contest.objects.filter(
        campaign=campaign, active=active, state=Contest.State.AWAITING
    ).first()
    if waiting is not None:
        raise ServiceError(
            f"{active.name} already faces {waiting.opposer.name} in a contest; "
            "finish or call it off first."
        )
    if isinstance(hindrances, bool) or not isinstance(hindrances, int) or hindrances < 0:
        raise ServiceError("Factors hindering the opposer must be 0 or more.")
    return opposer, active


def _opposing_test(
    campaign: Campaign, opposer: Character, attribute, skill, focus, bought_dice, assistants
) -> tuple[dict, SkillTest]:
    """The opposer's spec and test (CT-01): bought dice and assistants (CT-05), no Difficulty."""
    spec, _ = build_spec(
        campaign,
        opposer,
        attribute=attribute,
        skill=skill,
        focus=focus,
        bought_dice=bought_dice,
        assistants=assistants,
        opposer=True,
    )
    test = opposing_test(
        spec["target"],
        focus=spec["focus"],
        complication_range=spec["complication_range"],
        bought_dice=bought_dice,
        assistants=tuple(Assistant(a["name"], a["target"], a["focus"]) for a in spec["assistants"]),
        assistance_needs_leader_success=spec["assistance_needs_leader_success"],
    )
    return spec, test


def _announce_contest(
    campaign: Campaign, actor, contest: Contest, record: D20Test, changes: list[Change]
) -> TableEvent:
    """The event that opens the contest: the opposer's roll and the Difficulty it sets."""
    opposer, active, hindrances = contest.opposer, contest.active, contest.hindrances
    hindered = f", less {hindrances} for factors against {opposer.name}" if hindrances else ""
    return append_event(
        campaign,
        events.CONTEST_OPENED,
        actor,
        {
            "test_id": record.pk,
            "character_id": opposer.pk,
            "character": opposer.name,
            "contest": _contest_view(contest),
            "spec": record.spec,
            "result": record.result,
            "summary": f"{opposer.name} opposes {active.name}: "
            f"{successes(record.result['successes'])}{hindered}. "
            f"{active.name} needs Difficulty {contest.difficulty}.",
        },
        changes=changes,
    )


def cancel_contest(campaign_id: int, actor, contest_id: int) -> TableEvent:
    """The GM calls off a contest nobody has answered yet (no roll is undone)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        contest = _open_contest(campaign, contest_id)
        if contest.state != Contest.State.AWAITING:
            raise ServiceError(f"{contest.active.name} has rolled: close their test instead.")
        contest.state = Contest.State.CANCELLED
        contest.save(update_fields=["state"])
        return append_event(
            campaign,
            events.CONTEST_CANCELLED,
            actor,
            {
                "contest": _contest_view(contest),
                "summary": f"The contest between {contest.opposer.name} and "
                f"{contest.active.name} is called off.",
            },
        )

"""A recap's facts for one reader: keys and numbers, read from payloads and the ledger.

Two queries whatever the session's length: the events of the span the reader may see
(tables.policy.access: events_seen_q, the same filter as the log), and the ledger lines
of those events. Nothing here reads a rendered card or words anything: the presenter
(tables/presenters/recap.py) does, in the reader's language.

The luck of the dice is each roll's successes against the exact expectation of its own
odds (rules.d20.expected_successes of the stored spec, rules.odds.expected_successes of
the pool), taken at the roll itself: a Determination reroll changes what counts (the
successes and Momentum below), not what the dice were expected to do.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Max, Min, TextField
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from pydantic import ValidationError

from rules import odds
from rules.d20 import expected_successes
from tables import events
from tables.models import Campaign, PoolChange, TableEvent
from tables.policy.access import events_seen_q
from tables.policy.d20_records import SKILL_TEST
from tables.recap.spans import Span

BIG_SPEND = 3  # a pool falling by this much or more at once is marked on the chart
CAMPAIGN_POOLS = ("group_momentum", "threat")


@dataclass(frozen=True)
class Point:
    """A pool's value after one ledger line, at event `seq`."""

    seq: int
    value: int
    delta: int
    kind: str  # the event's kind: what moved it


@dataclass(frozen=True)
class Series:
    pool: str
    character_id: int | None
    start: int
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Mark:
    """Something marked on the chart's line: a scene's start or end, a complication, a
    kept initiative, a big spend."""

    seq: int
    kind: str
    number: int | None = None  # the scene's number, the points spent
    character_id: int | None = None


@dataclass(frozen=True)
class Roll:
    seq: int
    observed: int
    expected: Fraction


@dataclass(frozen=True)
class Moment:
    """A moment worth a line: its kind, where it is in the log, and its numbers/names."""

    seq: int
    kind: str  # critical, complication, task_finished, round, trait
    character_id: int | None = None
    name: str = ""  # a task's or a trait's name, as typed
    number: int | None = None  # the round, the complications
    action: str = ""  # a trait's change


@dataclass
class CharacterTally:
    """One character's session, counted as the events are read."""

    character_id: int
    name: str
    tests: int = 0
    successes: int = 0
    momentum_generated: int = 0
    momentum_spent: int = 0
    spent_on: dict[str, int] = field(default_factory=dict)  # spend key or event kind
    threat_added: int = 0
    harm_taken: int = 0
    harm_dealt: int = 0
    assists_given: int = 0
    rolls: list[Roll] = field(default_factory=list)

    @property
    def observed(self) -> int:
        return sum(r.observed for r in self.rolls)

    @property
    def expected(self) -> Fraction:
        return sum((r.expected for r in self.rolls), Fraction(0))


@dataclass(frozen=True)
class TaskRun:
    task_id: int
    name: str
    rule: str
    work: int
    progress: int
    magnitude: int
    breakthroughs: int
    closed: bool
    tests: int
    last_seq: int


@dataclass(frozen=True)
class Recap:
    span: Span
    events: int
    series: tuple[Series, ...]
    marks: tuple[Mark, ...]
    characters: tuple[CharacterTally, ...]
    moments: tuple[Moment, ...]
    tasks: tuple[TaskRun, ...]
    shows_threat: bool
    spend_names: dict[str, str] = field(default_factory=dict)
    started_at: object = None
    ended_at: object = None


def recap_of(campaign: Campaign, span: Span, *, is_gm: bool, viewer_id: int | None) -> Recap:
    """The recap of `span` as this reader may see it: the events the log shows them (GMs
    all but whispers kept from them, issue 37; anyone else their own messages to the GM
    and whispers too), and Threat only while the GM shows it (MO-13)."""
    rows = TableEvent.objects.filter(campaign=campaign, seq__gte=span.first, seq__lte=span.last)
    rows = rows.filter(events_seen_q(viewer_id, is_gm=is_gm))
    shows_threat = is_gm or campaign.threat_visible
    ledger = _ledger(campaign, rows, shows_threat)
    reader = _Reader(campaign)
    for event in _read(rows):
        reader.read(event)
    reader.read_ledger(ledger)
    when = rows.aggregate(n=Count("id"), started=Min("created_at"), ended=Max("created_at"))
    return Recap(
        span=span,
        events=when["n"],
        series=_series(ledger),
        marks=tuple(sorted(reader.marks, key=lambda m: m.seq)),
        characters=tuple(sorted(reader.tallies.values(), key=lambda t: t.name.casefold())),
        moments=tuple(reader.moments),
        tasks=tuple(reader.tasks.values()),
        shows_threat=shows_threat,
        spend_names=reader.spend_names,
        started_at=when["started"],
        ended_at=when["ended"],
    )


def _read(rows):
    """(seq, kind, payload, voided) of the events a handler reads, oldest first. Only
    those kinds' payloads are read, as text decoded here: a long session's payloads are
    most of the recap's time (bench/recap_bench.py)."""
    found = (
        rows.filter(kind__in=tuple(_HANDLERS))
        .annotate(text=Cast("payload", TextField()))
        .order_by("seq")
        .values_list("seq", "kind", "text", "voided_by_id")
    )
    for seq, kind, text, voided in found.iterator(chunk_size=500):
        yield seq, kind, json.loads(text) if text else {}, voided is not None


def _ledger(campaign: Campaign, rows, shows_threat: bool) -> list[dict]:
    """The ledger lines of the events read (a subquery: one statement), oldest first,
    each with the character its event is about (whose test added the Threat)."""
    lines = PoolChange.objects.filter(campaign=campaign, event__in=rows.values("id"))
    if not shows_threat:
        lines = lines.exclude(pool="threat")
    return list(
        lines.order_by("event__seq", "id").values(
            "event__seq",
            "event__kind",
            "pool",
            "character_id",
            "delta",
            "after",
            about=KeyTextTransform("character_id", "event__payload"),
        )
    )


def _series(ledger: list[dict]) -> tuple[Series, ...]:
    """One line per pool that moved: its value before the first change, then after each."""
    grouped: dict[tuple[str, int | None], list[dict]] = defaultdict(list)
    for line in ledger:
        grouped[(line["pool"], line["character_id"])].append(line)
    out = []
    for (pool, character_id), lines in grouped.items():
        points = tuple(
            Point(r["event__seq"], r["after"], r["delta"], r["event__kind"]) for r in lines
        )
        out.append(Series(pool, character_id, lines[0]["after"] - lines[0]["delta"], points))
    order = {pool: i for i, pool in enumerate(CAMPAIGN_POOLS)}
    return tuple(sorted(out, key=lambda s: (order.get(s.pool, 9), s.character_id or 0, s.pool)))


def _id(value) -> int | None:
    """A character id from a payload key read as text (KT), or None."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else value


class _Reader:
    """Reads the span's events one by one, by kind; keeps the tallies and the moments."""

    def __init__(self, campaign: Campaign):
        self.characters = dict(campaign.characters.values_list("pk", "name"))
        self.by_name = {name: pk for pk, name in self.characters.items()}
        self.tallies: dict[int, CharacterTally] = {}
        self.marks: list[Mark] = []
        self.moments: list[Moment] = []
        self.tasks: dict[int, TaskRun] = {}
        self.rolled: set[tuple[str, int]] = set()  # a revealed secret roll counts once
        self.roller: dict[tuple[str, int], int] = {}  # a record's character, for harm dealt
        self.spend_names: dict[str, str] = {}  # a 2d20 spend's key -> its name as stored

    def tally(self, character_id: int | None) -> CharacterTally | None:
        if character_id not in self.characters:
            return None
        if character_id not in self.tallies:
            self.tallies[character_id] = CharacterTally(character_id, self.characters[character_id])
        return self.tallies[character_id]

    def read(self, event: tuple) -> None:
        seq, kind, payload, voided = event
        if not voided:  # struck out: its ledger lines and their reversal still draw
            _HANDLERS[kind](self, seq, payload)

    def read_ledger(self, ledger: list[dict]) -> None:
        """Threat each character added (the events about their tests), the personal pools'
        spends and gains (Momenta), and the big spends marked on the chart."""
        for line in ledger:
            delta, pool, seq = line["delta"], line["pool"], line["event__seq"]
            if line["event__kind"] == "session_started":
                continue  # the new session's refill or reset: no spend, no gain
            if delta <= -BIG_SPEND:
                self.marks.append(Mark(seq, "big_spend", -delta, line["character_id"]))
            if pool == "threat" and delta > 0:
                tally = self.tally(_id(line["about"]))
                if tally is not None:
                    tally.threat_added += delta
            if pool == "momentum":
                self._personal_momentum(line)

    def _personal_momentum(self, line: dict) -> None:
        tally = self.tally(line["character_id"])
        if tally is None:
            return
        if line["delta"] > 0:
            tally.momentum_generated += line["delta"]
        elif line["delta"] < 0:
            tally.momentum_spent -= line["delta"]
            kind = line["event__kind"]
            tally.spent_on[kind] = tally.spent_on.get(kind, 0) - line["delta"]

    # --- rolls ------------------------------------------------------------------------

    def d20_test(self, seq: int, p: dict) -> None:
        key = ("test", p.get("test_id"))
        tally = self.tally(p.get("character_id"))
        if tally is None or key in self.rolled:
            return
        self.rolled.add(key)
        self.roller[key] = tally.character_id
        result = p.get("result") or {}
        try:
            expected = expected_successes(SKILL_TEST.validate_python(p.get("spec") or {}))
        except (ValidationError, ValueError, TypeError):
            expected = None  # a row the rules cannot read: counted, not in the luck
        tally.tests += 1
        tally.successes += int(result.get("successes", 0))
        tally.momentum_generated += int(result.get("momentum", 0))
        if expected is not None:
            tally.rolls.append(Roll(seq, int(result.get("successes", 0)), expected))
        for spec_helper in (p.get("spec") or {}).get("assistants") or ():
            helper = self.tally(spec_helper.get("character_id"))
            if helper is not None:
                helper.assists_given += 1
        self._d20_moments(seq, tally, result)

    def _d20_moments(self, seq: int, tally: CharacterTally, result: dict) -> None:
        if any(die.get("face") == 1 for die in result.get("dice") or ()):
            self.moments.append(Moment(seq, "critical", tally.character_id))
        complications = int(result.get("complications", 0))
        if complications:
            self.moments.append(
                Moment(seq, "complication", tally.character_id, number=complications)
            )
            self.marks.append(Mark(seq, "complication", complications, tally.character_id))

    def d20_reroll(self, seq: int, p: dict) -> None:
        """T-04: the successes and Momentum that count are the reroll's."""
        tally = self.tally(p.get("character_id"))
        if tally is None or ("test", p.get("test_id")) not in self.rolled:
            return
        before, after = p.get("successes_before", 0), (p.get("result") or {}).get("successes", 0)
        tally.successes += int(after) - int(before)

    def momenta_roll(self, seq: int, p: dict) -> None:
        key = ("roll", p.get("roll_id"))
        tally = self.tally(p.get("character_id"))
        if tally is None or key in self.rolled or not isinstance(p.get("pool"), int):
            return
        self.rolled.add(key)
        self.roller[key] = tally.character_id
        tally.tests += 1
        tally.successes += int(p.get("successes", 0))
        tally.rolls.append(
            Roll(seq, int(p.get("successes", 0)), odds.expected_successes(p["pool"]))
        )
        helper = self.tally(self.by_name.get(p.get("helper"))) if p.get("assisted") else None
        if helper is not None:
            helper.assists_given += 1
        band = p.get("band")
        if band is not None and band >= 3:  # Success with a Bonus (PAT-R2's band 3+)
            self.moments.append(Moment(seq, "critical", tally.character_id, number=band))

    def roll_revealed(self, seq: int, p: dict) -> None:
        if p.get("system") == "momenta":
            self.momenta_roll(seq, p)
        else:
            self.d20_test(seq, p)

    def d20_spend(self, seq: int, p: dict, sign: int = 1) -> None:
        tally = self.tally(p.get("character_id"))
        spend = p.get("spend") or {}
        points = int(spend.get("points", 0) or 0) * sign
        if tally is None or not points:
            return
        key = spend.get("key") or "other"
        tally.momentum_spent += points
        tally.spent_on[key] = tally.spent_on.get(key, 0) + points
        if key not in self.spend_names:
            self.spend_names[key] = spend.get("name") or key

    def d20_undone(self, seq: int, p: dict) -> None:
        self.d20_spend(seq, p, sign=-1)

    # --- harm, turns, tasks, the board, scenes -----------------------------------------

    def harm_applied(self, seq: int, p: dict) -> None:
        """SC-02: a hit's damage after soak (`dealt`), not the harms it brought besides; a
        move the GM wrote by hand, what it added."""
        taken = p.get("dealt")
        if not isinstance(taken, int):
            taken = sum(max(0, int(m.get("delta", 0))) for m in p.get("moves") or ())
        target = self.tally(p.get("target_id"))
        if target is not None:
            target.harm_taken += taken
        source = ("test", p.get("source_test_id")) if p.get("source_test_id") else None
        source = source or (("roll", p.get("source_roll_id")) if p.get("source_roll_id") else None)
        attacker = self.tally(self.roller.get(source)) if source else None
        if attacker is not None:
            attacker.harm_dealt += taken

    def turn(self, seq: int, p: dict) -> None:
        action = p.get("action")
        if action == "kept":
            self.marks.append(Mark(seq, "keep_initiative", None, p.get("character_id")))
        elif action in ("started", "new_round"):
            self.moments.append(Moment(seq, "round", number=p.get("round")))

    def extended_task(self, seq: int, p: dict) -> None:
        before = self.tasks.get(p.get("task_id"))
        tests = (before.tests if before else 0) + (1 if p.get("linked_test_id") else 0)
        run = TaskRun(
            p["task_id"], p.get("name", ""), p.get("rule", ""), p.get("work", 0),
            p.get("progress", 0), p.get("magnitude", 0), p.get("breakthroughs", 0),
            bool(p.get("closed")), tests, seq,
        )  # fmt: skip
        self.tasks[run.task_id] = run
        if run.closed and not (before and before.closed):
            self.moments.append(Moment(seq, "task_finished", name=run.name, number=tests))

    def board_trait(self, seq: int, p: dict) -> None:
        """A change on the board; a complication put on it (the one a Momenta roll gets,
        MO-09b, or any the GM records) is a complication of the session too."""
        action, name = p.get("action"), p.get("text") or ""
        if action == "added" and p.get("trait_kind") == "complication":
            self.moments.append(Moment(seq, "complication", p.get("character_id"), name=name))
            self.marks.append(Mark(seq, "complication", None, p.get("character_id")))
        elif action in ("added", "changed", "removed", "revealed", "hidden", "kept"):
            self.moments.append(Moment(seq, "trait", name=name, action=action))

    def scene_started(self, seq: int, p: dict) -> None:
        self.marks.append(Mark(seq, "scene_start", p.get("number")))

    def scene_ended(self, seq: int, p: dict) -> None:
        self.marks.append(Mark(seq, "scene_end", p.get("number")))


_HANDLERS = {
    events.D20_TEST.name: _Reader.d20_test,
    events.D20_REROLL.name: _Reader.d20_reroll,
    events.CONTEST_OPENED.name: _Reader.d20_test,
    events.MOMENTA_ROLL.name: _Reader.momenta_roll,
    events.ROLL_REVEALED.name: _Reader.roll_revealed,
    events.D20_SPEND.name: _Reader.d20_spend,
    events.D20_REFUND.name: _Reader.d20_undone,
    events.D20_VETO.name: _Reader.d20_undone,
    events.HARM_APPLIED.name: _Reader.harm_applied,
    events.TURN.name: _Reader.turn,
    events.EXTENDED_TASK.name: _Reader.extended_task,
    events.BOARD_TRAIT.name: _Reader.board_trait,
    events.SCENE_STARTED.name: _Reader.scene_started,
    events.SCENE_ENDED.name: _Reader.scene_ended,
}

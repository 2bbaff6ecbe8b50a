"""What each kind of table event carries: one pydantic model per kind.

Each entry of tables/events.py names its kind's model (`payload=`);
`tables.services.core.append_event` validates every payload against it and stores its
JSON dump (`EventKind.stored_payload`), so a key no model names, or a value of the
wrong type, raises before anything is written. A field a producer leaves out stays out
of the stored JSON (an optional field is "absent", not null: readers test for keys).

Readers (tables/live/render.py, the presenters, the templates, tables/exports) still
read the stored dicts, and must take rows older than these models as they are.

Nested values the rules' own codecs write (a 2d20 test's spec, result and ledger, a
spend) stay plain JSON objects here. No Django in this module: the export schema
(tables/exports/schema.py) publishes these models.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Tag, TypeAdapter, model_serializer

Json = dict[str, Any]


class Part(BaseModel):
    """A nested value of a payload: every key named, nothing else allowed."""

    model_config = ConfigDict(extra="forbid")


class SummaryWords(Part):
    """The summary's message id and values, worded per reader (tables/words/said.py)."""

    msgid: str
    plural: str | None = None  # worded by the values' `n` (ngettext)
    values: dict[str, str | int | None | SummaryWords]


class PoolLine(Part):
    """One pool change as append_event copies it into `changes` (and the ledger)."""

    pool: str
    character: str | None
    character_id: int | None
    delta: int
    after: int
    lost: int
    reason: str
    reason_words: SummaryWords | None = None  # the reason worded per reader (tables/words/said.py)

    @model_serializer(mode="wrap")
    def _as_given(self, handler):
        # An older line has no reason_words: it stays without one, not null.
        return {k: v for k, v in handler(self).items() if k in self.model_fields_set}


class Payload(Part):
    """A whole payload. `changes` is what append_event adds to every one."""

    changes: list[PoolLine]
    summary_words: SummaryWords | None = None

    @model_serializer(mode="wrap")
    def _as_given(self, handler):
        # Keep the stored JSON as the producer wrote it: no null for a key left out.
        # `changes` last, where append_event has always put it.
        data = handler(self)
        given = {key: value for key, value in data.items() if key in self.model_fields_set}
        if "changes" in given:
            given["changes"] = given.pop("changes")
        return given


# --- The site ------------------------------------------------------------------------------


class Note(Payload):
    text: str | None = None  # a GM's note (sessions.post_note)
    summary: str | None = None  # a note the site writes (services/discord.py)


class CampaignCreated(Payload):
    name: str


class SettingsChanged(Payload):
    fields: dict[str, list[Any]]  # setting -> [old, new]


class Member(Payload):
    user: str
    user_id: int
    role: str


class InviteRegenerated(Payload):
    expires_at: str | None  # ISO 8601
    uses_left: int | None
    summary: str


class Session(Payload):
    number: int


class SceneStarted(Payload):
    number: int
    title: str


class ExpiredAsset(Part):
    asset: str
    character: str


class SceneEnded(SceneStarted):
    expired_assets: list[ExpiredAsset]
    # The scene board (issue 23): what ended with the scene and what the GM kept.
    ended_traits: list[str] | None = None
    kept_traits: list[str] | None = None
    kept_assets: list[ExpiredAsset] | None = None


class BoardTrait(Payload):
    """One change to the scene board (services/scene_board.py). A hidden trait's events
    are the GM's; `text` is left out where players get the event but not the trait
    (it was hidden)."""

    trait_id: int
    action: Literal[
        "added", "changed", "removed", "hidden", "revealed", "kept", "settled", "refused", "allowed"
    ]
    trait_kind: str
    text: str | None = None
    before: str | None = None
    origin: str | None = None
    summary: str
    # "settled": the GM rules a test impossible or unnecessary by this trait, no dice rolled.
    verdict: Literal["impossible", "unnecessary"] | None = None
    character_id: int | None = None
    character: str | None = None


class Turn(Payload):
    """One change to a conflict's turn order (services/conflicts/turns.py, SC-01)."""

    conflict_id: int
    action: Literal[
        "started", "acting", "ended_turn", "kept", "skipped", "inserted", "reordered",
        "new_round", "ended",
    ]  # fmt: skip
    round: int
    character_id: int | None = None
    character: str | None = None
    side: str | None = None
    summary: str


class PoolAdjusted(Payload):
    pool: str
    character_id: int | None
    # The sentence for a pool moved by a command other than the GM's hand change (a new
    # mission's refill, a narrative spend, GL-02), written in the actor's words.
    summary: str | None = None


class TrackStart(Part):
    """A track a new character's sheet starts with (SC-02): its key and size."""

    track: str
    maximum: int


class CharacterCreated(Payload):
    character_id: int
    name: str
    is_npc: bool
    tracks: list[TrackStart] | None = None  # absent on rows written before (and on edits)


class CharacterUpdated(CharacterCreated):
    renamed_from: str | None = None


class Named(Payload):
    """A named record removed (services/named.py): a roll template, a custom spend."""

    name: str
    summary: str


# --- Momenta play ----------------------------------------------------------------------------


class RollTemplateSaved(Payload):
    template_id: int
    name: str
    created: bool
    summary: str


class CustomPatternSaved(Payload):
    pattern_id: int
    name: str
    active: bool
    summary: str


class _Assist(Payload):
    assist_id: int
    roller: str
    roller_id: int
    helper: str
    helper_id: int


class AssistRequested(_Assist):
    structured: bool
    helper_agreed: bool
    summary: str


class AssistAnswered(_Assist):
    answer: str
    state: str
    summary: str


class AssistConsent(_Assist):
    agreed: bool
    state: str
    summary: str


class ResolveSpent(Part):
    character_id: int | None
    character: str
    amount: int


class Triggered(Part):
    name: str
    kind: str
    face: int


class Applied(Part):
    """An allocation's effects (services/momenta.py _applied_data)."""

    allocation: list[list[Any]]  # [pattern name, face]
    triggered: list[Triggered]
    band: int
    outcome: str
    upgrade_steps: int
    damage: int | None
    damage_bonus: int
    refunds: list[ResolveSpent]
    texts: list[str]


class CallMark(Part):
    """On a roll's payload: the called test it answered (issue 25), so its card says so."""

    call_id: int
    hidden: bool  # the Difficulty (or opposition) was the GM's until the dice landed


class MomentaRoll(Payload):
    """The roll card (services/momenta.py _card), also stored as MomentaRoll.card."""

    system: Literal["momenta"]
    roll_id: int
    traits: list[Json] | None = None  # the scene board's traits that counted (MO-09b)
    character_id: int
    character: str
    attribute: str
    attribute_dice: int
    kind: str
    play: str
    template: str
    harm: str
    # D6-05, D6-R1: the template's divisor of the harm and its rounding, when it divides.
    harm_divisor: int | None = None
    rounding: str | None = None
    pool: int
    modifiers: list[int]
    thread: str | None
    advantage_dice: int
    zero_dice: bool
    advantage: bool
    disadvantage: bool
    # Who paid for Advantage, who gained (_settlement_data)
    cancelled: bool
    creation: bool
    advantage_sources: list[str]
    advantage_source: str | None
    paid: int
    paid_by: str | None
    assisted: bool
    assist_failed: bool
    assist_landed: bool
    assist_uses_action: bool
    advantage_refused: str
    gain_after_roll: int
    helper: str | None
    resolve_spent: list[ResolveSpent]
    # The dice (_dice_data)
    faces: list[int]
    kept: list[int]
    successes: int
    opposition_pool: int | None
    opposition_given: int | None
    opposition_faces: list[int]
    opposition_successes: int
    effective_successes: int
    band: int
    outcome: str
    overflow: int
    overflow_effect: str | None
    damage: int | None
    secret: bool
    state: str
    applied: Applied | None
    summary: str
    revealed: bool | None = None  # a secret roll's card once the GM showed it (TB-03)
    # SC-02: the attack's target, named in the composer; the harm event once applied.
    target_id: int | None = None
    target: str | None = None
    hit_seq: int | None = None
    call: CallMark | None = None  # the called test it answered (services/calls.py)
    out_of_turn: bool | None = None  # rolled while a conflict ran, not by who acts (issue 37)


class MomentaPatterns(Payload):
    system: Literal["momenta"]
    roll_id: int
    roll_seq: int | None
    character_id: int
    character: str
    applied: Applied
    overflow: int
    overflow_effect: str | None
    harm: str
    summary: str


class Trauma(Payload):
    character_id: int
    character: str
    points: int
    creation: bool
    summary: str


# --- Secret records revealed -------------------------------------------------------------------


class MomentaRollRevealed(MomentaRoll):
    revealed_seq: int | None


class _Test(Payload):
    test_id: int
    character_id: int
    character: str


class D20TestRevealed(_Test):
    revealed_seq: int | None
    spec: Json
    result: Json
    state: str
    summary: str


def _revealed_system(value: Any) -> str:
    system = value.get("system") if isinstance(value, dict) else getattr(value, "system", None)
    return "momenta" if system == "momenta" else "d20"


RollRevealed = Annotated[
    Annotated[MomentaRollRevealed, Tag("momenta")] | Annotated[D20TestRevealed, Tag("d20")],
    Discriminator(_revealed_system),
]


# --- 2d20 play -------------------------------------------------------------------------------


class Contest(Part):
    """A contest as the log shows it (services/d20.py _contest_view)."""

    id: int
    opposer: str
    opposer_id: int
    active: str
    active_id: int
    hindrances: int
    difficulty: int
    state: str


class D20Test(_Test):
    role: str
    contest_id: int | None
    secret: bool
    spec: Json
    result: Json
    ledger: Json
    summary: str
    contest: Contest | None = None  # the active side's answer to a contest
    call: CallMark | None = None  # the called test it answered (services/calls.py)
    out_of_turn: bool | None = None  # rolled while a conflict ran, not by who acts (issue 37)


class D20Reroll(D20Test):
    indices: list[int]
    faces_before: list[int]
    successes_before: int


class SpendAsset(Part):
    name: str
    quality: int
    permanent: bool


class SpendTrait(Part):
    """What a Create Trait spend did to the board (MO-09), or its veto undid."""

    trait_id: int
    action: Literal["create", "change", "remove"]
    text: str
    spend_index: int  # the spend's place in the test's ledger, which a veto names
    before: str | None = None  # a change: the text it replaced


class D20Spend(_Test):
    """A spend, or its refund or veto: the spend and what is left of the ledger."""

    spend: Json
    ledger: Json
    summary: str
    asset: SpendAsset | None = None  # a spend that made an asset (MO-10)
    trait: SpendTrait | None = None  # a Create Trait spend's board change (MO-09)


class D20Resolved(_Test):
    resolution: Json
    spends: list[Json]
    summary: str
    contest: Contest | None = None  # contest_resolved


class ContestOpened(_Test):
    contest: Contest
    spec: Json
    result: Json
    summary: str


class ContestCancelled(Payload):
    contest: Contest
    summary: str


class DeterminationPermitted(_Test):
    summary: str


class ChallengeFace(Part):
    value: int
    effect: bool


class ChallengeRoll(Payload):
    dice_name: str
    dice: int
    faces: list[int]
    read: list[ChallengeFace]
    total: int
    effects: int
    roller_id: int | None
    character: str
    note: str


class ComplicationRangeSet(Payload):
    scene: int
    scene_title: str
    range: int | None  # None: the GM cleared the scene's own range
    effective: int
    from_face: int


# --- The GM panel ------------------------------------------------------------------------------


class Threat(Payload):
    amount: int
    summary: str


class CustomSpendSaved(Payload):
    spend_id: int
    name: str
    cost: int
    repeatable: bool
    summary: str


# --- Table talk, corrections, calls ------------------------------------------------------------


class Talk(Payload):
    mode: str
    text: str


class TalkWhisper(Talk):
    """A whisper: who it is for (their id, and their name when it was sent)."""

    recipient_id: int
    recipient: str


class Voided(Payload):
    target_seq: int
    target_kind: str
    reason: str
    summary: str


class Call(Payload):
    """A call made or withdrawn: never its hidden Difficulty."""

    call_id: int
    called: str
    summary: str


class CallAnswered(Call):
    answered_by: str
    hidden: bool
    # The roll's own card shows the answer (issue 25): this event draws no card of its own.
    on_roll_card: bool | None = None
    # A 2d20 call's answer
    test_id: int | None = None
    difficulty: int | None = None
    successes: int | None = None
    passed: bool | None = None
    # A Momenta call's answer
    roll_id: int | None = None
    opposition_pool: int | None = None
    opposition_successes: int | None = None
    outcome: str | None = None


# --- Harm and extended tasks (tables/services/harm.py, extended_tasks.py) -----------------------


class HarmMove(Part):
    """One track's move: the ledger line, as HarmEntry stores it."""

    track: str
    label: str
    delta: int
    after: int
    maximum: int
    lost: int


class HarmTrackSet(Payload):
    character_id: int
    character: str
    track: str
    label: str
    taken: int
    maximum: int
    hidden: bool
    summary: str


class HarmApplied(Payload):
    """SC-02: damage or recovery on a character's tracks; the hit's harms ride with it.
    `target_id`, not `character_id`: the card is not redrawn, only the track's numbers."""

    target_id: int
    target: str
    moves: list[HarmMove]
    reason: str
    reason_words: SummaryWords | None = None  # a reason the site wrote, worded per reader
    source_roll_id: int | None = None  # a Momenta roll (not `roll_id`: no record link)
    source_test_id: int | None = None  # a 2d20 test
    dealt: int | None = None  # the damage after soak (2d20) or the roll's (Momenta)
    complication: bool = False  # SC-06 STA 2e: the hit became a complication, not an Injury
    took_injury: bool = False  # SC-06 STA 2e: the target took the Injury, not the Stress
    summary: str


class ExtendedTaskState(Payload):
    """SC-03: a task created, fed by a roll, or closed."""

    task_id: int
    name: str
    rule: str
    work: int
    progress: int
    magnitude: int
    breakthroughs: int
    closed: bool
    linked_test_id: int | None = None
    amount: int | None = None
    scored: int | None = None
    summary: str


_ADAPTERS: dict[Any, TypeAdapter] = {}


def adapter(payload_type: Any) -> TypeAdapter:
    """The one TypeAdapter of a payload type (several kinds share a type)."""
    try:
        return _ADAPTERS[payload_type]
    except KeyError:
        return _ADAPTERS.setdefault(payload_type, TypeAdapter(payload_type))

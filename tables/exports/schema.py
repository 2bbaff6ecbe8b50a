"""The campaign export document: pydantic models, and the JSON schema made from them.

No Django here: the schema is a published contract (docs/campaign-export.schema.json,
regenerated with `python -m tables.exports.schema`), readable without the app.

Conventions of the document:
- every field name is the model field's name in tables/models/;
- `id` is a number local to the document (1, 2, … in the order the rows were
  made), and every reference to a row of the campaign uses it; an import gives
  the rows new database ids and rewrites every reference;
- events are named by `seq`, which an import keeps;
- people are named by username;
- inside the free-form JSON (event payloads, roll specs, results, ledgers, cards)
  the keys listed in tables/exports/refs.py hold document ids too (`user_id`
  holds a username); a reference to a row that no longer exists is null;
- an event's payload is typed by its kind (tables/exports/event_schema.py, from
  tables/payloads.py); a payload written before those models is read as it is.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from tables.exports import event_schema

FORMAT = "momenta-table.campaign"
# Bump when a reader of the old version would misread a new document; an import
# refuses a version newer than its own (tables/exports/load.py).
VERSION = 1

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "campaign-export.schema.json"


def exact_version(value: Any) -> Any:
    """The version as the schema says it (`const 1`, an integer): 1.0 and true are not
    1, though Python (and so a Literal) finds them equal. load.py's newer-version
    check reads it the same way (issue 26)."""
    if type(value) is not int:
        raise PydanticCustomError(
            "literal_error", "Input should be {expected}", {"expected": VERSION}
        )
    return value


Version = Annotated[Literal[1], BeforeValidator(exact_version)]

Ref = Annotated[int, Field(ge=1, description="A row's id within this document.")]
Seq = Annotated[int, Field(ge=1, description="An event's sequence number in the campaign.")]
Username = Annotated[str, Field(min_length=1, max_length=150)]
Count = Annotated[int, Field(ge=0)]
Json = dict[str, Any]


class Strict(BaseModel):
    # An unknown field is an error: a newer writer must bump VERSION, not hide data.
    # Strict: "3" is not a number, 1 is not true; the file says what it means.
    model_config = ConfigDict(extra="forbid", strict=True)


class CampaignSettings(Strict):
    """The Campaign row: what the GM set, and the group pools."""

    name: str
    preset: str
    dice_system: str
    economy: str
    owner: Username
    invite_expires_at: datetime | None
    invite_uses_left: Count | None
    created_at: datetime
    group_momentum: Count
    threat: Count
    threat_visible: bool
    last_seq: Count
    extra_success_stacks: bool
    band_label_0: str
    band_label_1: str
    band_label_2: str
    band_label_3: str
    advantage_dice: Count
    disadvantage_dice: Count
    complication_range: Count
    assistance_needs_leader_success: bool
    gm_momentum_to_threat: bool
    players_declare_edges: bool
    mute_pool_chatter: bool = False  # issue 15; a document from before it has none
    # 2d20 game lines (issue 15, GL-01, GL-05); a document from before them: the seeds' line.
    game_line: str = "seeds"
    scene_complication_range: Annotated[int, Field(ge=1, le=20)] | None = None
    players_note_traits: bool = False  # issue 23; a document from before it: off
    # Issue 28: what everyone shares is worded in it; a document from before it: English.
    language: str = "en"
    time_zone: str = "UTC"
    double_harm: bool = True  # issue 24, SC-R1; a document from before it: the default
    # Issue 36 (SC-05, SC-01a, SC-01b); a document from before them: the defaults.
    keep_initiative_cost: Annotated[int, Field(ge=0, le=6)] | None = None
    keep_once_in_a_row: bool = True
    players_open_each_round: bool = False
    # Issue 36 (GL-07); a document from before them: the defaults.
    session_start_from_fortune: bool = True
    mission_sets_threat: bool = True
    borrowed_extended_tasks: bool = True  # issue 36, SC-R7, SC-R16, SC-R17
    contest_at_scene_end: Literal["call_off", "opposer_wins"] = "call_off"  # issue 36, CT-R2
    gm_reads_whispers: bool = True  # issue 37; a document from before it: the default


class Member(Strict):
    user: Username
    role: str
    joined_at: datetime


class Attribute(Strict):
    name: str
    value: Count


class Skill(Strict):
    name: str
    value: Count


class Trait(Strict):
    kind: str
    text: str


class Asset(Strict):
    name: str
    quality: Count
    permanent: bool
    lasting: bool = False  # issue 23: kept past the scene's end


class Character(Strict):
    id: Ref
    owner: Username
    name: str
    is_npc: bool
    notes: str
    in_creation: bool
    momentum: Count
    resolve: Count
    resolve_max: Count
    determination: Count
    minor_foe: bool = False  # issue 36, SC-06; a document from before it: not minor
    attributes: list[Attribute]
    skills: list[Skill]
    traits: list[Trait]
    assets: list[Asset]


class RollTemplate(Strict):
    id: Ref
    name: str
    data: Json
    campaign_labels: bool
    position: Count


class CustomPattern(Strict):
    id: Ref
    name: str
    data: Json
    active: bool


class CustomSpend(Strict):
    id: Ref
    name: str
    cost: Count
    repeatable: bool
    description: str


class PlaySession(Strict):
    id: Ref
    number: Count
    started_at: datetime
    ended_at: datetime | None


class Scene(Strict):
    id: Ref
    play_session: Ref | None
    number: Count
    title: str
    started_at: datetime
    ended_at: datetime | None


class SceneTrait(Strict):
    """A scene board entry (issue 23): standing while removed_at is null."""

    id: Ref
    scene: Ref
    kind: str
    text: str
    origin: str
    made_by: Username | None
    character: Ref | None
    test: Ref | None
    spend_index: Count | None
    hidden: bool
    lasting: bool
    refused: bool = False
    created_at: datetime
    removed_at: datetime | None


class Participant(Strict):
    """A character's place in a conflict's turn order (issue 24)."""

    character: Ref
    side: str
    position: Count
    acting: bool
    acted: bool
    initiative: Count | None = None  # issue 36 (SC-04, Fallout); before it: none


class Conflict(Strict):
    """A conflict's turn order (issue 24, SC-01): running while ended_at is null."""

    id: Ref
    scene: Ref
    mode: str
    round: Count
    last_side: str
    last_kept: bool
    created_at: datetime
    ended_at: datetime | None
    participants: list[Participant]


class TableEvent(Strict):
    """An event of any kind; `Event` types its payload by its kind."""

    seq: Seq
    kind: str
    actor: Username | None
    payload: Json
    audience: str
    created_at: datetime


# Each kind's payload as tables/payloads.py declares it (an older payload: any object).
Event = event_schema.event_type(TableEvent)


class PoolChange(Strict):
    event: Seq
    character: Ref | None
    pool: str
    delta: int
    after: int
    lost: Count
    reason: str
    # The reason as a sentence worded per reader (tables/words/said.py); absent before it.
    reason_words: dict[str, Any] | None = None


class AssistRequest(Strict):
    id: Ref
    roller: Ref
    helper: Ref
    requested_by: Username | None
    state: str
    structured: bool
    helper_agreed: bool
    uncertain: bool
    test_passed: bool | None
    created_at: datetime


class Contest(Strict):
    id: Ref
    opposer: Ref
    active: Ref
    actor: Username | None
    hindrances: Count
    difficulty: Count
    state: str
    active_won: bool | None
    created_at: datetime


class D20Test(Strict):
    id: Ref
    character: Ref
    actor: Username | None
    event: Seq | None
    role: str
    contest: Ref | None
    spec: Json
    result: Json
    ledger: Json
    state: str
    determination_permitted: bool
    secret: bool
    revealed: bool
    created_at: datetime


class MomentaRoll(Strict):
    id: Ref
    character: Ref
    actor: Username | None
    event: Seq | None
    patterns_event: Seq | None
    reveal_event: Seq | None
    assist: Ref | None
    spec: Json
    result: Json
    applied: Json | None
    card: Json
    state: str
    secret: bool
    revealed: bool
    created_at: datetime


class CalledTest(Strict):
    """A test the GM called for (tables/models/calls.py); `character` null: everyone."""

    id: Ref
    actor: Username | None
    character: Ref | None
    system: str
    attribute: str
    skill: str
    focus: str
    difficulty: Count | None
    complication_range: Count | None
    kind: str
    opposition_pool: Count | None
    disadvantage: bool = False  # the GM's Disadvantage and edge (PM-02, PM-05); older
    edge: bool = False  # files have neither
    hidden: bool
    note: str
    state: str
    answered_by: Ref | None
    d20_test: Ref | None
    momenta_roll: Ref | None
    event: Seq | None
    created_at: datetime


class HarmTrack(Strict):
    """A character's harm track (SC-02): `taken` of `maximum`; hidden: the GM's alone."""

    id: Ref
    character: Ref
    track: str
    taken: Count
    maximum: Count
    hidden: bool


class HarmEntry(Strict):
    """One move of a harm track (its ledger line), and the roll it came from."""

    event: Seq
    track: Ref
    delta: int
    after: Count
    lost: Count
    reason: str
    momenta_roll: Ref | None
    d20_test: Ref | None
    hit: bool


class ExtendedTask(Strict):
    """An extended task of a scene (SC-03); closed once complete."""

    id: Ref
    scene: Ref
    name: str
    rule: str
    work: Count
    magnitude: Count
    resistance: Count
    difficulty: Count
    breakthrough_at: list[Count]
    progress: Count
    breakthroughs: Count
    created_by: Username | None
    created_at: datetime
    closed_at: datetime | None


class ExtendedTaskRoll(Strict):
    """A test linked to a task and what it added."""

    task: Ref
    test: Ref
    event: Seq
    value: Count
    amount: Count
    breakthroughs: Count


class CampaignExport(Strict):
    """One campaign, whole: a GM's backup, secret rolls included."""

    format: Literal["momenta-table.campaign"]
    version: Version
    campaign: CampaignSettings
    members: list[Member]
    characters: list[Character]
    roll_templates: list[RollTemplate]
    custom_patterns: list[CustomPattern]
    custom_spends: list[CustomSpend]
    play_sessions: list[PlaySession]
    scenes: list[Scene]
    events: list[Event]
    pool_changes: list[PoolChange]
    assist_requests: list[AssistRequest]
    contests: list[Contest]
    d20_tests: list[D20Test]
    momenta_rolls: list[MomentaRoll]
    # Absent from files written before calls existed: none were made then.
    called_tests: list[CalledTest] = Field(default_factory=list)
    # Absent from files written before the scene board (issue 23): it was empty.
    scene_traits: list[SceneTrait] = Field(default_factory=list)
    # Absent from files written before conflicts (issue 24): none were run then.
    conflicts: list[Conflict] = Field(default_factory=list)
    # Absent from files written before harm tracks and extended tasks (issue 24): none.
    harm_tracks: list[HarmTrack] = Field(default_factory=list)
    harm_entries: list[HarmEntry] = Field(default_factory=list)
    extended_tasks: list[ExtendedTask] = Field(default_factory=list)
    extended_task_rolls: list[ExtendedTaskRoll] = Field(default_factory=list)


def json_schema() -> dict:
    schema = CampaignExport.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"{FORMAT}/v{VERSION}"
    return schema


def schema_text() -> str:
    """The published file's exact text (the test compares it byte for byte)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m tables.exports.schema [--check]
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if SCHEMA_PATH.read_text() == schema_text() else 1)
    SCHEMA_PATH.write_text(schema_text())
    print(f"wrote {SCHEMA_PATH}")

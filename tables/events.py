"""Every kind of table event, declared once.

A service appends an event by its entry here (`append_event(campaign, events.NOTE, ...)`),
never by a string, and what a kind means lives in its entry:

- `label`: the log's name for it, lazy; one that names a pool names it by placeholder
  ("%(gm_pool)s added"), which `label_of` fills with the campaign's line's names (GL-01;
  tables/words/line_names.py): read a label through `label_of`, never as it is;
- `regions`: the table page regions the event may change, which a push refreshes
  (the log and the pools always; the affected character cards, or all of them);
- `record`: the play record it is about (TEST, ROLL or ASSIST, read from the payload's
  `test_id`, `roll_id` or `assist_id`), a tuple of them where it depends on the event
  (a revealed roll is a 2d20 test or a Momenta roll), or None;
- `audience`: its audience rule. ALL kinds reach everyone; GM_ONLY kinds never reach
  players (append_event refuses them for everyone); BY_RECORD kinds are as secret as
  the record they are about (TB-03); BY_POOL kinds are GM-only while they show Threat
  the GM hides (MO-13); PRIVATE kinds reach the GMs and the event's actor only (append_event
  stores them with the GM audience);
- `membership`: it changes who is at the table, so a socket re-checks its member;
- `payload`: the pydantic type of its payload (tables/payloads.py), which append_event
  validates every payload against;
- `log_template` / `push_template`: the file's name in tables/partials/events/ and
  partials/push/ (kinds whose cards are drawn alike name one file), or None where the
  generic card / no push fragment serves.

`TableEvent.kind` takes its choices from `REGISTRY` through `choices`, a callable that
migrations record by name: a new kind needs no migration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy
from pydantic import TypeAdapter

from tables import payloads
from tables.words.line_names import labelled

# --- Page regions ---------------------------------------------------------------------
# One name per region of templates/tables/table.html that an event can change; a push
# refreshes every region its kind names, for each audience (tables/live/render.py):
# audience-level regions as hx-swap-oob fragments (GM ones to GMs only), per-person
# ones (OPEN_TESTS, SPEND_PANEL, COMPOSER's Assist choice) by a marker that makes a
# page whose copy is older than the event fetch its own again (partials/live_sync.html).

LOG = "log"  # #roll-log: the new entry (and a record's card state, by the push template)
POOLS = "pools"  # #pools: Group Momentum and Threat; for GMs also the GM tools' Threat heading
CHARACTERS = "characters"  # #characters: the whole list, when cards appear, go or change shape
CHARACTER_CARDS = "character_cards"  # #character-<id>: only the cards the event touches
PRESENCE = "presence"  # #presence: who is at the table (its own message, presence.changed)
# GM tools (GMs only): session line, open contests, secret tests / rolls, custom spends
GM_TOOLS = "gm_tools"
ASSIST_QUEUE = "assist_queue"  # #momenta-assist-queue (GMs); a player's Assist choice
OPEN_TESTS = "open_tests"  # #d20-open-tests: the viewer's 2d20 tests still open
SPEND_PANEL = "spend_panel"  # #spend-panel: the test whose Momentum is being spent
# #composer / #d20-play: one person's form, never pushed or refetched (that would lose what
# they are typing); its commands check the state when sent (core.check_seen).
COMPOSER = "composer"
# #called-tests: the GM's calls the viewer may answer (per person: their characters), and
# the GM's list of open calls; tables/services/calls.py.
CALLS = "calls"
# #scene-board: the running scene's traits and assets (issue 23), drawn once per audience
# (GMs also see hidden entries). A spend refreshes it only when it changed the board.
SCENE_BOARD = "scene_board"
# #turn-tracker: the running conflict's turn order (issue 24), drawn once per audience.
TURNS = "turns"

REGIONS = frozenset(
    {
        LOG,
        POOLS,
        CHARACTERS,
        CHARACTER_CARDS,
        PRESENCE,
        GM_TOOLS,
        ASSIST_QUEUE,
        OPEN_TESTS,
        SPEND_PANEL,
        COMPOSER,
        CALLS,
        SCENE_BOARD,
        TURNS,
    }
)

# --- Play records ----------------------------------------------------------------------
# The payload key that names the record an event is about (tables/live/render.py reads it).
TEST = "test"  # a 2d20 test: payload["test_id"]
ROLL = "roll"  # a Momenta roll: payload["roll_id"]
ASSIST = "assist"  # an Assist request: payload["assist_id"]

RECORD_KEYS = {TEST: "test_id", ROLL: "roll_id", ASSIST: "assist_id"}

# --- Audience rules ----------------------------------------------------------------------
ALL = "all"  # everyone at the table
GM_ONLY = "gm"  # only GMs, always
BY_RECORD = "by_record"  # as secret as the record it is about (TB-03)
BY_POOL = "by_pool"  # GM-only while the Threat it shows is hidden (MO-13)
# GMs and one person, the event's actor (a message to the GM: its sender). Stored with the
# GM audience, so a path that knows only roles keeps it from players; the paths that know
# the viewer (tables/policy/access.py sees_event) also show it to the actor.
PRIVATE = "private"
# Its actor and the one person its payload names (payload["recipient_id"]: a whisper,
# issue 37), and the GMs where the event's stored audience is GM; stored NAMED, none of
# the GMs but those it names read it.
WHISPER = "whisper"
AUDIENCE_RULES = frozenset({ALL, GM_ONLY, BY_RECORD, BY_POOL, PRIVATE, WHISPER})

_ALWAYS = frozenset({LOG, POOLS})
_CARDS = _ALWAYS | {CHARACTER_CARDS}


@dataclass(frozen=True)
class EventKind:
    name: str
    label: str
    regions: frozenset[str] = _CARDS
    record: str | tuple[str, ...] | None = None
    audience: str = ALL
    membership: bool = False
    payload: Any = payloads.Payload  # a model of tables/payloads.py (or a union of them)
    log_template: str | None = None  # partials/events/<this>.html, else events/generic.html
    push_template: str | None = None  # partials/push/<this>.html, else push/none.html
    adapter: TypeAdapter = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        # Built once per kind: append_event's check is then one call into pydantic-core.
        object.__setattr__(self, "adapter", payloads.adapter(self.payload))
        unknown = self.regions - REGIONS
        if unknown:
            raise ValueError(f"{self.name}: unknown regions {sorted(unknown)}")
        if any(record not in RECORD_KEYS for record in self.records):
            raise ValueError(f"{self.name}: unknown record {self.record!r}")
        if self.audience not in AUDIENCE_RULES:
            raise ValueError(f"{self.name}: unknown audience {self.audience!r}")

    def __str__(self) -> str:
        return self.name

    @property
    def refreshes_all_characters(self) -> bool:
        return CHARACTERS in self.regions

    @property
    def records(self) -> tuple[str, ...]:
        if self.record is None:
            return ()
        return self.record if isinstance(self.record, tuple) else (self.record,)

    def record_of(self, payload: dict) -> tuple[str, int] | None:
        """(record, id) of the play record this event is about, from its payload, or None."""
        for record in self.records:
            value = (payload or {}).get(RECORD_KEYS[record])
            if isinstance(value, int) and not isinstance(value, bool):
                return record, value
        return None

    def stored_payload(self, payload: dict) -> dict:
        """`payload` checked against this kind's model, as the JSON to store; a key the
        model does not name, a missing one or a value of the wrong type raises
        pydantic.ValidationError."""
        return self.adapter.dump_python(self.adapter.validate_python(payload), mode="json")

    @property
    def log_templates(self) -> tuple[str, ...]:
        """For {% include %}: the kind's own card first, the generic one if it has none."""
        own = (f"tables/partials/events/{self.log_template}.html",) if self.log_template else ()
        return (*own, "tables/partials/events/generic.html")

    @property
    def push_templates(self) -> tuple[str, ...]:
        own = (f"tables/partials/push/{self.push_template}.html",) if self.push_template else ()
        return (*own, "tables/partials/push/none.html")


REGISTRY: dict[str, EventKind] = {}


def _kind(name: str, label: str, **options) -> EventKind:
    if name in REGISTRY:
        raise ValueError(f"event kind {name!r} declared twice")
    kind = EventKind(name, label, **options)
    REGISTRY[name] = kind
    return kind


_ALL_CARDS = _ALWAYS | {CHARACTERS}

# --- The site -------------------------------------------------------------------------------
NOTE = _kind(
    "note", gettext_lazy("Table note"), payload=payloads.Note, regions=_ALWAYS, log_template="note"
)
# Appended by no service today (a secret roll is a Momenta roll or 2d20 test with
# the GM audience); kept so a GM-only event has a plain kind of its own.
SECRET_ROLL = _kind(
    "secret_roll",
    gettext_lazy("Secret roll"),
    payload=payloads.Note,
    regions=_ALWAYS,
    audience=GM_ONLY,
)
POOL_ADJUSTED = _kind(
    "pool_adjusted",
    gettext_lazy("Pool adjusted"),
    payload=payloads.PoolAdjusted,
    regions=_CARDS | {SPEND_PANEL},
    audience=BY_POOL,
)
CAMPAIGN_CREATED = _kind(
    "campaign_created",
    gettext_lazy("Campaign created"),
    payload=payloads.CampaignCreated,
    regions=_ALWAYS,
)
SETTINGS_CHANGED = _kind(
    "settings_changed",
    gettext_lazy("Settings changed"),
    payload=payloads.SettingsChanged,
    regions=_ALL_CARDS | {GM_TOOLS, COMPOSER, OPEN_TESTS, SPEND_PANEL},
)
MEMBER_JOINED = _kind(
    "member_joined",
    gettext_lazy("Joined the table"),
    payload=payloads.Member,
    regions=_ALWAYS | {PRESENCE},
    membership=True,
)
MEMBER_REMOVED = _kind(
    "member_removed",
    gettext_lazy("Member removed"),
    payload=payloads.Member,
    regions=_CARDS | {PRESENCE, COMPOSER},
    membership=True,
)
MEMBER_PROMOTED = _kind(
    "member_promoted",
    gettext_lazy("Made co-GM"),
    payload=payloads.Member,
    regions=_ALWAYS | {PRESENCE, GM_TOOLS, COMPOSER},
    membership=True,
)
INVITE_REGENERATED = _kind(
    "invite_regenerated",
    gettext_lazy("New invite link"),
    payload=payloads.InviteRegenerated,
    regions=_ALWAYS,
    audience=GM_ONLY,
)
# The GM tools show the running session and scene; the spend panel the group pool.
SESSION_STARTED = _kind(
    "session_started",
    gettext_lazy("Session started"),
    payload=payloads.Session,
    regions=_ALL_CARDS | {GM_TOOLS, SPEND_PANEL},
)
SCENE_STARTED = _kind(
    "scene_started",
    gettext_lazy("Scene started"),
    payload=payloads.SceneStarted,
    regions=_CARDS | {GM_TOOLS},
)
SCENE_ENDED = _kind(
    "scene_ended",
    gettext_lazy("Scene ended"),
    payload=payloads.SceneEnded,
    regions=_CARDS | {GM_TOOLS, SPEND_PANEL, SCENE_BOARD, TURNS},
)
# The scene board (tables/services/scene_board.py): a hidden trait's events are stored
# with the GM audience by the service, so they never reach players.
_BOARD = _ALWAYS | {SCENE_BOARD}
BOARD_TRAIT = _kind(
    "board_trait", gettext_lazy("Scene board"), payload=payloads.BoardTrait, regions=_BOARD
)
TURN = _kind("turn", gettext_lazy("Turn order"), payload=payloads.Turn, regions=_CARDS | {TURNS})
CHARACTER_CREATED = _kind(
    "character_created",
    gettext_lazy("Character created"),
    payload=payloads.CharacterCreated,
    # A player's Assist panel offers every character as helper or roller (PM-08).
    regions=_ALL_CARDS | {COMPOSER, GM_TOOLS, ASSIST_QUEUE},
)
CHARACTER_UPDATED = _kind(
    "character_updated",
    gettext_lazy("Character updated"),
    payload=payloads.CharacterUpdated,
    # A new name shows in the GM's secret lists and Assist queue.
    regions=_CARDS | {COMPOSER, GM_TOOLS, ASSIST_QUEUE},
)

# --- Momenta play --------------------------------------------------------------------------
MOMENTA_ROLL = _kind(
    "momenta_roll",
    gettext_lazy("Roll"),
    payload=payloads.MomentaRoll,
    regions=_CARDS | {ASSIST_QUEUE, GM_TOOLS},
    record=ROLL,
    audience=BY_RECORD,
    log_template="momenta_roll",
    push_template="momenta_roll",
)
MOMENTA_PATTERNS = _kind(
    "momenta_patterns",
    gettext_lazy("Patterns chosen"),
    payload=payloads.MomentaPatterns,
    regions=_CARDS | {COMPOSER, GM_TOOLS},  # a secret roll's outcome in the GM's list
    record=ROLL,
    audience=BY_RECORD,
    log_template="momenta_patterns",
    push_template="momenta_patterns",
)
ASSIST_REQUESTED = _kind(
    "assist_requested",
    gettext_lazy("Assist asked"),
    payload=payloads.AssistRequested,
    regions=_CARDS | {ASSIST_QUEUE, COMPOSER},
    record=ASSIST,
    log_template="assist_requested",
)
ASSIST_ANSWERED = _kind(
    "assist_answered",
    gettext_lazy("Assist answered"),
    payload=payloads.AssistAnswered,
    regions=_CARDS | {ASSIST_QUEUE, COMPOSER},
    record=ASSIST,
    log_template="assist_answered",
    push_template="assist",
)
# The helper's own word (PM-08: the helper *may* pay): their player, or the GM for an NPC.
ASSIST_CONSENT = _kind(
    "assist_consent",
    gettext_lazy("Helper answered"),
    payload=payloads.AssistConsent,
    regions=_CARDS | {ASSIST_QUEUE, COMPOSER},
    record=ASSIST,
    log_template="assist_consent",
    push_template="assist",
)
TRAUMA = _kind("trauma", gettext_lazy("Trauma"), payload=payloads.Trauma, log_template="trauma")
ROLL_TEMPLATE_SAVED = _kind(
    "roll_template_saved",
    gettext_lazy("Roll template saved"),
    payload=payloads.RollTemplateSaved,
    regions=_ALWAYS | {GM_TOOLS, COMPOSER},
)
ROLL_TEMPLATE_DELETED = _kind(
    "roll_template_deleted",
    gettext_lazy("Roll template removed"),
    payload=payloads.Named,
    regions=_ALWAYS | {GM_TOOLS, COMPOSER},
)
CUSTOM_PATTERN_SAVED = _kind(
    "custom_pattern_saved",
    gettext_lazy("Pattern saved"),
    payload=payloads.CustomPatternSaved,
    regions=_ALWAYS | {GM_TOOLS, COMPOSER},
)

# --- Secret records revealed (both systems) ------------------------------------------------
ROLL_REVEALED = _kind(
    "roll_revealed",
    gettext_lazy("Roll revealed"),
    payload=payloads.RollRevealed,
    regions=_CARDS | {GM_TOOLS, OPEN_TESTS, SPEND_PANEL},
    record=(TEST, ROLL),
    log_template="roll_revealed",
    push_template="roll_revealed",
)

# --- 2d20 play -------------------------------------------------------------------------------
# GM_TOOLS: a test's line in the GM's secret tests and open contests changes with it.
# Every later event about a test pushes the test's state alike (push/d20_test.html).
_TEST_REGIONS = _CARDS | {OPEN_TESTS, SPEND_PANEL, GM_TOOLS}
# A spend or its veto may change the board (MO-09, MO-10): render.py draws it only then.
_SPEND_REGIONS = _TEST_REGIONS | {SCENE_BOARD}
D20_TEST = _kind(
    "d20_test",
    gettext_lazy("Skill test"),
    payload=payloads.D20Test,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_test",
)
# T-04: the dice after a Determination reroll, drawn as the test's card.
D20_REROLL = _kind(
    "d20_reroll",
    gettext_lazy("%(personal_pool)s reroll"),
    payload=payloads.D20Reroll,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_test",
    push_template="d20_test",
)
D20_SPEND = _kind(
    "d20_spend",
    gettext_lazy("%(group_pool)s spent"),
    payload=payloads.D20Spend,
    regions=_SPEND_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_spend",
    push_template="d20_test",
)
# MO-11 (a “you don't know” answer refunds its point) and MO-12 (the GM vetoes a
# spend): drawn as the spend they undo.
D20_REFUND = _kind(
    "d20_refund",
    gettext_lazy("%(group_pool)s refunded"),
    payload=payloads.D20Spend,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_spend",
    push_template="d20_test",
)
D20_VETO = _kind(
    "d20_veto",
    gettext_lazy("Spend vetoed"),
    payload=payloads.D20Spend,
    regions=_SPEND_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_spend",
    push_template="d20_test",
)
D20_RESOLVED = _kind(
    "d20_resolved",
    gettext_lazy("%(group_pool)s resolved"),
    payload=payloads.D20Resolved,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_resolved",
    push_template="d20_test",
)
CONTEST_OPENED = _kind(
    "contest_opened",
    gettext_lazy("Contest opened"),
    payload=payloads.ContestOpened,
    regions=_TEST_REGIONS | {COMPOSER},
    record=TEST,
    audience=BY_RECORD,
    log_template="contest_opened",
)
# The contest's active test is done (CT-03, CT-04, CT-R1): drawn as any resolution.
CONTEST_RESOLVED = _kind(
    "contest_resolved",
    gettext_lazy("Contest resolved"),
    payload=payloads.D20Resolved,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    log_template="d20_resolved",
    push_template="d20_test",
)
# The GM called off a contest nobody had answered: the generic card.
CONTEST_CANCELLED = _kind(
    "contest_cancelled",
    gettext_lazy("Contest called off"),
    payload=payloads.ContestCancelled,
    regions=_ALWAYS | {OPEN_TESTS, COMPOSER, GM_TOOLS},
)
# CT-R2's other choice (contest_at_scene_end): the scene ended before the active
# character answered, so the opposer wins; the generic card, as for a called-off one.
CONTEST_FORFEITED = _kind(
    "contest_forfeited",
    gettext_lazy("Contest won by the opposer"),
    payload=payloads.ContestCancelled,
    regions=_ALWAYS | {OPEN_TESTS, COMPOSER, GM_TOOLS},
)
# Game lines (tables/services/game_lines.py): Challenge dice rolled (GL-04); the GM's
# complication range for the scene (GL-05), which the GM tools show.
CHALLENGE_ROLL = _kind(
    "challenge_roll",
    gettext_lazy("%(challenge_dice)s rolled"),
    payload=payloads.ChallengeRoll,
    regions=_ALWAYS,
    log_template="challenge_roll",
)
COMPLICATION_RANGE_SET = _kind(
    "complication_range_set",
    gettext_lazy("Complication range"),
    payload=payloads.ComplicationRangeSet,
    regions=_ALWAYS | {GM_TOOLS},
    log_template="complication_range_set",
)

# --- The GM panel ------------------------------------------------------------------------------
THREAT_ADDED = _kind(
    "threat_added",
    gettext_lazy("%(gm_pool)s added"),
    payload=payloads.Threat,
    regions=_ALWAYS | {GM_TOOLS},
    audience=BY_POOL,
    log_template="threat",
)
THREAT_SPENT = _kind(
    "threat_spent",
    gettext_lazy("%(gm_pool)s spent"),
    payload=payloads.Threat,
    regions=_ALWAYS | {GM_TOOLS},
    audience=BY_POOL,
    log_template="threat",
)
DETERMINATION_PERMITTED = _kind(
    "determination_permitted",
    gettext_lazy("%(personal_pool)s allowed"),
    payload=payloads.DeterminationPermitted,
    regions=_TEST_REGIONS,
    record=TEST,
    audience=BY_RECORD,
    push_template="d20_test",
)
CUSTOM_SPEND_SAVED = _kind(
    "custom_spend_saved",
    gettext_lazy("Spend saved"),
    payload=payloads.CustomSpendSaved,
    regions=_ALWAYS | {GM_TOOLS, SPEND_PANEL},
)
CUSTOM_SPEND_DELETED = _kind(
    "custom_spend_deleted",
    gettext_lazy("Spend removed"),
    payload=payloads.Named,
    regions=_ALWAYS | {GM_TOOLS, SPEND_PANEL},
)
# --- Table talk (tables/services/talk.py) --------------------------------------------------------
# In character or out of character (payload["mode"]), for everyone; and a message to the GM,
# seen by the GMs and its sender only. Neither is a roll or a spend: never voided.
TALK = _kind(
    "talk", gettext_lazy("Table talk"), payload=payloads.Talk, regions=_ALWAYS, log_template="talk"
)
TALK_PRIVATE = _kind(
    "talk_private",
    gettext_lazy("To the GM"),
    payload=payloads.Talk,
    regions=_ALWAYS,
    audience=PRIVATE,
    log_template="talk_private",
)
# A whisper to one player (issue 37): its sender, its recipient and, unless the campaign
# keeps players' whispers from them (gm_reads_whispers), the GMs.
TALK_WHISPER = _kind(
    "talk_whisper",
    gettext_lazy("Whisper"),
    payload=payloads.TalkWhisper,
    regions=_ALWAYS,
    audience=WHISPER,
    log_template="talk_whisper",
)
# --- Corrections (tables/services/corrections.py) ---------------------------------------------
# The GM voids a mistaken event: its pool changes reversed in the ledger, its card struck
# through (push/voided.html draws it again). The caller gives the target's audience.
VOIDED = _kind(
    "voided",
    gettext_lazy("Voided"),
    payload=payloads.Voided,
    regions=_CARDS | {GM_TOOLS, OPEN_TESTS, SPEND_PANEL},
    log_template="voided",
    push_template="voided",
)

# --- Tests the GM calls for (tables/services/calls.py) ----------------------------------------
# Everyone sees a call, never its hidden Difficulty (the payload leaves it out); the answer
# names the roll and reveals the Difficulty once the dice have landed.
TEST_CALLED = _kind(
    "test_called", gettext_lazy("Test called"), payload=payloads.Call, regions=_ALWAYS | {CALLS}
)
CALL_CANCELLED = _kind(
    "call_cancelled",
    gettext_lazy("Call withdrawn"),
    payload=payloads.Call,
    regions=_ALWAYS | {CALLS},
)
CALL_ANSWERED = _kind(
    "call_answered",
    gettext_lazy("Call answered"),
    payload=payloads.CallAnswered,
    regions=_ALWAYS | {CALLS},
    record=(TEST, ROLL),  # the roll that answered; never secret (services/calls.py)
    log_template="call_answered",
)


# --- Harm and extended tasks (tables/services/harm.py, extended_tasks.py) ---------------------
# A hidden NPC track's events are stored with the GM audience by the service.
# A track set (rare, the GM's) redraws the whole list, where the tracks sit beside the cards;
# a move pushes only its tracks' numbers (push/harm_applied.html, from the payload).
HARM_TRACK_SET = _kind(
    "harm_track_set",
    gettext_lazy("Harm track set"),
    payload=payloads.HarmTrackSet,
    regions=_ALL_CARDS,
)
HARM_APPLIED = _kind(
    "harm_applied",
    gettext_lazy("Harm"),
    payload=payloads.HarmApplied,
    regions=_ALWAYS,
    log_template="harm_applied",
    push_template="harm_applied",
)
# The task's card is on the scene board; a link or a close takes the test cards' offers
# away (push/extended_task.html, from the payload).
EXTENDED_TASK = _kind(
    "extended_task",
    gettext_lazy("Extended task"),
    payload=payloads.ExtendedTaskState,
    regions=_BOARD,
    push_template="extended_task",
)


def choices() -> list[tuple[str, str]]:
    """(name, label) for every kind, in declaration order: TableEvent.kind's choices,
    worded when drawn with the seeds' names (the admin knows no campaign's line)."""
    return [(kind.name, _lazy_label(kind.label)) for kind in REGISTRY.values()]


_lazy_label = lazy(labelled, str)


def label_of(name: str, line=None) -> str:
    """The log's and Discord's name for a stored kind, by `line`'s names (a campaign's
    `line`; None: the seeds'); a row older than the registry gets its name in words."""
    entry = REGISTRY.get(name)
    if entry is None:
        return name.replace("_", " ").strip().capitalize()
    return labelled(entry.label, line)


def get(name: str) -> EventKind | None:
    """The entry for a stored kind; None for a row older than the registry."""
    return REGISTRY.get(name)


def registered(kind) -> EventKind:
    """`kind` itself if it is a registry entry; anything else raises TypeError/ValueError."""
    if not isinstance(kind, EventKind):
        raise TypeError(f"an event kind must be an entry of tables.events, not {kind!r}")
    if REGISTRY.get(kind.name) is not kind:
        raise ValueError(f"event kind {kind.name!r} is not registered in tables.events")
    return kind

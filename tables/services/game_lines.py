"""2d20 game lines at the table (GL-01 … GL-05): a scene's complication range, Challenge
dice rolls, and fitting the group pool to a new line's cap.

What a line *is* lives in rules/game_lines.py; this module only writes what the GM and
players do with it, through the lock, the ledger and the event log like every command.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from rules import challenge, game_lines
from rules.d20 import FACES
from rules.errors import RulesError
from rules.pools import DETERMINATION, GROUP_MOMENTUM, cap_of
from tables import events
from tables.models import Campaign, TableEvent
from tables.models.limits import NOTE_MAX
from tables.policy.access import require_control
from tables.policy.game_lines import adventure_word
from tables.policy.play import current_scene
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    change_pool,
    character_in,
    lock_campaign,
    require_gm,
    require_playing,
)
from tables.services.d20.refills import refill_personal_pools
from tables.services.d20.sheet import complication_range, whole_range
from tables.services.d20.starts import adventure_threat_changes, log_threat
from tables.words.said import said, words


def _require_2d20(campaign: Campaign) -> None:
    if campaign.dice_system != Campaign.DiceSystem.D20 or not campaign.uses_group_economy:
        raise ServiceError(
            gettext("Game lines are for 2d20 campaigns (see the campaign settings).")
        )


# --- the complication range (GL-05) ------------------------------------------------------
# A roll's range (complication_range, whole_range) is part of describing the test, in
# services/d20/sheet.py; the scene's is set here.


def set_scene_complication_range(campaign_id: int, actor, value: int | None) -> TableEvent:
    """GL-05: the GM sets (or, with None, clears) the running scene's complication range.

    It lasts until the scene ends (sessions.end_scene clears it); with no scene
    running there is nothing for it to last through, so it is refused.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        _require_2d20(campaign)
        if value is not None:  # GL-05: within the line's bound (STA: 16–20 at most)
            whole_range(value, _("The scene's complication range"), campaign)
        scene = current_scene(campaign)
        if scene is None:
            raise ServiceError(
                gettext("Start a scene first: the range lasts until the scene ends.")
            )
        if campaign.scene_complication_range == value:
            raise ServiceError(gettext("The scene already has that complication range."))
        campaign.scene_complication_range = value
        campaign.save(update_fields=["scene_complication_range"])
        effective = complication_range(campaign)
        return append_event(
            campaign,
            events.COMPLICATION_RANGE_SET,
            actor,
            {
                "scene": scene.number,
                "scene_title": str(scene),
                "range": value,
                "effective": effective,
                "from_face": FACES + 1 - effective,  # T-R1: faces from this one up complicate
            },
        )


# --- the personal pool's refill (GL-02) --------------------------------------------------


def start_new_adventure(campaign_id: int, actor) -> TableEvent:
    """GL-02: the GM starts a new mission (Dune: adventure, Fallout: quest); every player
    character's personal pool goes back to the line's starting amount, one ledger line each.
    GL-07: on STA (both editions) Threat is set to 2 per player character (a setting), in
    an event of Threat's audience (MO-13). Lines with neither refuse it, change nothing."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        _require_2d20(campaign)
        line = campaign.line
        occasion = adventure_word(campaign)
        if not occasion:
            raise ServiceError(
                _("In %(line)s, %(pool)s is not refilled by a new mission.")
                % {"line": line.title, "pool": line.personal_pool}
            )
        with translation.override(None):  # the button's message id, worded per reader
            book_occasion = words(adventure_word(campaign))
        event = None
        if line.refills_between_sessions:
            summary = said(
                gettext_noop("%(occasion)s: every player character's %(pool)s back to its start."),
                occasion=book_occasion,
                pool=words(campaign.book_line.personal_pool),
            )
            event = append_event(
                campaign,
                events.POOL_ADJUSTED,
                actor,
                {"pool": DETERMINATION, "character_id": None, **summary},
                changes=refill_personal_pools(campaign, book_occasion),
            )
        threat = adventure_threat_changes(campaign, book_occasion)
        summary = said(
            gettext_noop("%(occasion)s: %(pool)s set to 2 per player character."),
            occasion=book_occasion,
            pool=words(campaign.book_line.gm_pool),
        )
        return log_threat(campaign, actor, threat, summary) or event


# --- Challenge dice (GL-04) -------------------------------------------------------------


def roll_challenge_dice(
    campaign_id: int,
    actor,
    dice: int,
    *,
    character_id: int | None = None,
    note: str = "",
    rng=None,
) -> TableEvent:
    """GL-04, TB-02: roll `dice` Challenge (Combat) dice on the server; the log shows the
    faces, the total and the Effects. `character_id` (optional) names whose roll it is and
    must be the actor's to play. `rng` is for tests; play uses the system CSPRNG."""
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(
            gettext("A note holds at most %(note_max)s characters.") % {"note_max": NOTE_MAX}
        )
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        _require_2d20(campaign)
        line = campaign.line
        if not line.has_challenge_dice:
            raise ServiceError(gettext("%(line)s has no Challenge dice.") % {"line": line.title})
        character = _challenge_roller(campaign, membership, character_id)
        try:
            result = challenge.roll(dice, rng)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        return append_event(
            campaign,
            events.CHALLENGE_ROLL,
            actor,
            _challenge_payload(line, result, character, note),
        )


def _challenge_roller(campaign, membership, character_id):
    """Whose roll it is (None: nobody's), if the member plays them."""
    if character_id is None:
        return None
    character = character_in(campaign, character_id)
    require_control(
        membership,
        character,
        gettext("%(character)s is not yours to play.") % {"character": character.name},
    )
    return character


def _challenge_payload(line, result, character, note: str) -> dict:
    return {
        "dice_name": line.challenge_dice,
        "dice": result.dice,
        "faces": list(result.faces),
        "read": [
            {
                "value": challenge.FACE_VALUES[f][0],
                "effect": bool(challenge.FACE_VALUES[f][1]),
            }
            for f in result.faces
        ],
        "total": result.total,
        "effects": result.effects,
        "roller_id": character.pk if character else None,  # no pool of theirs moves
        "character": character.name if character else "",
        "note": note,
    }


# --- a new line (GL-01) ------------------------------------------------------------------


def check_line(key) -> game_lines.GameLine:
    """The line named by `key`; ServiceError for anything else (bad input)."""
    if not isinstance(key, str):
        raise ServiceError(gettext("Choose one of the game lines."))
    try:
        return game_lines.line_of(key)
    except ValueError:
        raise ServiceError(gettext("Choose one of the game lines.")) from None


def fit_group_pool(campaign: Campaign, new_key: str) -> list[Change]:
    """Before `campaign` (locked) moves to another line: what the new cap cannot hold is
    lost, through the ledger (MO-04, GL-01). Nothing to do at equal or higher caps."""
    new = check_line(new_key)
    cap = cap_of(GROUP_MOMENTUM, new.group_cap)
    current = Campaign.objects.values_list("group_momentum", flat=True).get(pk=campaign.pk)
    if current <= cap:
        return []
    reason = words(
        gettext_noop("%(line)s: the group pool holds at most %(cap)s (GL-01)"),
        line=words(new.title),
        cap=cap,
    )
    return [change_pool(campaign, GROUP_MOMENTUM, cap - current, reason)]

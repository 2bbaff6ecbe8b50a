"""A conflict's turn order (issue 24, SC-01), each change an ordered TableEvent.

The GM starts a conflict in the running scene with its participants, and skips,
inserts, reorders and ends it. The order is the line's (SC-04, rules/turns.py): in most
2d20 lines the sides alternate: the side whose turn it is chooses who acts (players
their characters, the GM the NPCs); in Conan the players' side acts first, in any
order; in Fallout each acts by Initiative. What a side pays to act out of turn (Keep
the Initiative, the GM's interrupt, the GM's opening turn) is paid.py's. In Momenta
(structured play) the GM's order runs by itself, each acting once a round.

Rulings (the note of issue 24):
- SC-01a "once per turn": a side keeps the initiative at most once in a row; the turn
  it bought passes the initiative to the other side. Two presses for one turn pay once.
  (STA dev blog 006 says so; the setting keep_once_in_a_row turns it off.)
- SC-01b a round ends when everyone has acted (or been skipped); the next begins at
  once, opened by the other side, unless the side that ended it keeps the initiative
  (the setting players_open_each_round has the players open every round instead).

Every command takes the campaign lock first: two presses of Keep the Initiative at once
serialise there, and the second finds someone already acting and pays nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import turns as rules
from tables import events
from tables.models import (
    Attribute,
    Campaign,
    Character,
    Conflict,
    Membership,
    Participant,
    TableEvent,
)
from tables.policy.turns import GM, PLAYERS, next_side, ordered_next, running_conflict, turn_rules
from tables.services.core import (
    ServiceError,
    append_event,
    lock_campaign,
    require_role,
)
from tables.services.scenes import scene_for_play
from tables.words.said import said, words


def _running(campaign: Campaign) -> Conflict:
    conflict = running_conflict(campaign)
    if conflict is None:
        raise ServiceError(_("No conflict is running."))
    return conflict


def _participant(conflict: Conflict, character_id) -> Participant:
    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise ServiceError(_("Choose a character of the conflict.")) from None
    found = conflict.participants.filter(character_id=character_id).select_related("character")
    participant = found.first()
    if participant is None:
        raise ServiceError(_("That character does not take part in the conflict."))
    return participant


def _event(campaign, actor, conflict, action, summary, participant=None, changes=()):
    """`summary`: the sentence, or said()'s pair (worded again for each reader)."""
    payload = {
        "conflict_id": conflict.pk,
        "action": action,
        "round": conflict.round,
        **(summary if isinstance(summary, dict) else {"summary": summary}),
    }
    if participant is not None:
        payload.update(
            character_id=participant.character_id,
            character=participant.character.name,
            side=participant.side,
        )
    return append_event(campaign, events.TURN, actor, payload, changes=changes)


def _side_words(side: str) -> str:
    return _("the players' side") if side == PLAYERS else _("the GM's side")


# A side opening a sentence, in the turn tracker's words (presenters/conflicts.py); not
# _side_words capitalised, which made "The gm's side" (issue 37).
SIDE_TITLES = {PLAYERS: gettext_noop("The players' side"), GM: gettext_noop("The GM's side")}


def side_title(side: str) -> str:
    return _(SIDE_TITLES[PLAYERS if side == PLAYERS else GM])


def _may_speak_for(membership: Membership, side: str) -> None:
    """Players choose for their side and the GM for the NPCs; the GM may also choose for
    the players (someone is away), but only the players spend their Momentum."""
    if side == GM and not membership.is_gm:
        raise PermissionDenied(_("Only the GM chooses who acts on the GM's side."))


def _after_turn(campaign, actor, conflict: Conflict) -> list[TableEvent]:
    """SC-01b: when no one is left to act, the round ends and the next one begins. In
    Momenta's order, the next character acts at once."""
    done = []
    if not conflict.participants.filter(acted=False).exists():
        conflict.round += 1
        conflict.participants.update(acted=False)
        if campaign.players_open_each_round:
            conflict.last_side = ""  # SC-01b's setting: as in round 1, the players open
        conflict.save(update_fields=["round", "last_side"])
        summary = said(gettext_noop("Round %(n)d begins."), n=conflict.round)
        done.append(_event(campaign, actor, conflict, "new_round", summary))
    if conflict.mode == Conflict.Mode.ORDERED:
        following = ordered_next(conflict)
        if following is not None:
            done.append(_set_acting(campaign, actor, conflict, following))
    return done


def _stop_acting(conflict: Conflict) -> None:
    conflict.participants.filter(acting=True).update(acting=False)
    conflict.remember_acting(None)


def _set_acting(campaign, actor, conflict, participant, *, kept=False, changes=(), paid=""):
    _stop_acting(conflict)
    participant.acting = True
    participant.save(update_fields=["acting"])
    conflict.remember_acting(participant)
    conflict.last_kept = kept
    conflict.save(update_fields=["last_kept"])
    name = participant.character.name
    if paid:
        summary = paid  # paid.py words what was bought
    elif kept:
        side = words(SIDE_TITLES[PLAYERS if participant.side == PLAYERS else GM])
        summary = said(
            gettext_noop("%(side)s keeps the initiative: %(who)s acts next."), side=side, who=name
        )
    else:
        summary = said(gettext_noop("%(who)s is acting."), who=name)
    action = "kept" if kept else "acting"
    return _event(campaign, actor, conflict, action, summary, participant, changes)


# --- The GM's commands -----------------------------------------------------------------------


def start_conflict(campaign_id: int, actor, character_ids, initiatives=None) -> TableEvent:
    """Start a conflict in the running scene with these characters, in this order (the
    line's, SC-04). By Initiative (Fallout), `initiatives` {character id: the GM's entry}
    overrides a sheet's Perception + Agility (ruling SC-R15, docs/rules.md)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        if running_conflict(campaign) is not None:
            raise ServiceError(_("A conflict is already running: end it first."))
        ids = []
        for value in character_ids or ():
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise ServiceError(_("Choose characters of this campaign.")) from None
            if value not in ids:
                ids.append(value)
        found = Character.objects.filter(campaign=campaign, pk__in=ids).in_bulk()
        if not ids or len(found) != len(ids):
            raise ServiceError(_("Choose who takes part: characters of this campaign."))
        mode = Conflict.Mode(turn_rules(campaign).order)
        scores = {}
        if mode == Conflict.Mode.INITIATIVE:
            scores = initiative_scores(found, ids, initiatives or {})
            ids = rules.by_initiative((pk, scores[pk]) for pk in ids)
        conflict = Conflict.objects.create(
            campaign=campaign, scene=scene_for_play(campaign), mode=mode
        )
        Participant.objects.bulk_create(
            Participant(
                conflict=conflict,
                character=found[pk],
                side=GM if found[pk].is_npc else PLAYERS,
                position=i,
                initiative=scores.get(pk),
            )
            for i, pk in enumerate(ids)
        )
        names = ", ".join(found[pk].name for pk in ids)
        summary = said(
            gettext_noop("The GM starts a conflict: %(names)s. Round 1 begins."), names=names
        )
        event = _event(campaign, actor, conflict, "started", summary)
        if mode == Conflict.Mode.ORDERED:
            _set_acting(campaign, actor, conflict, ordered_next(conflict))
        return event


def initiative_scores(found: dict, ids: list[int], entries: dict) -> dict[int, int]:
    """SC-04 (Fallout core, Combat): each one's Initiative: the GM's entry, else the sheet's
    Perception + Agility, else 0 (ruling SC-R15: after those with one, in the GM's order).
    A bad entry refuses the start."""
    sheets = {pk: {} for pk in ids}
    for row in Attribute.objects.filter(character_id__in=ids).values(
        "character_id", "name", "value"
    ):
        sheets[row["character_id"]][row["name"]] = row["value"]
    scores = {}
    for pk in ids:
        entry = entries.get(pk, entries.get(str(pk), ""))
        if entry in ("", None):
            scores[pk] = rules.initiative_from(sheets[pk]) or 0
            continue
        try:
            value = int(entry)
        except (TypeError, ValueError):
            value = -1
        if not 0 <= value <= rules.INITIATIVE_MAX:
            raise ServiceError(
                _("%(who)s's Initiative must be a whole number from 0 to %(most)d.")
                % {"who": found[pk].name, "most": rules.INITIATIVE_MAX}
            )
        scores[pk] = value
    return scores


def end_conflict(campaign_id: int, actor) -> TableEvent:
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        conflict.ended_at = timezone.now()
        conflict.save(update_fields=["ended_at"])
        _stop_acting(conflict)
        summary = said(
            gettext_noop("The GM ends the conflict after round %(n)d."), n=conflict.round
        )
        return _event(campaign, actor, conflict, "ended", summary)


def skip_turn(campaign_id: int, actor, character_id) -> TableEvent:
    """The GM passes over a character's turn this round (acting or still to act)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        if participant.acted:
            raise ServiceError(
                _("%(who)s has already acted this round.") % {"who": participant.character.name}
            )
        was_acting = participant.acting
        participant.acted, participant.acting = True, False
        participant.save(update_fields=["acted", "acting"])
        if was_acting:
            conflict.remember_acting(None)
            conflict.last_side, conflict.last_kept = participant.side, False
            conflict.save(update_fields=["last_side", "last_kept"])
        summary = said(gettext_noop("The GM skips %(who)s's turn."), who=participant.character.name)
        event = _event(campaign, actor, conflict, "skipped", summary, participant)
        if conflict.acting is None:
            _after_turn(campaign, actor, conflict)
        return event


def insert_participant(campaign_id: int, actor, character_id) -> TableEvent:
    """The GM brings a character into the running conflict; it acts this round."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        try:
            character = Character.objects.get(campaign=campaign, pk=int(character_id))
        except (TypeError, ValueError, Character.DoesNotExist):
            raise ServiceError(_("Choose a character of this campaign.")) from None
        if conflict.participants.filter(character=character).exists():
            raise ServiceError(_("%(who)s already takes part.") % {"who": character.name})
        last = conflict.participants.order_by("-position").values_list("position", flat=True)
        participant = Participant.objects.create(
            conflict=conflict,
            character=character,
            side=GM if character.is_npc else PLAYERS,
            position=(last.first() or 0) + 1,
        )
        summary = said(gettext_noop("%(who)s joins the conflict."), who=character.name)
        return _event(campaign, actor, conflict, "inserted", summary, participant)


def reorder(campaign_id: int, actor, character_ids, *, waiting=False) -> TableEvent:
    """The GM's new order: every participant once (Momenta's structured play). With
    `waiting`, the order of those still to act (the tracker's Move up/down and drag and
    drop, issue 37): exactly them, each once; who acts or has acted keeps their place."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        conflict = _running(campaign)
        people = list(conflict.participants.select_related("character").order_by("position", "pk"))
        by_character = {p.character_id: p for p in people}
        try:
            ids = [int(v) for v in character_ids or ()]
        except (TypeError, ValueError):
            ids = []
        if waiting:
            ids = _with_the_others(people, ids)
        elif sorted(ids) != sorted(by_character):
            raise ServiceError(_("Give the new order with every participant once."))
        if ids == [p.character_id for p in people]:
            # Moving the first one up, or a second press: the order stays, no event.
            raise ServiceError(_("The conflict is already in that order."))
        for i, pk in enumerate(ids):
            by_character[pk].position = i
        Participant.objects.bulk_update(by_character.values(), ["position"])
        names = ", ".join(by_character[pk].character.name for pk in ids)
        summary = said(gettext_noop("The GM reorders the conflict: %(names)s."), names=names)
        return _event(campaign, actor, conflict, "reordered", summary)


def _with_the_others(people: list[Participant], ids: list[int]) -> list[int]:
    """The whole order from a new order of those still to act: they take the places the
    waiting had, in the new order. Refused unless it names exactly them, each once (a
    page drawn before someone acted or joined sends a stale list: nothing changes)."""
    slots = [i for i, p in enumerate(people) if not p.acted and not p.acting]
    if sorted(ids) != sorted(people[i].character_id for i in slots):
        raise ServiceError(
            _("Give the new order with everyone still to act once; the tracker has changed.")
        )
    order = [p.character_id for p in people]
    for slot, pk in zip(slots, ids, strict=True):
        order[slot] = pk
    return order


# --- The players' and the GM's turns ---------------------------------------------------------


def choose_next(campaign_id: int, actor, character_id) -> TableEvent:
    """SC-01: the side whose turn it is chooses which of its characters acts now."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        _refuse_while_acting(conflict)
        if conflict.mode == Conflict.Mode.ORDERED and not membership.is_gm:
            raise PermissionDenied(_("The GM's order says who acts next."))
        if participant.acted:
            raise ServiceError(
                _("%(who)s has already acted this round.") % {"who": participant.character.name}
            )
        if conflict.mode in (Conflict.Mode.SIDES, Conflict.Mode.FIRST):
            side = next_side(campaign, conflict)
            if participant.side != side:
                raise ServiceError(
                    _("It is %(side)s's turn to act, not %(who)s's.")
                    % {"side": _side_words(side), "who": participant.character.name}
                )
        if conflict.mode == Conflict.Mode.INITIATIVE:
            following = ordered_next(conflict)
            if following.pk != participant.pk:
                raise ServiceError(
                    _("By Initiative %(next)s acts next, not %(who)s.")
                    % {"next": following.character.name, "who": participant.character.name}
                )
        _may_speak_for(membership, participant.side)
        return _set_acting(campaign, actor, conflict, participant)


def end_turn(campaign_id: int, actor, character_id) -> TableEvent:
    """The acting character's turn ends (its player or the GM says so)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        conflict = _running(campaign)
        participant = _participant(conflict, character_id)
        if not participant.acting:
            raise ServiceError(
                _("It is not %(who)s's turn: only the acting character's turn can end.")
                % {"who": participant.character.name}
            )
        if not membership.is_gm and participant.character.owner_id != actor.pk:
            raise PermissionDenied(_("Only its player or the GM ends a character's turn."))
        participant.acted, participant.acting = True, False
        participant.save(update_fields=["acted", "acting"])
        conflict.remember_acting(None)
        conflict.last_side = participant.side
        conflict.save(update_fields=["last_side"])
        summary = said(gettext_noop("%(who)s ends their turn."), who=participant.character.name)
        event = _event(campaign, actor, conflict, "ended_turn", summary, participant)
        _after_turn(campaign, actor, conflict)
        return event


def _refuse_while_acting(conflict: Conflict) -> None:
    if conflict.acting is not None:
        acting = conflict.acting.character.name
        raise ServiceError(
            _("%(who)s is acting: the next one is chosen when their turn ends.") % {"who": acting}
        )


# --- Inside other commands (their transaction, their lock) -------------------------------


def end_with_scene(campaign: Campaign, scene) -> bool:
    """A conflict hangs from its scene (DESIGN.md, "The scene"): the scene's end ends it
    too, inside end_scene's transaction; its scene_ended event redraws the tracker."""
    conflict = Conflict.objects.filter(campaign=campaign, scene=scene, ended_at__isnull=True)
    conflict = conflict.first()
    if conflict is None:
        return False
    conflict.ended_at = timezone.now()
    conflict.save(update_fields=["ended_at"])
    _stop_acting(conflict)
    return True

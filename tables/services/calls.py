"""Tests the GM calls for: call, withdraw, answer (issue 15).

The GM asks one character, or anyone at the table, for a roll:
- 2d20: attribute + skill (+ focus), a Difficulty 0..5 (T-R2) and optionally a
  complication range for this roll (T-R1);
- Momenta: an action roll of an attribute against opposition dice the GM sets
  (D6-10), or a luck roll, which nothing opposes (D6-11).

`hidden` keeps the Difficulty (or the opposition dice) the GM's alone until the dice
land: the call's event, its card, the players' panel and composer never carry it;
the answer's event names it. A call is answered once: the first roll closes it (a
call for everyone is answered by the first character who rolls), a second is
refused. Only GMs call and withdraw; the called character's controller (anyone's
character when called for everyone) answers. The answer is an ordinary roll
(services.d20.roll_d20_test, services.momenta.roll_momenta) in the same transaction,
with what the GM decided in place of what the composer sent, then one event that
links it to the call.
"""

from __future__ import annotations

from dataclasses import replace

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from tables import events
from tables.models import CalledTest, Campaign, Character, Membership, TableEvent
from tables.models.limits import MAX_POOL
from tables.policy.access import require_control
from tables.policy.calls import term_words
from tables.services import call_edges
from tables.services import d20 as services_d20
from tables.services import momenta as services_momenta
from tables.services.core import (
    ServiceError,
    append_event,
    character_in,
    lock_campaign,
    playing_member,
    require_gm,
)
from tables.services.d20.sheet import whole_range
from tables.services.momenta import RollRequest
from tables.words.said import said, words

DIFFICULTY_MAX = 5  # T-R2
NOTE_MAX = 120


def system_of(campaign: Campaign) -> str:
    return CalledTest.System.MOMENTA if campaign.uses_d6 else CalledTest.System.D20


# --- calling -------------------------------------------------------------------------------


def call_test(
    campaign_id: int,
    actor,
    *,
    character_id: int | None,
    attribute: str,
    skill: str = "",
    focus: str = "",
    difficulty: int | None = None,
    complication_range: int | None = None,
    kind: str = CalledTest.Kind.ACTION,
    opposition_pool: int | None = None,
    disadvantage: bool = False,
    edge: bool = False,
    hidden: bool = False,
    note: str = "",
) -> CalledTest:
    """The GM calls for a test (T-R1, T-R2 for 2d20; D6-08, D6-10, D6-11, PM-02, PM-05
    for Momenta).

    `character_id` None calls everyone. A named character's sheet must have what is
    asked; a call for everyone is checked against each sheet when answered. Momenta:
    `disadvantage` makes the answer a roll with Disadvantage (PM-02), `edge` offers the
    roller a GM-called situational edge, Advantage they may pay for (PM-05): both the
    GM's call where players do not declare them (Campaign.players_declare_edges).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        character = character_in(campaign, character_id) if character_id is not None else None
        call = CalledTest(
            campaign=campaign,
            actor=actor,
            character=character,
            system=system_of(campaign),
            attribute=(attribute or "").strip(),
            hidden=bool(hidden),
            note=_note(note),
        )
        if call.system == CalledTest.System.D20:
            if disadvantage or edge:
                raise ServiceError(_("Disadvantage and edges are Momenta's (PM-02, PM-05)."))
            _d20_terms(campaign, call, character, skill, focus, difficulty, complication_range)
        else:
            _momenta_terms(call, character, kind, opposition_pool)
            call_edges.momenta_edges(call, bool(disadvantage), bool(edge))
        call.save()
        call.event = append_event(campaign, events.TEST_CALLED, actor, _call_payload(call))
        call.save(update_fields=["event"])
    return call


def _note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(
            gettext("Keep the note to %(note_max)s characters.") % {"note_max": NOTE_MAX}
        )
    return note


def _d20_terms(campaign, call, character, skill, focus, difficulty, complication_range):
    services_d20.require_d20(campaign)
    if difficulty is None or isinstance(difficulty, bool) or not 0 <= difficulty <= DIFFICULTY_MAX:
        raise ServiceError(
            gettext("The Difficulty is a whole number from 0 to %(difficulty_max)s (T-R2).")
            % {"difficulty_max": DIFFICULTY_MAX}
        )
    if complication_range is not None:  # GL-05: within the line's bound
        whole_range(complication_range, _("A complication range"), campaign)
    call.skill, call.focus = (skill or "").strip(), (focus or "").strip()
    call.difficulty, call.complication_range = difficulty, complication_range
    if not call.attribute or not call.skill:
        raise ServiceError(gettext("Name the attribute and the skill to test."))
    if character is not None:
        # The sheet's own names (and its refusal in words) from the rules' reading of it.
        _target, skill_value, names = services_d20.target(character, call.attribute, call.skill)
        call.attribute, call.skill = names["attribute"], names["skill"]
        if call.focus:
            call.focus = services_d20.focus(character, call.focus, skill_value)[1]


def _momenta_terms(call, character, kind, opposition_pool):
    if kind not in CalledTest.Kind.values:
        raise ServiceError(gettext("Call an action roll or a luck roll."))
    call.kind = kind
    if kind == CalledTest.Kind.LUCK:
        if opposition_pool:
            raise ServiceError(gettext("Nothing opposes a luck roll (D6-11)."))
        call.attribute = "LUCK"
        return
    if opposition_pool is not None and not 1 <= opposition_pool <= MAX_POOL:
        raise ServiceError(
            gettext("Opposition dice: from 1 to %(max_pool)s, or none.") % {"max_pool": MAX_POOL}
        )
    call.opposition_pool = opposition_pool or None
    if not call.attribute:
        raise ServiceError(gettext("Name the attribute to roll."))
    if character is not None:
        wanted = call.attribute.casefold()
        found = next((a for a in character.attributes.all() if a.name.casefold() == wanted), None)
        if found is None:
            raise ServiceError(
                gettext("%(character)s has no attribute called “%(attribute)s”.")
                % {"character": character.name, "attribute": call.attribute}
            )
        if found.is_luck:
            raise ServiceError(gettext("LUCK makes luck rolls only (D6-11): call a luck roll."))
        call.attribute = found.name


def _who(call: CalledTest) -> str | dict:
    return call.character.name if call.character_id else words(gettext_noop("everyone"))


def _call_payload(call: CalledTest) -> dict:
    """Everything a player may read of a new call; a hidden Difficulty is not in it."""
    values = {"who": _who(call), "terms": term_words(call, reveal=False)}
    if call.note:
        sentence = gettext_noop("The GM calls for a test from %(who)s: %(terms)s. “%(note)s”")
        values["note"] = call.note
    else:
        sentence = gettext_noop("The GM calls for a test from %(who)s: %(terms)s.")
    called = call.character.name if call.character_id else "everyone"
    return {"call_id": call.pk, "called": called, **said(sentence, **values)}


# --- withdrawing ---------------------------------------------------------------------------


def _open_call(campaign: Campaign, call_id) -> CalledTest:
    call = (
        CalledTest.objects.select_related("character", "answered_by")
        .filter(campaign=campaign, pk=call_id)
        .first()
    )
    if call is None:
        raise ServiceError(gettext("There is no such call at this table."))
    if call.state == CalledTest.State.ANSWERED:
        who = call.answered_by.name if call.answered_by_id else "someone"
        raise ServiceError(
            gettext("This call has been answered already (by %(who)s): roll it only once.")
            % {"who": who}
        )
    if call.state == CalledTest.State.CANCELLED:
        raise ServiceError(gettext("The GM withdrew this call."))
    return call


def cancel_call(campaign_id: int, actor, call_id: int) -> TableEvent:
    """The GM withdraws an open call; a hidden Difficulty stays the GM's."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        call = _open_call(campaign, call_id)
        call.state = CalledTest.State.CANCELLED
        call.save(update_fields=["state"])
        return append_event(
            campaign,
            events.CALL_CANCELLED,
            actor,
            {
                "call_id": call.pk,
                "called": call.character.name if call.character_id else "everyone",
                **said(
                    gettext_noop("The GM withdraws the call for %(who)s: %(terms)s."),
                    who=_who(call),
                    terms=term_words(call, reveal=False),
                ),
            },
        )


# --- answering -----------------------------------------------------------------------------


def _answering(campaign: Campaign, actor, call_id, character_id, membership, system):
    """The open call and the character answering it, or why not (under the lock)."""
    membership = playing_member(campaign, actor, membership)
    call = _open_call(campaign, call_id)
    if call.system != system:
        raise ServiceError(gettext("This call is for the other kind of roll."))
    character = character_in(campaign, character_id)
    if call.character_id is not None and call.character_id != character.pk:
        raise ServiceError(
            gettext("This call is for %(character)s.") % {"character": call.character.name}
        )
    require_control(
        membership,
        character,
        gettext("%(character)s is not yours to play.") % {"character": character.name},
    )
    return membership, call, character


def _close(campaign: Campaign, actor, call: CalledTest, character: Character, **record):
    """Link the roll to the call, close it, and say what it came to against the GM's terms."""
    call.state = CalledTest.State.ANSWERED
    call.answered_by = character
    for name, value in record.items():
        setattr(call, name, value)
    call.save(update_fields=["state", "answered_by", *record])
    _mark_roll_card((call.d20_test or call.momenta_roll).event, call)
    return append_event(campaign, events.CALL_ANSWERED, actor, _answer_payload(call, character))


def _mark_roll_card(event: TableEvent, call: CalledTest) -> None:
    """The roll's own card is the log's one entry for the answer (issue 25): its payload
    names the call, so the card says what it answered, and the call_answered event after
    it has no card of its own (live/muting.py). Written before commit, so no page, push
    or export ever saw the roll without it; checked against the kind's model as any."""
    marked = {**event.payload, "call": {"call_id": call.pk, "hidden": call.hidden}}
    event.payload = events.get(event.kind).stored_payload(marked)
    event.save(update_fields=["payload"])


def _answer_payload(call: CalledTest, character: Character) -> dict:
    payload = {
        "call_id": call.pk,
        "called": call.character.name if call.character_id else "everyone",
        "answered_by": character.name,
        "hidden": call.hidden,  # the card says the Difficulty was hidden until now
        "on_roll_card": True,  # the roll's card shows the answer (_mark_roll_card)
    }
    revealed = words(gettext_noop(" (hidden until the dice landed)")) if call.hidden else ""
    answered = _d20_answer if call.system == CalledTest.System.D20 else _momenta_answer
    return payload | answered(call, character, revealed)


def _d20_answer(call: CalledTest, character: Character, revealed) -> dict:
    result = call.d20_test.result
    verdict = words(gettext_noop("passes") if result["passed"] else gettext_noop("fails"))
    return dict(
        test_id=call.d20_test.pk,
        difficulty=result["difficulty"],
        successes=result["successes"],
        passed=result["passed"],
        **said(
            gettext_noop(
                "%(character)s answers the GM's call: %(attribute)s + %(skill)s, "
                "%(successes)s against Difficulty %(difficulty)s%(revealed)s: %(verdict)s."
            ),
            character=character.name,
            attribute=call.attribute,
            skill=call.skill,
            successes=result["successes"],
            difficulty=result["difficulty"],
            revealed=revealed,
            verdict=verdict,
        ),
    )


def _momenta_answer(call: CalledTest, character: Character, revealed) -> dict:
    roll = call.momenta_roll
    opposition = call.opposition_pool
    card = roll.card or {}
    outcome = card.get("summary", "")
    return dict(
        roll_id=roll.pk,
        opposition_pool=opposition,
        opposition_successes=(roll.result or {}).get("opposition_successes"),
        outcome=outcome,
        **said(
            gettext_noop("%(character)s answers the GM's call: %(terms)s%(revealed)s. %(outcome)s"),
            character=character.name,
            terms=term_words(call, reveal=True),
            revealed=revealed if opposition else "",
            outcome=card.get("summary_words") or outcome,
        ),
    )


def answer_d20_call(
    campaign_id: int,
    actor,
    call_id: int,
    character_id: int,
    request: services_d20.D20TestRequest | None = None,
    *,
    rng=None,
    membership: Membership | None = None,
):
    """Roll a called 2d20 test: the GM's attribute, skill, focus, Difficulty (T-R2) and
    complication range (T-R1) in place of the request's; the roller still buys dice,
    takes assistance and bonus Momentum (MO-05, MO-08, T-03). The composer's own
    factors, contest, secrecy and Determination are not the roller's to set here.
    Returns (test, the answer's event)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership, call, character = _answering(
            campaign, actor, call_id, character_id, membership, CalledTest.System.D20
        )
        request = replace(
            request or services_d20.D20TestRequest(call.attribute, call.skill),
            attribute=call.attribute,
            skill=call.skill,
            focus=call.focus,
            difficulty=call.difficulty,
            factors=(),
            contest_id=None,
            secret=False,
            complication_range=call.complication_range or None,
            spend_determination=False,
        )
        record = services_d20.roll_d20_test(
            campaign.pk, actor, character.pk, request, rng=rng, membership=membership
        )
        event = _close(campaign, actor, call, record.character, d20_test=record)
    return record, event


def answer_momenta_call(
    campaign_id: int,
    actor,
    call_id: int,
    character_id: int,
    request: RollRequest,
    *,
    rng=None,
    membership: Membership | None = None,
):
    """Roll a called Momenta roll: the GM's attribute, kind and opposition dice (D6-10,
    D6-11) in place of the request's; the roller's own choices (template, Advantage,
    Resolve…) stand. The GM's Disadvantage (PM-02) stands too, and a situational edge
    is the roller's to take (and pay for, PM-05) only if the GM called it, unless
    players declare them at this table. Never secret. Returns (roll, the answer's event)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership, call, character = _answering(
            campaign, actor, call_id, character_id, membership, CalledTest.System.MOMENTA
        )
        request = replace(
            request,
            attribute=call.attribute,
            kind=call.kind,
            opposition_pool=call.opposition_pool,
            opposition_successes=None,
            secret=False,
            **call_edges.called_edges(campaign, membership, call, request),
        )
        try:
            roll = services_momenta.roll_momenta(
                campaign.pk,
                actor,
                character.pk,
                request,
                rng=rng,
                gm_opposition=True,
            )
        except PermissionDenied as error:  # pragma: no cover - checked above
            raise ServiceError(str(error)) from error
        event = _close(campaign, actor, call, character, momenta_roll=roll)
    return roll, event


# --- reading -------------------------------------------------------------------------------

"""Assists (PM-08..PM-10): one character funds another's Advantage.

PM-08: the helper *may* pay, and the GM must accept. Two answers, in either order:
the helper's own (their player, or the GM for an NPC: answer_as_helper) and the GM's
(answer_assist). Only with both can a roll use the Assist and spend the helper's point.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tables import events
from tables.models import AssistRequest, Campaign, Character, Membership
from tables.policy.access import can_control, has_role
from tables.services.core import (
    ServiceError,
    append_event,
    character_in,
    lock_campaign,
    require_playing,
)
from tables.services.momenta.common import require_d6
from tables.words.said import said, words


def speaks_for_helper(membership: Membership, helper: Character) -> bool:
    """Whose word is the helper's (PM-08): their player; the GM for an NPC. A GM's
    control of every character does not make a player's Momentum theirs to give."""
    if helper.owner_id == membership.user_id and has_role(membership, "player"):
        return True
    return helper.is_npc and membership.is_gm


def request_assist(
    campaign_id: int, actor, roller_id: int, helper_id: int, *, structured: bool = False
) -> AssistRequest:
    """Ask for (or offer) an Assist: the helper would fund the roller's Advantage (PM-08).

    Whoever controls either character may ask; the GM accepts, declines or calls
    a test (answer_assist) and the helper's player agrees or declines
    (answer_as_helper); an offer from the helper's own side is agreed already.
    `structured` records that it was asked for in structured time; the roll's play
    mode decides whether it is the helper's action (PM-09). The returned request
    carries the appended event as `.event`.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        require_d6(campaign)
        roller = character_in(campaign, roller_id)
        helper = character_in(campaign, helper_id)
        _check_asked(campaign, membership, roller, helper)
        agreed = speaks_for_helper(membership, helper)
        assist = AssistRequest.objects.create(
            campaign=campaign,
            roller=roller,
            helper=helper,
            requested_by=actor,
            structured=bool(structured),
            helper_agreed=agreed,
        )
        assist.event = append_event(
            campaign,
            events.ASSIST_REQUESTED,
            actor,
            {
                "assist_id": assist.pk,
                "roller": roller.name,
                "roller_id": roller.pk,
                "helper": helper.name,
                "helper_id": helper.pk,
                "structured": assist.structured,
                "helper_agreed": agreed,
                **_asked_words(helper, roller, bool(structured), agreed),
            },
        )
        return assist


def _check_asked(campaign, membership, roller, helper) -> None:
    """Why an Assist may not be asked for (PM-08, PM-12), under the lock."""
    if not (can_control(membership, roller) or can_control(membership, helper)):
        raise PermissionDenied(gettext("Ask for help for your own character, or offer your own."))
    if roller.pk == helper.pk:
        raise ServiceError(
            gettext("An Assist comes from another character, not the roller (PM-08).")
        )
    if roller.in_creation or helper.in_creation:
        raise ServiceError(gettext("No Assists during character creation (PM-12)."))
    if AssistRequest.objects.filter(
        campaign=campaign,
        roller=roller,
        state__in=[AssistRequest.State.REQUESTED, AssistRequest.State.ACCEPTED],
    ).exists():
        raise ServiceError(
            gettext("%(roller)s already has an Assist open: one Assist per roll (PM-08).")
            % {"roller": roller.name}
        )


# A whole sentence per case: a translation may order the words its own way (PM-08, PM-09).
_ASKED = {
    (False, True): gettext_noop("%(helper)s would Assist %(roller)s. The GM decides."),
    (False, False): gettext_noop(
        "%(helper)s would Assist %(roller)s. %(helper)s's player and the GM decide."
    ),
    (True, True): gettext_noop(
        "%(helper)s would Assist %(roller)s in structured time: it will be the helper's "
        "action (PM-09). The GM decides."
    ),
    (True, False): gettext_noop(
        "%(helper)s would Assist %(roller)s in structured time: it will be the helper's "
        "action (PM-09). %(helper)s's player and the GM decide."
    ),
}


def _asked_words(helper, roller, structured: bool, agreed: bool) -> dict:
    return said(_ASKED[structured, agreed], helper=helper.name, roller=roller.name)


ASSIST_ANSWERS = {
    "accept": gettext_noop("accepts"),
    "decline": gettext_noop("declines"),
    "call_test": gettext_noop("calls a test from the helper for"),
    "test_passed": gettext_noop("records a passed test for"),
    "test_failed": gettext_noop("records a failed test for"),
}
# The refusal of a GM's answer that would leave the Assist as it stands ("decline" always
# changes an open one).
_SAME_ANSWER = {
    "accept": gettext_noop("%(helper)s's Assist is already accepted."),
    "call_test": gettext_noop("A test from %(helper)s is already called for this Assist."),
    "test_passed": gettext_noop("That result is already recorded for %(helper)s's Assist."),
    "test_failed": gettext_noop("That result is already recorded for %(helper)s's Assist."),
}
# The helper's own answers (answer_as_helper).
HELPER_ANSWERS = ("agree", "refuse")


def _assist_at(campaign: Campaign, assist_id: int) -> AssistRequest:
    assist = (
        AssistRequest.objects.select_related("roller", "helper")
        .filter(campaign=campaign, pk=assist_id)
        .first()
    )
    if assist is None:
        raise ServiceError(gettext("That Assist is not at this table."))
    return assist


def _require_open(assist: AssistRequest) -> None:
    if not assist.is_open:
        raise ServiceError(
            gettext("That Assist is already %(state)s.")
            % {"state": assist.get_state_display().lower()}
        )


def _apply_answer(assist: AssistRequest, answer: str) -> None:
    """The GM's answer changes the open Assist (PM-08, PM-10); saved by the caller."""
    State = AssistRequest.State
    if answer == "accept":
        assist.state = State.ACCEPTED
    elif answer == "decline":
        assist.state = State.DECLINED
    elif answer == "call_test":
        assist.state, assist.uncertain, assist.test_passed = State.ACCEPTED, True, None
    else:
        if not (assist.state == State.ACCEPTED and assist.uncertain):
            raise ServiceError(gettext("Call a test from the helper first (PM-10)."))
        assist.test_passed = answer == "test_passed"


def _answer_fields(assist: AssistRequest) -> tuple:
    """What the GM's answer may change (saved by answer_assist)."""
    return (assist.state, assist.uncertain, assist.test_passed, assist.helper_agreed)


def answer_assist(campaign_id: int, actor, assist_id: int, answer: str) -> AssistRequest:
    """The GM answers an Assist (PM-08, PM-10).

    accept / decline; call_test accepts it on condition of a test from the
    helper, whose result the GM then records (test_passed / test_failed): the
    Momentum is spent only if it passed. For an NPC helper the GM's acceptance is
    also the helper's word (PM-08); a player's helper still has to agree
    (answer_as_helper). The helper's own player may decline (withdraw) too. The
    returned request carries the appended event as `.event`.
    """
    if answer in HELPER_ANSWERS:
        return answer_as_helper(campaign_id, actor, assist_id, answer == "agree")
    if answer not in ASSIST_ANSWERS:
        raise ServiceError(gettext("Answer accept, decline, call a test, or record its result."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        assist = _assist_at(campaign, assist_id)
        withdraw = answer == "decline" and can_control(membership, assist.helper)
        if not (membership.is_gm or withdraw):
            raise PermissionDenied(gettext("Only the GM can do that."))
        _require_open(assist)
        before = _answer_fields(assist)
        _apply_answer(assist, answer)
        accepted = assist.state == AssistRequest.State.ACCEPTED
        if accepted and speaks_for_helper(membership, assist.helper):
            assist.helper_agreed = True  # the GM speaks for an NPC (PM-08)
        if _answer_fields(assist) == before:
            # Accepting an accepted Assist, or recording the same result again: no event.
            raise ServiceError(gettext(_SAME_ANSWER[answer]) % {"helper": assist.helper.name})
        assist.save(update_fields=["state", "uncertain", "test_passed", "helper_agreed"])
        assist.event = append_event(
            campaign,
            events.ASSIST_ANSWERED,
            actor,
            _answered_payload(assist, answer, by_gm=membership.is_gm),
        )
        return assist


def _answered_payload(assist: AssistRequest, answer: str, *, by_gm: bool) -> dict:
    who = words(gettext_noop("The GM")) if by_gm else assist.helper.name
    waits = ""
    if assist.state == AssistRequest.State.ACCEPTED and not assist.helper_agreed:
        waits = words(gettext_noop(" %(helper)s's player has yet to agree (PM-08)."),
                      helper=assist.helper.name)  # fmt: skip
    return {
        "assist_id": assist.pk,
        "roller": assist.roller.name,
        "roller_id": assist.roller_id,
        "helper": assist.helper.name,
        "helper_id": assist.helper_id,
        "answer": answer,
        "state": assist.state,
        **said(
            gettext_noop("%(who)s %(answer)s %(helper)s's Assist to %(roller)s.%(waits)s"),
            who=who,
            answer=words(ASSIST_ANSWERS[answer]),
            helper=assist.helper.name,
            roller=assist.roller.name,
            waits=waits,
        ),
    }


def _consent_words(assist: AssistRequest, agree: bool) -> str:
    if not agree:
        return gettext_noop("%(helper)s declines to Assist %(roller)s: nothing spent.")
    if assist.state == AssistRequest.State.ACCEPTED:
        return gettext_noop(
            "%(helper)s agrees to pay 1 Momentum for %(roller)s's Advantage when the "
            "roll uses the Assist (PM-08)."
        )
    return gettext_noop(
        "%(helper)s agrees to pay 1 Momentum for %(roller)s's Advantage when the "
        "roll uses the Assist (PM-08). The GM decides."
    )


def answer_as_helper(campaign_id: int, actor, assist_id: int, agree: bool) -> AssistRequest:
    """The helper's player (the GM for an NPC) agrees to pay for an Assist, or declines
    it (PM-08: the helper *may* pay). Nothing is spent here: the point moves when the
    roll uses the Assist, once the GM has accepted it too. The returned request carries
    the appended event as `.event`."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        assist = _assist_at(campaign, assist_id)
        _require_open(assist)
        helper = assist.helper
        if not speaks_for_helper(membership, helper):
            raise PermissionDenied(
                gettext("Only %(helper)s's player (the GM for an NPC) answers for %(helper)s.")
                % {"helper": helper.name}
            )
        if agree and assist.helper_agreed:
            raise ServiceError(
                gettext("%(helper)s has already agreed to this Assist.") % {"helper": helper.name}
            )
        if agree:
            assist.helper_agreed = True
        else:
            assist.state = AssistRequest.State.DECLINED
        summary = said(_consent_words(assist, agree), helper=helper.name, roller=assist.roller.name)
        assist.save(update_fields=["helper_agreed", "state"])
        assist.event = append_event(
            campaign,
            events.ASSIST_CONSENT,
            actor,
            {
                "assist_id": assist.pk,
                "roller": assist.roller.name,
                "roller_id": assist.roller_id,
                "helper": helper.name,
                "helper_id": helper.pk,
                "agreed": agree,
                "state": assist.state,
                **summary,
            },
        )
        return assist

"""Rolling a 2d20 skill test (T-R1, T-R2, T-03, MO-01, MO-05, MO-08, CT-01, CT-02,
TB-02, TB-03, GL-02, GL-03): roll_d20_test and the event it appends."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules import game_lines
from rules.d20 import roll_test
from tables import events
from tables.errors import refused_by_rules
from tables.models import Campaign, Character, Contest, D20Test, Membership
from tables.models.sheets import prefetch_sheet
from tables.policy.access import audience_of, require_control
from tables.policy.d20_records import fresh_ledger, ledger_view, result_json
from tables.policy.turns import out_of_turn, with_turn
from tables.services import attacks
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    lock_campaign,
    playing_member,
)
from tables.services.d20.checks import require_d20
from tables.services.d20.contests import contest_view, open_contest
from tables.services.d20.loader import D20Rows
from tables.services.d20.pools import buy_dice, determination_before_roll, keep_secret
from tables.services.d20.sheet import D20TestRequest, build_spec
from tables.words.said import said
from tables.words.said import successes as said_successes

# The roller with what the answer draws (the owner on the card); their sheet (T-R1: the
# target comes from it) follows in one more statement (models/sheets.py).
ROLLERS = Character.objects.select_related("owner")


def roll_d20_test(
    campaign_id: int,
    actor,
    character_id: int,
    request: D20TestRequest,
    *,
    rng=None,
    membership: Membership | None = None,
    loaded: D20Rows | None = None,
) -> D20Test:
    """Roll a 2d20 skill test (T-R1, T-R2, T-03, MO-01, MO-05, MO-08, CT-01, CT-02, TB-02, TB-03).

    Bought dice are paid first: `buy_from_momentum` points from the group pool
    (stale-checked against `expected_momentum`), the rest added to Threat; the
    GM pays an NPC's from Threat. A fourth bought die is refused. With
    `contest_id` the Difficulty is the opposer's (CT-01, CT-02) and `factors`
    move it as usual; the test's failure hands the opposer Momentum (CT-04).
    `secret` (GM only) keeps the roll to GMs until revealed (TB-03).
    `rng` (anything with randint) is for tests; play uses the system CSPRNG.
    `membership`: the actor's, if the caller read it under this command's lock
    (services.calls answers a call in the same transaction). `loaded`: load_test's
    rows, read by the caller in its own transaction, still open (the roll view checks
    its composer against them); the test then runs in that transaction, so a refusal
    rolls all of it back. Either way the roller and the sheet are read under the lock,
    so the roll is made from the sheet and pools as they are once every earlier
    command has committed.
    """
    with transaction.atomic(savepoint=loaded is None):
        campaign, membership, held = _locked(campaign_id, actor, membership, loaded)
        require_d20(campaign)
        character = _roller(campaign, membership, character_id, request.secret, held)
        contest = _contest_answered(campaign, character, request)
        spec, test = build_spec(
            campaign, character, request, contest=contest, sees_hidden=membership.is_gm
        )
        spec.update(attacks.target_fields(campaign, character, request.target_id))  # SC-02
        spec["paid"], changes = _pay(campaign, character, membership, request, spec)
        with refused_by_rules():
            result = roll_test(test, rng)  # TB-02: server-side dice
        record = _record(campaign, character, actor, contest, spec, result, request.secret)
        record.event = _announce(campaign, actor, record, changes)
        record.save(update_fields=["event"])
    return record


def _record(campaign, character, actor, contest, spec: dict, result, secret: bool) -> D20Test:
    """The test as rolled, its Momentum ledger opened (the contest's active side's, if
    it answers one)."""
    record = D20Test(
        campaign=campaign,
        character=character,
        actor=actor,
        role=D20Test.Role.ACTIVE if contest else D20Test.Role.TEST,
        contest=contest,
        spec=spec,
        result=result_json(result, spec),
        secret=secret,
    )
    record.ledger = fresh_ledger(record, result)
    record.save()
    return record


def _locked(
    campaign_id: int, actor, membership: Membership | None, loaded: D20Rows | None
) -> tuple[Campaign, Membership, Character | None]:
    """(the locked campaign, the actor's playing membership, the roller if read)."""
    if loaded is None:
        campaign = lock_campaign(campaign_id)
        return campaign, playing_member(campaign, actor, membership), None
    if (loaded.campaign.pk, loaded.membership.user_id) != (campaign_id, actor.pk):
        raise ValueError("rows loaded for another command")
    return loaded.campaign, loaded.membership, loaded.character


def _roller(
    campaign: Campaign, membership: Membership, character_id, secret: bool, held=None
) -> Character:
    """The character rolling, with their sheet, if the member may roll for them so.
    `held`: the roller as the caller read it under this lock (load_test)."""
    if held is not None and held.pk == character_id:
        character = held
    else:
        rollers = with_turn(ROLLERS, campaign.pk)  # the turn mark in the same statement
        character = rollers.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise ServiceError(gettext("That character is not in this campaign."))
    prefetch_sheet(character)
    require_control(
        membership,
        character,
        gettext("%(character)s is not yours to play.") % {"character": character.name},
    )
    if secret and not membership.is_gm:
        raise PermissionDenied(gettext("Only the GM can roll secretly."))
    return character


def _contest_answered(
    campaign: Campaign, character: Character, request: D20TestRequest
) -> Contest | None:
    """The contest this roll answers (CT-01), or None; refused unless it is theirs now."""
    if request.contest_id is None:
        return None
    contest = open_contest(campaign, request.contest_id)
    if contest.state != Contest.State.AWAITING:
        raise ServiceError(
            gettext("%(active)s has already rolled in this contest.")
            % {"active": contest.active.name}
        )
    if contest.active_id != character.pk:
        raise ServiceError(
            gettext("This contest is %(active)s's to roll.") % {"active": contest.active.name}
        )
    if request.secret:
        raise ServiceError(gettext("A contest roll is everyone's business: it cannot be secret."))
    return contest


def _pay(
    campaign: Campaign,
    character: Character,
    membership: Membership,
    request: D20TestRequest,
    spec: dict,
) -> tuple[dict, list[Change]]:
    """What the roll costs before the dice fall: bought dice (MO-08, MO-13), assistants a
    line charges for (GL-06) and the line's Determination (GL-02, GL-03); none of it seen
    if the roll is secret (TB-03)."""
    paid, changes = buy_dice(
        campaign,
        character,
        membership,
        request.bought_dice,
        request.buy_from_momentum,
        request.expected_momentum,
        assistants=len(spec["assistants"]),
    )
    if request.spend_determination:
        changes.append(determination_before_roll(campaign, character))
    keep_secret(
        campaign,
        request.secret,
        changes,
        gettext("Roll it openly, or buy its dice with hidden Threat."),
    )
    return paid, changes


def _announce(campaign: Campaign, actor, record: D20Test, changes: list[Change]):
    """The roll's event (and a contest answered is now rolled); a roll out of turn is
    marked (issue 37)."""
    extra = out_of_turn(record.character)
    if record.contest is not None:
        record.contest.state = Contest.State.ROLLED
        record.contest.save(update_fields=["state"])
        extra["contest"] = contest_view(record.contest)
    return append_event(
        campaign,
        events.D20_TEST,
        actor,
        roll_payload(record, line=campaign.line, **extra),
        audience=audience_of(record),
        changes=changes,
    )


# A whole sentence per case (passed, a focus, Momentum): translations order their own words.
_ROLLED = {
    (True, True, True): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s, focus %(focus)s): "
        "%(successes)s against Difficulty %(difficulty)s, passes, %(n)s %(pool)s."
    ),
    (True, False, True): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s): "
        "%(successes)s against Difficulty %(difficulty)s, passes, %(n)s %(pool)s."
    ),
    (True, True, False): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s, focus %(focus)s): "
        "%(successes)s against Difficulty %(difficulty)s, passes."
    ),
    (True, False, False): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s): "
        "%(successes)s against Difficulty %(difficulty)s, passes."
    ),
    (False, True, False): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s, focus %(focus)s): "
        "%(successes)s against Difficulty %(difficulty)s, fails."
    ),
    (False, False, False): gettext_noop(
        "%(who)s rolls %(attribute)s + %(skill)s (target %(target)s): "
        "%(successes)s against Difficulty %(difficulty)s, fails."
    ),
}


def roll_payload(record: D20Test, *, line=None, **extra) -> dict:
    """The event of a roll (or a reroll): the spec, the dice and what the ledger holds;
    `line` (the campaign's game line) names the pools (GL-01)."""
    line = line or game_lines.LINES[game_lines.DEFAULT]
    spec, result = record.spec, record.result
    character = record.character
    focus = spec["focus_name"]
    momentum = result["momentum"] if result["passed"] else 0
    sentence = said(
        _ROLLED[bool(result["passed"]), bool(focus), bool(momentum)],
        who=character.name, attribute=spec["attribute"], skill=spec["skill"],
        target=spec["target"], focus=focus or "", difficulty=result["difficulty"],
        successes=said_successes(result["successes"]), n=momentum, pool=line.group_pool,
    )  # fmt: skip
    payload = {
        "test_id": record.pk,
        "character_id": character.pk,
        "character": character.name,
        "role": record.role,
        "contest_id": record.contest_id,
        "secret": record.secret,
        "spec": spec,
        "result": result,
        "ledger": ledger_view(record),
        **sentence,
    }
    payload.update(extra)
    return payload

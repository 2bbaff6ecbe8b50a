"""Making a Momenta roll (D6-01..D6-11, PM-02, PM-05..PM-12, PM-R1, RS-01, TB-02,
TB-03) and showing a secret one (reveal_roll).

Dice are rolled here, on the server (TB-02); the random source is injectable for
tests only. A secret roll (TB-03) changes no pool: every member sees every Momentum
and Resolve pool (PM-13), so a move would betray the roll.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.d6 import RollResult, apply_allocation, resolve_roll
from rules.dice import RandomSource, system_random
from rules.errors import RulesError
from rules.personal import advantage_cost
from rules.sentences import english
from tables import events
from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    Membership,
    MomentaRoll,
    RollTemplate,
    TableEvent,
)
from tables.policy.roll_plans import RollPlan, RollRequest, plan_roll
from tables.policy.turns import out_of_turn
from tables.services import attacks
from tables.services.core import Change, ServiceError, append_event, change_pool
from tables.services.momenta.cards import roll_card
from tables.services.momenta.common import check_pool_seen, require_d6, visible_roll
from tables.services.momenta.loader import RollRows, load_roll, templates_of
from tables.services.reveal import reveal
from tables.services.roll_templates import seed_default_templates
from tables.words.said import said, words


def roll_momenta(
    campaign_id: int,
    actor,
    character_id: int,
    request: RollRequest,
    *,
    rng: RandomSource | None = None,
    gm_opposition: bool = False,
    loaded: RollRows | None = None,
) -> MomentaRoll:
    """Make a Momenta roll for a character (D6-01..D6-11, PM-02, PM-05..PM-12, PM-R1,
    RS-01, TB-02, TB-03).

    Advantage is paid (or funded by an accepted Assist) before the dice fall,
    Resolve is spent, the dice are rolled with the system CSPRNG, then the
    Disadvantage gain lands. If no pattern can apply the roll is resolved at
    once; otherwise it waits for the roller's allocation (choose_allocation).
    If the roller's pools moved since the form showed `request.expected_*`, the
    roll still goes through unless a spend is no longer covered (refused, nothing
    happens). Everything it decides from is read under the campaign lock (load_roll):
    the membership, the roller with its sheet, the templates, patterns and Assist.
    `gm_opposition`: the GM set the opposition, and any Disadvantage or edge, when calling
    the test (services/calls.py).
    `loaded`: load_roll's rows, read by the caller in its own transaction, still open
    (the roll view checks its form against them); the roll then runs in that
    transaction, so a refusal rolls all of it back, and nothing is read again.
    """
    with transaction.atomic(savepoint=loaded is None):
        rows = _rows(campaign_id, actor, character_id, loaded)
        campaign, membership = rows.campaign, rows.membership
        require_d6(campaign)
        character = _roller(rows, character_id)
        _check_asked(campaign, membership, request, gm_opposition=gm_opposition)
        _check_roller_saw(character, request)
        plan = _plan(rows, character, request)
        target = attacks.target_fields(campaign, character, request.target_id, kind=request.kind)
        changes = _pay_before_the_roll(campaign, plan)
        result = resolve_roll(plan.spec, rng=rng or system_random())  # TB-02
        changes += _gain_after_the_roll(campaign, plan)
        roll = _record_roll(campaign, actor, plan, result, secret=request.secret)
        roll.card.update(target, **out_of_turn(character))  # SC-02; issue 37's mark
        audience = TableEvent.Audience.GM if request.secret else TableEvent.Audience.ALL
        roll.event = append_event(
            campaign, events.MOMENTA_ROLL, actor, roll.card, audience=audience, changes=changes
        )
        roll.save(update_fields=["card", "event"])
        return roll


def _rows(campaign_id: int, actor, character_id: int, loaded: RollRows | None) -> RollRows:
    """The caller's rows if it read them for this very command, else read under the lock."""
    rows = loaded or load_roll(campaign_id, actor, character_id)
    if (rows.campaign.pk, rows.membership.user_id) != (campaign_id, actor.pk):
        raise ValueError("rows loaded for another command")
    return rows


def _plan(rows: RollRows, character: Character, request: RollRequest) -> RollPlan:
    """The roll decided from the rows read under the lock; a secret one moves nothing."""
    plan = plan_roll(
        rows.campaign,
        character,
        request,
        templates=_seeded(rows.campaign, rows.templates),
        assists=rows.assists,
        sees_hidden=rows.membership.is_gm,
    )
    _check_secret_moves_nothing(plan, request.secret)
    return plan


def _check_asked(
    campaign: Campaign, membership: Membership, request: RollRequest, *, gm_opposition: bool
) -> None:
    """What only the GM may ask of a roll: secrecy (TB-03), the opposition (D6-10),
    and, unless the campaign lets players declare them, GM-called edges."""
    if membership.is_gm:
        return
    if request.secret:
        raise PermissionDenied(gettext("Only the GM can roll in secret."))
    if request.sets_opposition and not gm_opposition:
        raise PermissionDenied(gettext("Only the GM sets the opposition."))
    if not gm_opposition:  # a called test's edges are the GM's call (services/calls.py)
        _check_declared(campaign, request)


def _check_roller_saw(character: Character, request: RollRequest) -> None:
    """The roller's pools as the form showed them still cover what the roll spends."""
    momentum_cost, resolve_cost = _roller_spends(request, character)
    check_pool_seen(character, "momentum", request.expected_momentum, -momentum_cost)
    check_pool_seen(character, "resolve", request.expected_resolve, -resolve_cost)


def _roller(rows: RollRows, character_id: int) -> Character:
    """The roller read under the lock, else why not: not at this table (ServiceError)
    or not the actor's to roll for (PermissionDenied)."""
    if rows.character is not None and rows.character.pk == character_id:
        return rows.character
    if not Character.objects.filter(campaign=rows.campaign, pk=character_id).exists():
        raise ServiceError(gettext("That character is not in this campaign."))
    # load_roll read every character the actor may roll for: this one is not theirs.
    raise PermissionDenied(gettext("That character is not yours."))


def _seeded(campaign: Campaign, templates: tuple[RollTemplate, ...]) -> tuple[RollTemplate, ...]:
    """The campaign's templates; a campaign made outside the services (the admin) gets
    them on this POST, under the lock: drawing the composer never writes."""
    if templates:
        return templates
    seed_default_templates(campaign)
    return templates_of(campaign)


SITUATIONAL = "situational"  # rules.personal.AdvantageSource.SITUATIONAL's value


def _check_declared(campaign: Campaign, request: RollRequest) -> None:
    """A GM-called edge (PM-05) and Disadvantage (PM-02) are the GM's call: a player
    declares them only where the campaign lets them (players_declare_edges)."""
    if campaign.players_declare_edges:
        return
    called = [SITUATIONAL in request.advantage_sources, bool(request.disadvantage)]
    if any(called):
        what = " and ".join(
            w for w, on in zip(("a GM-called edge", "Disadvantage"), called, strict=True) if on
        )
        raise ServiceError(
            gettext(
                "At this table the GM calls %(what)s: ask the GM, who rolls it for your "
                "character. Nothing was rolled or spent."
            )
            % {"what": what}
        )


def _check_secret_moves_nothing(plan: RollPlan, secret: bool) -> None:
    """TB-03 with PM-13: every member sees every pool, so a pool move would betray
    a secret roll."""
    if secret and (plan.settlement.entries or plan.resolve):
        raise ServiceError(
            gettext(
                "A secret roll cannot spend or gain Momentum or Resolve: every member sees "
                "every pool (PM-13). Roll it openly, or without Advantage, Disadvantage, "
                "Assist and Resolve."
            )
        )


def _pay_before_the_roll(campaign: Campaign, plan: RollPlan) -> list[Change]:
    """Advantage is paid (PM-05, PM-08) and Resolve spent (RS-01) before the dice fall."""
    changes = [
        change_pool(
            campaign,
            "momentum",
            entry.delta,
            entry.reason,
            character=plan.payer(entry.holder),
            fresh=True,
            reason_words=entry.reason_words,
        )
        for entry in plan.settlement.payment_entries
    ]
    spent = words(gettext_noop("Spent on %(who)s's %(attribute)s roll (RS-01)"),
                  who=plan.character.name, attribute=plan.attribute.name)  # fmt: skip
    for spender, amount in plan.resolve:
        changes.append(
            change_pool(
                campaign,
                "resolve",
                -amount,
                english(spent),
                character=spender,
                fresh=True,
                reason_words=spent,
            )
        )
    return changes


def _gain_after_the_roll(campaign: Campaign, plan: RollPlan) -> list[Change]:
    """Disadvantage earns its Momentum after the roll (PM-02); PM-04 caps it."""
    return [
        change_pool(
            campaign,
            "momentum",
            entry.delta + entry.lost,
            entry.reason,
            character=plan.character,
            fresh=True,
            reason_words=entry.reason_words,
        )
        for entry in plan.settlement.gain_entries
    ]


def _record_roll(
    campaign: Campaign, actor, plan: RollPlan, result: RollResult, *, secret: bool
) -> MomentaRoll:
    """The roll as stored, with its card. Resolved at once when no pattern can trigger
    (PAT-04, PAT-05), else awaiting the roller's allocation; the Assist is used up
    (PM-08), or failed with its test (PM-10)."""
    applied = None if result.available else apply_allocation(result, ())
    if plan.assist is not None:
        landed = plan.settlement.assist_landed
        plan.assist.state = AssistRequest.State.USED if landed else AssistRequest.State.FAILED
        plan.assist.save(update_fields=["state"])
    roll = MomentaRoll.objects.create(
        campaign=campaign,
        character=plan.character,
        actor=actor,
        assist=plan.assist,
        spec=plan.spec.to_dict(),
        result=result.to_dict(),
        applied=applied.to_dict() if applied else None,
        state=MomentaRoll.State.RESOLVED if applied else MomentaRoll.State.AWAITING_ALLOCATION,
        secret=bool(secret),
    )
    roll.card = roll_card(campaign, roll, plan, result, applied)
    return roll


def _roller_spends(request: RollRequest, character: Character) -> tuple[int, int]:
    """(Momentum, Resolve) the roller means to pay: the Advantage they chose (PM-05;
    Disadvantage cancels it, PM-11; an Assist funds it only if the roller cannot, PM-08)
    and their own Resolve."""
    momentum = 0
    if request.advantage_sources and not request.disadvantage:
        try:
            momentum = advantage_cost(request.advantage_sources)[1]
        except RulesError:
            momentum = 0  # plan_roll words the refusal
    resolve = sum(n for who, n in request.resolve_spend if who == character.pk)
    return momentum, resolve


def reveal_roll(campaign_id: int, actor, roll_id: int) -> TableEvent:
    """TB-03: the GM shows a secret roll to everyone; its later events reach all."""

    def announce(roll: MomentaRoll) -> dict:
        roll.card = dict(roll.card, revealed=True)
        return dict(
            roll.card,
            revealed_seq=roll.event.seq if roll.event else None,
            **said(
                gettext_noop("The GM reveals a secret roll: %(card)s"),
                card=roll.card.get("summary", ""),
            ),
        )

    return reveal(
        campaign_id,
        actor,
        lambda campaign, membership: visible_roll(campaign, membership, roll_id),
        announce,
        also_save=("card",),
        event_field="reveal_event",
    )

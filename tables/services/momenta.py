"""Momenta play commands: rolls, patterns, Assists, trauma, templates and patterns.

Same shape as services.py: one function per command a person can give. Each
opens a transaction, locks the campaign row, checks who may do it, lets rules/
decide, changes pools only through change_pool (one ledger line each, with its
reason, PM-13) and appends one TableEvent. Dice are rolled here, on the server
(TB-02); the random source is injectable for tests only.

A secret roll (TB-03) changes no pool: every member sees every Momentum and
Resolve pool (PM-13), so a move would betray the roll. The 2d20 side keeps
the same rule for the pools players see (services_d20).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction

from rules.d6 import (
    AppliedRoll,
    IllegalRefund,
    InvalidRoll,
    RollResult,
    RollSpec,
    apply_allocation,
    resolve_roll,
)
from rules.dice import RandomSource, system_random
from rules.errors import RulesError
from rules.patterns import (
    BUILTIN_PATTERNS,
    ROLL_KINDS,
    IllegalAllocation,
    InvalidPattern,
    Pattern,
)
from rules.personal import (
    AssistOffer,
    PersonalMomentum,
    PersonalMomentumError,
    RollMomentum,
    advantage_cost,
    settle_roll_momentum,
    suffer_trauma,
)
from rules.templates import InvalidTemplate
from rules.templates import RollTemplate as RulesTemplate
from tables import events
from tables.models import (
    AssistRequest,
    Attribute,
    Campaign,
    Character,
    CustomPattern,
    Membership,
    MomentaRoll,
    RollTemplate,
    TableEvent,
    Trait,
)
from tables.models.limits import MAX_MODIFIER, MAX_MODIFIERS, MAX_POOL, MAX_TRAUMA
from tables.services.access import audience_of, can_control, has_role, require_control, seen_by
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    change_pool,
    character_in,
    character_under_lock,
    check_seen,
    lock_campaign,
    playing_member,
    require_gm,
    require_playing,
)
from tables.services.named import campaign_record, delete_named
from tables.services.reveal import reveal
from tables.services.roll_templates import seed_default_templates
from tables.services.sheets import prefetch_sheet

_ALL = TableEvent.Audience.ALL
_GM = TableEvent.Audience.GM


# --- Roll templates and custom patterns -----------------------------------------


def active_patterns(campaign: Campaign) -> tuple[Pattern, ...]:
    """The three patterns every character has (PAT-06..PAT-08) and the GM's active ones."""
    custom = CustomPattern.objects.filter(campaign=campaign, active=True).order_by("name")
    return BUILTIN_PATTERNS + tuple(Pattern.from_dict(p.data) for p in custom)


def _edited(model, campaign: Campaign, record_id: int | None, name: str, what: str):
    """The campaign's record being edited (None: a new one), once no other record of
    the campaign has that name, case aside. `what` names the model in messages."""
    record = None
    if record_id is not None:
        record = campaign_record(
            model, campaign, record_id, f"That {what} is not in this campaign."
        )
    clash = model.objects.filter(campaign=campaign, name__iexact=name)
    if record is not None:
        clash = clash.exclude(pk=record.pk)
    if clash.exists():
        raise ServiceError(f"This campaign already has a {what} named {name}.")
    return record


def save_roll_template(
    campaign_id: int,
    actor,
    data: dict,
    *,
    template_id: int | None = None,
    campaign_labels: bool = False,
) -> TableEvent:
    """The GM creates or edits a roll template: band texts, overflow, damage (D6-04, D6-05).

    `data` is what rules.templates.RollTemplate.from_dict takes; the rules
    refuse what does not make sense, with a message for the GM.
    """
    try:
        template = RulesTemplate.from_dict(dict(data))
    except InvalidTemplate as error:
        raise ServiceError(str(error)) from None
    name = template.name.strip()
    if not name:
        raise ServiceError("Give the template a name.")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        _require_d6(campaign)
        seed_default_templates(campaign)
        record = _edited(RollTemplate, campaign, template_id, name, "roll template")
        creating = record is None
        if creating:
            last = RollTemplate.objects.filter(campaign=campaign).count()
            record = RollTemplate(campaign=campaign, position=last)
        record.name = name
        record.data = template.to_dict() | {"name": name}
        record.campaign_labels = campaign_labels
        record.save()
        return append_event(
            campaign,
            events.ROLL_TEMPLATE_SAVED,
            actor,
            {
                "template_id": record.pk,
                "name": name,
                "created": creating,
                "summary": f"Roll template {name} {'added' if creating else 'changed'}.",
            },
        )


def delete_roll_template(campaign_id: int, actor, template_id: int) -> TableEvent:
    """The GM removes a roll template; rolls made with it keep their copy."""

    def keep_one(campaign):
        if RollTemplate.objects.filter(campaign=campaign).count() == 1:
            raise ServiceError("Keep at least one roll template.")

    return delete_named(
        campaign_id,
        actor,
        RollTemplate,
        template_id,
        kind=events.ROLL_TEMPLATE_DELETED,
        missing="That roll template is not in this campaign.",
        summary=lambda name: f"Roll template {name} removed.",
        check=keep_one,
    )


def save_custom_pattern(
    campaign_id: int, actor, data: dict, *, pattern_id: int | None = None, active: bool = True
) -> TableEvent:
    """The GM defines a pattern (PAT-01..PAT-04): its kind, effect and the rolls it applies to.

    Names are unique per campaign, built-ins included, so an allocation names
    one pattern only.
    """
    try:
        pattern = Pattern.from_dict(dict(data))
    except InvalidPattern as error:
        raise ServiceError(str(error)) from None
    name = pattern.name.strip()
    if any(p.name.casefold() == name.casefold() for p in BUILTIN_PATTERNS):
        raise ServiceError(f"{name} is a pattern every character has; choose another name.")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        _require_d6(campaign)
        record = _edited(CustomPattern, campaign, pattern_id, name, "pattern")
        creating = record is None
        record = record or CustomPattern(campaign=campaign)
        record.name = name
        record.data = pattern.to_dict() | {"name": name}
        record.active = active
        record.save()
        state = "" if active else " (inactive)"
        return append_event(
            campaign,
            events.CUSTOM_PATTERN_SAVED,
            actor,
            {
                "pattern_id": record.pk,
                "name": name,
                "active": active,
                "summary": f"Pattern {name}{state} {'added' if creating else 'changed'}: "
                f"{pattern.description or pattern.effect}",
            },
        )


# --- Planning a roll ----------------------------------------------------------------


@dataclass(frozen=True)
class RollRequest:
    """What a person asks of a roll, as plain values (D6-06..D6-11, PM-05..PM-12,
    RS-01, TB-03): the views build it from the composer's form, plan_roll (and so
    the odds preview) and roll_momenta read it.

    `resolve_spend` is ((character id, points), ...); `expected_*` are the
    roller's pools as the form showed them (None: not checked).
    """

    attribute: str
    kind: str = "action"
    modifiers: tuple[int, ...] = ()
    thread: int | None = None
    play: str = "narrative"
    template_id: int | None = None
    advantage_sources: tuple[str, ...] = ()
    disadvantage: bool = False
    assist_id: int | None = None
    resolve_spend: tuple[tuple[int, int], ...] = ()
    opposition_successes: int | None = None
    opposition_pool: int | None = None
    secret: bool = False
    expected_momentum: int | None = None
    expected_resolve: int | None = None

    def __post_init__(self):
        # Lists from forms and tests become tuples, so a request cannot change later.
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "advantage_sources", tuple(map(str, self.advantage_sources)))
        object.__setattr__(self, "resolve_spend", tuple(map(tuple, self.resolve_spend)))

    @property
    def sets_opposition(self) -> bool:
        return self.opposition_successes is not None or self.opposition_pool is not None


@dataclass(frozen=True)
class RollPlan:
    """Everything decided before the dice fall: the spec and who pays what."""

    character: Character
    attribute: Attribute
    thread: Trait | None
    template: RollTemplate
    assist: AssistRequest | None
    helper: Character | None
    settlement: RollMomentum
    resolve: tuple[tuple[Character, int], ...]
    spec: RollSpec
    sources: tuple[str, ...] = ()

    def payer(self, holder: str | None) -> Character:
        if self.helper is not None and holder == self.helper.name:
            return self.helper
        return self.character


def plan_roll(
    campaign: Campaign,
    character: Character,
    request: RollRequest,
    *,
    templates: Sequence[RollTemplate] | None = None,
) -> RollPlan:
    """Decide a roll before it is made, without changing anything (D6-06..D6-11,
    PM-05..PM-12, PM-R1, RS-01). The odds preview uses it as it is; roll_momenta
    uses it under the lock. Refusals are ServiceErrors a player can read.

    The character's attributes and traits are read through `.all()`, so a caller
    that prefetched them (roll_sheet) pays no query here; `templates` likewise."""
    attribute, kind = _attribute_and_kind(character, request)
    _check_modifiers(request.modifiers)
    thread = _thread(character, request.thread)
    if templates is None:
        templates = list(RollTemplate.objects.filter(campaign=campaign))
    template = _template(templates, request.template_id, kind)
    assist = _accepted_assist(campaign, character, request.assist_id)
    helper = assist.helper if assist is not None else None
    settlement = _settle(character, assist, request)
    # RS-01: an ally whose help landed on this roll may spend Resolve; one whose
    # called test failed (PM-10) helped nothing.
    resolve = _resolve_spenders(
        character,
        helper if settlement.assist_landed else None,
        request.resolve_spend,
        kind=kind,
        play=request.play,
    )
    spec = _spec(
        campaign,
        request,
        kind=kind,
        attribute=attribute,
        thread=thread,
        template=template,
        settlement=settlement,
        resolve=resolve,
    )
    return RollPlan(
        character=character,
        attribute=attribute,
        thread=thread,
        template=template,
        assist=assist,
        helper=helper,
        settlement=settlement,
        resolve=resolve,
        spec=spec,
        sources=tuple(dict.fromkeys(request.advantage_sources)),
    )


def _attribute_and_kind(character: Character, request: RollRequest) -> tuple[Attribute, str]:
    """The attribute rolled and the kind of roll it makes (D6-11: LUCK, and only LUCK,
    makes a luck roll, a straight roll with nothing added)."""
    name = (request.attribute or "").strip().casefold()
    attribute = next((a for a in character.attributes.all() if a.name.casefold() == name), None)
    if attribute is None:
        raise ServiceError(f"{character.name} has no attribute called {request.attribute!r}.")
    kind = request.kind
    if attribute.is_luck:
        if kind == "attack":
            # An attack asked of LUCK is a mistake to say, not a luck roll to make quietly.
            raise ServiceError(
                "LUCK makes luck rolls only, never an attack (D6-11): attack with another "
                "attribute, or roll LUCK as a luck roll."
            )
        kind = "luck"
    elif kind == "luck":
        raise ServiceError("A luck roll uses the LUCK attribute (D6-11).")
    if kind not in ROLL_KINDS:
        raise ServiceError("Choose an action roll, an attack or a luck roll.")
    extras = (
        any(request.modifiers),
        request.thread,
        request.advantage_sources,
        request.disadvantage,
        request.assist_id,
    )
    if kind == "luck" and any(extras):
        raise ServiceError(
            "A luck roll is a straight roll of LUCK: no modifiers, Thread, Advantage, "
            "Disadvantage or Assist (D6-11)."
        )
    return attribute, kind


def _check_modifiers(modifiers: tuple[int, ...]) -> None:
    """Dice modifiers (D6-06) within the table's limits; the form refuses them first."""
    fits = all(
        isinstance(m, int) and not isinstance(m, bool) and abs(m) <= MAX_MODIFIER for m in modifiers
    )
    if len(modifiers) > MAX_MODIFIERS or not fits:
        raise ServiceError(
            f"At most {MAX_MODIFIERS} modifiers, each of at most {MAX_MODIFIER} dice."
        )


def _thread(character: Character, thread_id: int | None) -> Trait | None:
    """The Thread invoked for +2d (D6-06), one of the roller's own."""
    if not thread_id:
        return None
    trait = next(
        (t for t in character.traits.all() if t.pk == thread_id and t.kind == Trait.Kind.THREAD),
        None,
    )
    if trait is None:
        raise ServiceError(f"That Thread is not one of {character.name}'s.")
    return trait


def _accepted_assist(
    campaign: Campaign, character: Character, assist_id: int | None
) -> AssistRequest | None:
    """The Assist the roll uses: offered to this roller and accepted by the GM (PM-08);
    the rules then ask that the helper agreed (PM-08) and any test was rolled (PM-10)."""
    if not assist_id:
        return None
    assist = (
        AssistRequest.objects.select_related("helper__owner")  # the card names the owner
        .filter(campaign=campaign, pk=assist_id, roller=character)
        .first()
    )
    if assist is None:
        raise ServiceError(f"That Assist is not one offered to {character.name}.")
    if assist.state != AssistRequest.State.ACCEPTED:
        raise ServiceError(
            f"{assist.helper.name}'s Assist is {assist.get_state_display().lower()}: "
            "only an Assist the GM accepted can be used (PM-08)."
        )
    return assist


def _settle(
    character: Character, assist: AssistRequest | None, request: RollRequest
) -> RollMomentum:
    """Who pays for Advantage and gains from Disadvantage (PM-02, PM-05..PM-12)."""
    offers = ()
    if assist is not None:
        offers = (
            AssistOffer(
                helper=PersonalMomentum(assist.helper.momentum, assist.helper.name),
                gm_accepted=True,
                helper_agreed=assist.helper_agreed,
                # PM-09: the roll's play mode decides, not how the Assist was asked for.
                structured_time=request.play == "structured",
                test_called=assist.uncertain,
                test_passed=assist.test_passed,
            ),
        )
    try:
        return settle_roll_momentum(
            PersonalMomentum(character.momentum, character.name),
            advantage_sources=list(request.advantage_sources),
            disadvantage=bool(request.disadvantage),
            assists=offers,
            creation=character.in_creation,
        )
    except PersonalMomentumError as error:
        raise ServiceError(str(error)) from None


def _spec(
    campaign: Campaign,
    request: RollRequest,
    *,
    kind: str,
    attribute: Attribute,
    thread: Trait | None,
    template: RollTemplate,
    settlement: RollMomentum,
    resolve: tuple[tuple[Character, int], ...],
) -> RollSpec:
    """The pool the rules roll, within the table's limit of dice (D6-06..D6-10)."""
    # PM-R1: Advantage adds the campaign's advantage dice, Disadvantage removes its
    # disadvantage dice; after PM-11 at most one of them is left.
    dice = campaign.disadvantage_dice if settlement.disadvantage else campaign.advantage_dice
    try:
        spec = RollSpec(
            attribute=attribute.value,
            kind=kind,
            modifiers=request.modifiers,
            threads=1 if thread else 0,
            play=request.play,
            advantage=settlement.advantage,
            disadvantage=settlement.disadvantage,
            advantage_dice=dice,
            opposition_successes=request.opposition_successes,
            opposition_pool=request.opposition_pool,
            resolve_spent=tuple((c.pk, n) for c, n in resolve),
            template=template.to_rules(campaign),
            patterns=active_patterns(campaign),
            stack_extra_success=campaign.extra_success_stacks,
        )
    except (InvalidRoll, InvalidPattern, InvalidTemplate) as error:
        raise ServiceError(str(error)) from None
    if spec.pool > MAX_POOL or spec.opposition_dice_rolled > MAX_POOL:
        raise ServiceError(f"A pool holds at most {MAX_POOL} dice.")
    return spec


def _template(
    templates: Sequence[RollTemplate], template_id: int | None, kind: str
) -> RollTemplate:
    """The template chosen, else the first that fits the kind of roll (D6-04);
    `templates` are the campaign's, in their order."""
    if template_id:
        template = next((t for t in templates if t.pk == template_id), None)
        if template is None:
            raise ServiceError("That roll template is not in this campaign.")
        return template
    for template in templates:
        if template.deals_harm == (kind == "attack"):
            return template
    if not templates:
        raise ServiceError("This campaign has no roll templates yet.")
    return templates[0]


def _resolve_spenders(
    roller: Character,
    helper: Character | None,
    resolve_spend: Iterable[tuple[int, int]],
    *,
    kind: str,
    play: str,
) -> tuple[tuple[Character, int], ...]:
    """RS-01: the roller and the assisting ally may spend Resolve on a narrative action roll.

    `helper` is the ally whose help landed on this roll (None if none did)."""
    wanted: dict[int, int] = {}
    for character_id, amount in resolve_spend:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ServiceError("Resolve is spent in whole points, 0 or more.")
        if amount:
            wanted[int(character_id)] = wanted.get(int(character_id), 0) + amount
    if not wanted:
        return ()
    if kind != "action" or play != "narrative":
        raise ServiceError("Resolve is spent on narrative action rolls only (RS-01).")
    allowed = {roller.pk: roller}
    if helper is not None:
        allowed[helper.pk] = helper
    out = []
    for character_id, amount in wanted.items():
        spender = allowed.get(character_id)
        if spender is None:
            raise ServiceError(
                "Only the roller and an ally whose Assist landed on this roll can spend "
                "Resolve on it (RS-01)."
            )
        # Both were read in this command (under the lock, when rolling).
        current = spender.resolve
        if amount > current:
            raise ServiceError(
                f"{spender.name} has {current} Resolve and cannot spend {amount}. "
                "Nothing was rolled or spent."
            )
        out.append((spender, amount))
    return tuple(out)


# --- Rolling ------------------------------------------------------------------------


@dataclass(frozen=True)
class RollSheet:
    """What a roll reads besides the pools, once per command: the roller with its
    attributes and traits prefetched, and the campaign's roll templates in order.
    The view reads it for the form and hands it to roll_momenta, which then reads
    only what a concurrent command can change (the pools, the Assist) under the lock."""

    character: Character
    templates: tuple[RollTemplate, ...]
    # The campaign's last_seq read before the character (core.character_under_lock).
    seen_seq: int | None = None


def roll_sheet(campaign: Campaign, character: Character, seen_seq: int | None = None) -> RollSheet:
    """The sheet of `character` (a character of `campaign`): two queries. `seen_seq`:
    the campaign's last_seq, if it was read before `character` (RollSheet)."""
    prefetch_sheet(character, ("attributes", "traits"))
    templates = tuple(RollTemplate.objects.filter(campaign=campaign))
    return RollSheet(character, templates, seen_seq)


def roll_momenta(
    campaign_id: int,
    actor,
    character_id: int,
    request: RollRequest,
    *,
    rng: RandomSource | None = None,
    membership: Membership | None = None,
    sheet: RollSheet | None = None,
    gm_opposition: bool = False,
) -> MomentaRoll:
    """Make a Momenta roll for a character (D6-01..D6-11, PM-02, PM-05..PM-12, PM-R1,
    RS-01, TB-02, TB-03).

    Advantage is paid (or funded by an accepted Assist) before the dice fall,
    Resolve is spent, the dice are rolled with the system CSPRNG, then the
    Disadvantage gain lands. If no pattern can apply the roll is resolved at
    once; otherwise it waits for the roller's allocation (choose_allocation).
    If the roller's pools moved since the form showed `request.expected_*`, the
    roll still goes through unless a spend is no longer covered (refused, nothing
    happens).

    `membership` and `sheet`, if the caller read them for this command, are not
    read again: only the roller's pools are, under the lock (RollSheet).
    """
    with transaction.atomic():
        campaign, membership, character = _lock_for_play(
            campaign_id,
            actor,
            character_id,
            membership=membership,
            character=sheet.character if sheet is not None else None,
            seen_seq=sheet.seen_seq if sheet is not None else None,
        )
        if not membership.is_gm:
            if request.secret:
                raise PermissionDenied("Only the GM can roll in secret.")
            # gm_opposition: the GM set it when calling the test (services/calls.py).
            if request.sets_opposition and not gm_opposition:
                raise PermissionDenied("Only the GM sets the opposition.")
            _check_declared(campaign, request)
        momentum_cost, resolve_cost = _roller_spends(request, character)
        _check_seen(character, "momentum", request.expected_momentum, -momentum_cost)
        _check_seen(character, "resolve", request.expected_resolve, -resolve_cost)
        # A campaign made outside the services (the admin) gets its templates on this
        # POST, under the lock: drawing the composer never writes.
        templates = sheet.templates if sheet is not None else _templates(campaign)
        if not templates:
            seed_default_templates(campaign)
            templates = _templates(campaign)
        plan = plan_roll(campaign, character, request, templates=templates)
        _check_secret_moves_nothing(plan, request.secret)
        changes = _pay_before_the_roll(campaign, plan)
        result = resolve_roll(plan.spec, rng=rng or system_random())  # TB-02
        changes += _gain_after_the_roll(campaign, plan)
        roll = _record_roll(campaign, actor, plan, result, secret=request.secret)
        roll.event = append_event(
            campaign,
            events.MOMENTA_ROLL,
            actor,
            roll.card,
            audience=_GM if request.secret else _ALL,
            changes=changes,
        )
        roll.save(update_fields=["card", "event"])
        return roll


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
            f"At this table the GM calls {what}: ask the GM, who rolls it for your "
            "character. Nothing was rolled or spent."
        )


def _check_secret_moves_nothing(plan: RollPlan, secret: bool) -> None:
    """TB-03 with PM-13: every member sees every pool, so a pool move would betray
    a secret roll."""
    if secret and (plan.settlement.entries or plan.resolve):
        raise ServiceError(
            "A secret roll cannot spend or gain Momentum or Resolve: every member sees "
            "every pool (PM-13). Roll it openly, or without Advantage, Disadvantage, "
            "Assist and Resolve."
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
        )
        for entry in plan.settlement.payment_entries
    ]
    roll_name = f"{plan.character.name}'s {plan.attribute.name} roll"
    for spender, amount in plan.resolve:
        changes.append(
            change_pool(
                campaign,
                "resolve",
                -amount,
                f"Spent on {roll_name} (RS-01)",
                character=spender,
                fresh=True,
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
    roll.card = _card(campaign, roll, plan, result, applied)
    return roll


# The roll card is data: the event payload and MomentaRoll.card hold numbers, names
# and the rules' own texts; tables/presenters/momenta_card.py puts them into words.


def _card(
    campaign: Campaign,
    roll: MomentaRoll,
    plan: RollPlan,
    result: RollResult,
    applied: AppliedRoll | None,
) -> dict:
    """What the roll card shows (the event payload)."""
    spec = plan.spec
    return {
        "system": "momenta",
        "roll_id": roll.pk,
        "character_id": plan.character.pk,
        "character": plan.character.name,
        "attribute": plan.attribute.name,
        "attribute_dice": plan.attribute.value,
        "kind": spec.kind,
        "play": spec.play,
        "template": plan.template.name,
        "harm": spec.template.harm,
        "pool": spec.pool,
        "modifiers": list(spec.modifiers),
        "thread": plan.thread.text if plan.thread else None,
        "advantage_dice": spec.advantage_dice,
        "zero_dice": spec.zero_dice,
        "advantage": spec.advantage,
        "disadvantage": spec.disadvantage,
        **_settlement_data(plan),
        **_dice_data(result),
        "secret": roll.secret,
        "state": str(roll.state),
        "applied": _applied_data(applied, campaign) if applied else None,
        "summary": f"{plan.character.name}: {result.outcome}",
    }


def _settlement_data(plan: RollPlan) -> dict:
    """Who paid for Advantage, who gained, and why (PM-02, PM-05..PM-12, RS-01)."""
    s = plan.settlement
    return {
        "cancelled": s.cancelled,
        "creation": s.creation,
        "advantage_sources": list(plan.sources),
        "advantage_source": s.advantage_source.value if s.advantage_source else None,
        "paid": s.paid,
        "paid_by": s.paid_by,
        "assisted": s.assisted,
        "assist_failed": s.assist_failed,
        "assist_landed": s.assist_landed,
        "assist_uses_action": s.assist_uses_action,
        "advantage_refused": s.advantage_refused,
        "gain_after_roll": s.gain_after_roll,
        "helper": plan.helper.name if plan.helper else None,
        "resolve_spent": [
            {"character_id": c.pk, "character": c.name, "amount": n} for c, n in plan.resolve
        ],
    }


def _dice_data(result: RollResult) -> dict:
    """The faces and what they came to (D6-01..D6-10)."""
    spec = result.spec
    return {
        "faces": list(result.faces),
        "kept": list(result.kept),
        "successes": result.successes,
        "opposition_pool": spec.opposition_pool,
        "opposition_given": spec.opposition_successes,
        "opposition_faces": list(result.opposition_faces),
        "opposition_successes": result.opposition_successes,
        "effective_successes": result.effective_successes,
        "band": result.band,
        "outcome": result.outcome,
        "overflow": result.overflow,
        "overflow_effect": result.overflow_effect,
        "damage": result.damage,
    }


def _applied_data(applied: AppliedRoll, campaign: Campaign) -> dict:
    """The allocation's effects (PAT-02..PAT-09): each triggered pattern as its name,
    kind and face; the Resolve given back, by whom."""
    names = dict(
        Character.objects.filter(
            campaign=campaign, pk__in=[who for who, _ in applied.refunds]
        ).values_list("pk", "name")
    )
    return {
        "allocation": [list(a) for a in applied.allocation],
        "triggered": [{"name": t.name, "kind": t.kind, "face": t.face} for t in applied.triggered],
        "band": applied.band,
        "outcome": applied.outcome,
        "upgrade_steps": applied.upgrade_steps,
        "damage": applied.damage,
        "damage_bonus": applied.damage_bonus,
        "refunds": [
            {"character_id": who, "character": names.get(who, str(who)), "amount": n}
            for who, n in applied.refunds
        ],
        "texts": list(applied.texts),
    }


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


def _check_seen(character: Character, pool: str, expected: int | None, delta: int) -> None:
    """The form showed `expected`; a move since refuses only if it matters to a change
    of `delta` (core.check_seen): e.g. an Advantage the roller can no longer pay, which
    the rules would quietly drop (PM-07). `character` was read under the lock."""
    if expected is None:
        return
    label = "Momentum" if pool == "momentum" else "Resolve"
    check_seen(
        pool,
        getattr(character, pool),
        expected,
        delta,
        own_cap=character.resolve_max if pool == "resolve" else None,
        label=f"{character.name}'s {label}",
    )


def _require_d6(campaign: Campaign) -> None:
    if not campaign.uses_d6:
        raise ServiceError("This campaign rolls 2d20 skill tests, not Momenta dice pools.")


# What a concurrent command may change on a character read before the lock.
_FRESH_FIELDS = ("name", "owner", "in_creation", "momentum", "resolve", "resolve_max")


def _lock_for_play(
    campaign_id: int,
    actor,
    character_id: int,
    *,
    membership: Membership | None = None,
    character: Character | None = None,
    seen_seq: int | None = None,
):
    """Inside a transaction: the locked d6 campaign, the actor's playing membership and
    the character, which the actor must control -> (campaign, membership, character).

    A `membership` the caller read for this command is not read again (a role change
    committing meanwhile is as if it came just after). A `character` read before the
    lock (with its sheet) gets its pools read again under the lock, once, unless no
    command has committed since (`seen_seq`, core.character_under_lock)."""
    campaign = lock_campaign(campaign_id)
    membership = playing_member(campaign, actor, membership)
    _require_d6(campaign)
    character = character_under_lock(
        campaign, character_id, character, _FRESH_FIELDS, seen_seq=seen_seq
    )
    require_control(membership, character)
    return campaign, membership, character


def _templates(campaign: Campaign) -> tuple[RollTemplate, ...]:
    return tuple(RollTemplate.objects.filter(campaign=campaign))


# --- After the roll -----------------------------------------------------------------


def result_of(roll: MomentaRoll) -> RollResult:
    """The stored roll, read again from its own faces (deterministic)."""
    spec = RollSpec.from_dict(roll.spec)
    opposition = roll.result.get("opposition_faces") if spec.opposition_pool is not None else None
    return resolve_roll(spec, faces=roll.result["faces"], opposition_faces=opposition)


def _roll(campaign: Campaign, membership: Membership, roll_id) -> MomentaRoll:
    """A roll of this campaign the member may see (TB-03: hidden ones are GM-only)."""
    rolls = MomentaRoll.objects.select_related("character", "event").filter(campaign=campaign)
    roll = seen_by(membership, rolls).filter(pk=roll_id).first()
    if roll is None:
        raise ServiceError("That roll is not at this table.")
    return roll


def choose_allocation(
    campaign_id: int,
    actor,
    roll_id: int,
    allocation: Sequence[Sequence] | None,
    refund_to: Sequence[int] | None = None,
) -> TableEvent:
    """The roller allocates dice to patterns and their effects apply (PAT-02..PAT-09,
    PAT-R1, RS-01).

    `allocation` is a list of (pattern name, face), [] for none, None for the
    pre-selected best (PAT-09). Effortless gives spent Resolve back (PAT-08):
    `refund_to` names whose, one character id per point (default: in the order
    it was spent).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        roll = _roll(campaign, membership, roll_id)
        require_control(membership, roll.character, "Only the roller chooses the patterns.")
        # Checked under the lock: a double click applies the patterns (and
        # refunds Resolve) once, the second sees the roll resolved.
        if not roll.awaiting:
            raise ServiceError("The patterns of that roll are already chosen.")
        result = result_of(roll)
        applied = _apply(result, allocation, refund_to)
        changes = [
            change_pool(
                campaign,
                "resolve",
                amount,
                f"Effortless on {roll.character.name}'s roll: spent Resolve back (PAT-08)",
                character=character_in(campaign, character_id),
            )
            for character_id, amount in applied.refunds
        ]
        roll.applied = applied.to_dict()
        roll.state = MomentaRoll.State.RESOLVED
        data = _applied_data(applied, campaign)
        roll.card = dict(roll.card, applied=data, state=str(roll.state))
        triggered = ", ".join(f"{t.label} ({t.name})" for t in applied.triggered) or "no pattern"
        roll.patterns_event = append_event(
            campaign,
            events.MOMENTA_PATTERNS,
            actor,
            {
                "system": "momenta",
                "roll_id": roll.pk,
                "roll_seq": roll.event.seq if roll.event else None,
                "character_id": roll.character_id,
                "character": roll.character.name,
                "applied": data,
                "overflow": result.overflow,
                "overflow_effect": result.overflow_effect,
                "harm": result.spec.template.harm,
                "summary": f"{roll.character.name}: {triggered}; {applied.outcome}",
            },
            audience=audience_of(roll),
            changes=changes,
        )
        roll.save(update_fields=["applied", "state", "card", "patterns_event"])
        return roll.patterns_event


def _apply(
    result: RollResult, allocation: Sequence[Sequence] | None, refund_to: Sequence[int] | None
) -> AppliedRoll:
    """The allocation applied (PAT-02..PAT-09), Effortless's refunds sent where asked
    (PAT-08): only to those who spent Resolve on the roll."""
    spent = {who for who, _ in result.spec.resolve_spent}
    for who in refund_to or ():
        if who not in spent:
            name = Character.objects.filter(pk=who).values_list("name", flat=True).first()
            raise ServiceError(f"{name or 'That character'} spent no Resolve on this roll.")
    try:
        if allocation is not None:
            allocation = [(str(name), int(face)) for name, face in allocation]
        applied = apply_allocation(result, allocation)
        points = sum(n for _, n in applied.refunds)
        if refund_to and points:
            refund_to = [int(c) for c in refund_to][:points]
            applied = apply_allocation(result, allocation, refund_to=refund_to)
    except (IllegalAllocation, IllegalRefund) as error:
        raise ServiceError(str(error)) from None
    except (TypeError, ValueError):
        raise ServiceError("Choose one of the listed allocations.") from None
    return applied


def reveal_roll(campaign_id: int, actor, roll_id: int) -> TableEvent:
    """TB-03: the GM shows a secret roll to everyone; its later events reach all."""

    def announce(roll: MomentaRoll) -> dict:
        roll.card = dict(roll.card, revealed=True)
        return dict(
            roll.card,
            revealed_seq=roll.event.seq if roll.event else None,
            summary=f"The GM reveals a secret roll: {roll.card.get('summary', '')}",
        )

    return reveal(
        campaign_id,
        actor,
        lambda campaign, membership: _roll(campaign, membership, roll_id),
        announce,
        also_save=("card",),
        event_field="reveal_event",
    )


# --- Assists ------------------------------------------------------------------------
# PM-08: the helper *may* pay, and the GM must accept. Two answers, in either order:
# the helper's own (their player, or the GM for an NPC: answer_as_helper) and the GM's
# (answer_assist). Only with both can a roll use the Assist and spend the helper's point.


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
        _require_d6(campaign)
        roller = character_in(campaign, roller_id)
        helper = character_in(campaign, helper_id)
        if not (can_control(membership, roller) or can_control(membership, helper)):
            raise PermissionDenied("Ask for help for your own character, or offer your own.")
        if roller.pk == helper.pk:
            raise ServiceError("An Assist comes from another character, not the roller (PM-08).")
        if roller.in_creation or helper.in_creation:
            raise ServiceError("No Assists during character creation (PM-12).")
        if AssistRequest.objects.filter(
            campaign=campaign,
            roller=roller,
            state__in=[AssistRequest.State.REQUESTED, AssistRequest.State.ACCEPTED],
        ).exists():
            raise ServiceError(
                f"{roller.name} already has an Assist open: one Assist per roll (PM-08)."
            )
        agreed = speaks_for_helper(membership, helper)
        assist = AssistRequest.objects.create(
            campaign=campaign,
            roller=roller,
            helper=helper,
            requested_by=actor,
            structured=bool(structured),
            helper_agreed=agreed,
        )
        when = " in structured time: it will be the helper's action (PM-09)" if structured else ""
        waits = "The GM decides." if agreed else f"{helper.name}'s player and the GM decide."
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
                "summary": f"{helper.name} would Assist {roller.name}{when}. {waits}",
            },
        )
        return assist


ASSIST_ANSWERS = {
    "accept": "accepts",
    "decline": "declines",
    "call_test": "calls a test from the helper for",
    "test_passed": "records a passed test for",
    "test_failed": "records a failed test for",
}
# The helper's own answers (answer_as_helper).
HELPER_ANSWERS = ("agree", "refuse")


def _open_assist(campaign: Campaign, assist_id: int) -> AssistRequest:
    assist = (
        AssistRequest.objects.select_related("roller", "helper")
        .filter(campaign=campaign, pk=assist_id)
        .first()
    )
    if assist is None:
        raise ServiceError("That Assist is not at this table.")
    if not assist.is_open:
        raise ServiceError(f"That Assist is already {assist.get_state_display().lower()}.")
    return assist


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
        raise ServiceError("Answer accept, decline, call a test, or record its result.")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        assist = (
            AssistRequest.objects.select_related("roller", "helper")
            .filter(campaign=campaign, pk=assist_id)
            .first()
        )
        if assist is None:
            raise ServiceError("That Assist is not at this table.")
        withdraw = answer == "decline" and can_control(membership, assist.helper)
        if not (membership.is_gm or withdraw):
            raise PermissionDenied("Only the GM can do that.")
        if not assist.is_open:
            raise ServiceError(f"That Assist is already {assist.get_state_display().lower()}.")
        State = AssistRequest.State
        if answer == "accept":
            assist.state = State.ACCEPTED
        elif answer == "decline":
            assist.state = State.DECLINED
        elif answer == "call_test":
            assist.state, assist.uncertain, assist.test_passed = State.ACCEPTED, True, None
        else:
            if not (assist.state == State.ACCEPTED and assist.uncertain):
                raise ServiceError("Call a test from the helper first (PM-10).")
            assist.test_passed = answer == "test_passed"
        if assist.state == State.ACCEPTED and speaks_for_helper(membership, assist.helper):
            assist.helper_agreed = True  # the GM speaks for an NPC (PM-08)
        assist.save(update_fields=["state", "uncertain", "test_passed", "helper_agreed"])
        who = "The GM" if membership.is_gm else assist.helper.name
        waits = ""
        if assist.state == State.ACCEPTED and not assist.helper_agreed:
            waits = f" {assist.helper.name}'s player has yet to agree (PM-08)."
        assist.event = append_event(
            campaign,
            events.ASSIST_ANSWERED,
            actor,
            {
                "assist_id": assist.pk,
                "roller": assist.roller.name,
                "roller_id": assist.roller_id,
                "helper": assist.helper.name,
                "helper_id": assist.helper_id,
                "answer": answer,
                "state": assist.state,
                "summary": f"{who} {ASSIST_ANSWERS[answer]} {assist.helper.name}'s Assist "
                f"to {assist.roller.name}.{waits}",
            },
        )
        return assist


def answer_as_helper(campaign_id: int, actor, assist_id: int, agree: bool) -> AssistRequest:
    """The helper's player (the GM for an NPC) agrees to pay for an Assist, or declines
    it (PM-08: the helper *may* pay). Nothing is spent here: the point moves when the
    roll uses the Assist, once the GM has accepted it too. The returned request carries
    the appended event as `.event`."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        assist = _open_assist(campaign, assist_id)
        helper = assist.helper
        if not speaks_for_helper(membership, helper):
            raise PermissionDenied(
                f"Only {helper.name}'s player (the GM for an NPC) answers for {helper.name}."
            )
        if agree and assist.helper_agreed:
            raise ServiceError(f"{helper.name} has already agreed to this Assist.")
        if agree:
            assist.helper_agreed = True
            gm = "" if assist.state == AssistRequest.State.ACCEPTED else " The GM decides."
            summary = (
                f"{helper.name} agrees to pay 1 Momentum for {assist.roller.name}'s "
                f"Advantage when the roll uses the Assist (PM-08).{gm}"
            )
        else:
            assist.state = AssistRequest.State.DECLINED
            summary = f"{helper.name} declines to Assist {assist.roller.name}: nothing spent."
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
                "summary": summary,
            },
        )
        return assist


# --- Trauma -------------------------------------------------------------------------


def record_trauma(
    campaign_id: int, actor, character_id: int, points: int, *, expected: int | None = None
) -> TableEvent:
    """A character suffers trauma: +1 Momentum per point (PM-03), capped at 6 with the
    loss logged (PM-04); none during character creation (PM-12). The GM, or the owner
    where the campaign lets players declare it (players_declare_edges)."""
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_TRAUMA:
        raise ServiceError(f"Trauma is a whole number of points from 1 to {MAX_TRAUMA}.")
    with transaction.atomic():
        campaign, membership, character = _lock_for_play(campaign_id, actor, character_id)
        if not (membership.is_gm or campaign.players_declare_edges):
            raise ServiceError(
                "At this table the GM records trauma (it gains Momentum, PM-03): tell the GM. "
                "Nothing was recorded."
            )
        # Trauma gains Momentum (none in creation, PM-12): a move since matters only
        # if more of the gain is now lost beyond the cap (PM-04).
        _check_seen(character, "momentum", expected, 0 if character.in_creation else points)
        try:
            _, entries = suffer_trauma(
                PersonalMomentum(character.momentum, character.name),
                points,
                creation=character.in_creation,
            )
        except RulesError as error:
            raise ServiceError(str(error)) from None
        changes = [
            change_pool(campaign, "momentum", e.delta + e.lost, e.reason, character=character)
            for e in entries
        ]
        plural = "s" if points != 1 else ""
        creation = " (character creation: no Momentum, PM-12)" if character.in_creation else ""
        return append_event(
            campaign,
            events.TRAUMA,
            actor,
            {
                "character_id": character.pk,
                "character": character.name,
                "points": points,
                "creation": character.in_creation,
                "summary": f"{character.name} suffers {points} trauma point{plural}{creation}.",
            },
            changes=changes,
        )

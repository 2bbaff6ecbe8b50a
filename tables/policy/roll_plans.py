"""Planning a Momenta roll: what a person asks (RollRequest) and everything decided
before the dice fall (RollPlan), without changing anything. The odds preview uses
plan_roll as it is; roll_momenta uses it under the lock. Read only, so the composer's
presenter asks here without reaching a writer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from rules.d6 import InvalidRoll, RollResult, RollSpec, resolve_roll
from rules.patterns import BUILTIN_PATTERNS, ROLL_KINDS, InvalidPattern, Pattern
from rules.personal import (
    AssistOffer,
    PersonalMomentum,
    PersonalMomentumError,
    RollMomentum,
    settle_roll_momentum,
)
from rules.templates import InvalidTemplate
from tables.errors import ServiceError
from tables.models import (
    AssistRequest,
    Attribute,
    Campaign,
    Character,
    CustomPattern,
    MomentaRoll,
    RollTemplate,
    Trait,
)
from tables.models.limits import MAX_MODIFIER, MAX_MODIFIERS, MAX_POOL
from tables.policy.board_traits import marked_traits


def active_patterns(campaign: Campaign) -> tuple[Pattern, ...]:
    """The three patterns every character has (PAT-06..PAT-08) and the GM's active ones."""
    custom = CustomPattern.objects.filter(campaign=campaign, active=True).order_by("name")
    return BUILTIN_PATTERNS + tuple(Pattern.from_dict(p.data) for p in custom)


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
    # The scene board's traits marked (MO-09b): (trait id, +1 hinders: −1d / −1 helps: +1d).
    traits: tuple = ()
    # SC-02: the character an attack is aimed at (the GM applies its damage once resolved).
    target_id: int | None = None

    def __post_init__(self):
        # Lists from forms and tests become tuples, so a request cannot change later.
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "traits", tuple(tuple(t) for t in self.traits or ()))
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
    traits: tuple[dict, ...] = ()  # the board traits that counted (MO-09b), as the card names them

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
    sees_hidden: bool,
    assists: Sequence[AssistRequest] = (),
) -> RollPlan:
    """Decide a roll before it is made, without changing anything (D6-06..D6-11,
    PM-05..PM-12, PM-R1, RS-01). The odds preview uses it as it is; roll_momenta
    uses it under the lock. Refusals are ServiceErrors a player can read.

    The character's attributes and traits are read through `.all()`, so a caller
    that prefetched them (load_roll) pays no query here; `templates` likewise, and
    `assists`, the roller's accepted ones if read (others are read by id).
    Each board trait marked is ±1d (MO-09b); `sees_hidden`: the asker is a GM."""
    attribute, kind = _attribute_and_kind(character, request)
    _check_modifiers(request.modifiers)
    marks = marked_traits(campaign, request.traits, sees_hidden=sees_hidden, secret=request.secret)
    thread = _thread(character, request.thread)
    if templates is None:
        templates = list(RollTemplate.objects.filter(campaign=campaign))
    template = _template(templates, request.template_id, kind)
    assist, settlement, resolve = _help(campaign, character, request, assists, kind=kind)
    helper = assist.helper if assist is not None else None
    spec = _spec(
        campaign,
        request,
        kind=kind,
        attribute=attribute,
        thread=thread,
        template=template,
        settlement=settlement,
        resolve=resolve,
        board_dice=tuple(-m["effect"] for m in marks),
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
        traits=tuple(marks),
    )


def _help(campaign, character, request, assists, *, kind: str):
    """The accepted Assist named (or None), how the roll's Momentum settles with it,
    and who may spend Resolve on it."""
    assist = _accepted_assist(campaign, character, request.assist_id, assists)
    settlement = _settle(character, assist, request)
    # RS-01: an ally whose help landed on this roll may spend Resolve; one whose
    # called test failed (PM-10) helped nothing.
    resolve = _resolve_spenders(
        character,
        assist.helper if assist is not None and settlement.assist_landed else None,
        request.resolve_spend,
        kind=kind,
        play=request.play,
    )
    return assist, settlement, resolve


def _attribute_and_kind(character: Character, request: RollRequest) -> tuple[Attribute, str]:
    """The attribute rolled and the kind of roll it makes (D6-11: LUCK, and only LUCK,
    makes a luck roll, a straight roll with nothing added)."""
    name = (request.attribute or "").strip().casefold()
    attribute = next((a for a in character.attributes.all() if a.name.casefold() == name), None)
    if attribute is None:
        raise ServiceError(
            gettext("%(character)s has no attribute called %(attribute)r.")
            % {"character": character.name, "attribute": request.attribute}
        )
    kind = request.kind
    if attribute.is_luck:
        if kind == "attack":
            # An attack asked of LUCK is a mistake to say, not a luck roll to make quietly.
            raise ServiceError(
                gettext(
                    "LUCK makes luck rolls only, never an attack (D6-11): attack with another "
                    "attribute, or roll LUCK as a luck roll."
                )
            )
        kind = "luck"
    elif kind == "luck":
        raise ServiceError(gettext("A luck roll uses the LUCK attribute (D6-11)."))
    if kind not in ROLL_KINDS:
        raise ServiceError(gettext("Choose an action roll, an attack or a luck roll."))
    extras = (
        any(request.modifiers),
        request.thread,
        request.advantage_sources,
        request.disadvantage,
        request.assist_id,
        request.traits,
    )
    if kind == "luck" and any(extras):
        raise ServiceError(
            gettext(
                "A luck roll is a straight roll of LUCK: no modifiers, Thread, Advantage, "
                "Disadvantage or Assist (D6-11)."
            )
        )
    return attribute, kind


def _check_modifiers(modifiers: tuple[int, ...]) -> None:
    """Dice modifiers (D6-06) within the table's limits; the form refuses them first."""
    fits = all(
        isinstance(m, int) and not isinstance(m, bool) and abs(m) <= MAX_MODIFIER for m in modifiers
    )
    if len(modifiers) > MAX_MODIFIERS or not fits:
        raise ServiceError(
            gettext("At most %(max_modifiers)s modifiers, each of at most %(max_modifier)s dice.")
            % {"max_modifiers": MAX_MODIFIERS, "max_modifier": MAX_MODIFIER}
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
        raise ServiceError(
            gettext("That Thread is not one of %(character)s's.") % {"character": character.name}
        )
    return trait


def _accepted_assist(
    campaign: Campaign,
    character: Character,
    assist_id: int | None,
    accepted: Sequence[AssistRequest] = (),
) -> AssistRequest | None:
    """The Assist the roll uses: offered to this roller and accepted by the GM (PM-08);
    the rules then ask that the helper agreed (PM-08) and any test was rolled (PM-10).
    `accepted`: the roller's accepted Assists, if the caller read them."""
    if not assist_id:
        return None
    known = next((a for a in accepted if a.pk == assist_id and a.roller_id == character.pk), None)
    if known is not None:
        return known
    assist = (
        AssistRequest.objects.select_related("helper__owner")  # the card names the owner
        .filter(campaign=campaign, pk=assist_id, roller=character)
        .first()
    )
    if assist is None:
        raise ServiceError(
            gettext("That Assist is not one offered to %(character)s.")
            % {"character": character.name}
        )
    if assist.state != AssistRequest.State.ACCEPTED:
        raise ServiceError(
            gettext(
                "%(helper)s's Assist is %(state)s: only an Assist the GM accepted can be used "
                "(PM-08)."
            )
            % {
                "helper": assist.helper.name,
                "state": assist.get_state_display().lower(),
            }
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
    board_dice: tuple[int, ...] = (),
) -> RollSpec:
    """The pool the rules roll, within the table's limit of dice (D6-06..D6-10)."""
    # PM-R1: Advantage adds the campaign's advantage dice, Disadvantage removes its
    # disadvantage dice; after PM-11 at most one of them is left.
    dice = campaign.disadvantage_dice if settlement.disadvantage else campaign.advantage_dice
    try:
        spec = RollSpec(
            attribute=attribute.value,
            kind=kind,
            modifiers=request.modifiers + board_dice,
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
        raise ServiceError(
            gettext("A pool holds at most %(max_pool)s dice.") % {"max_pool": MAX_POOL}
        )
    return spec


def _template(
    templates: Sequence[RollTemplate], template_id: int | None, kind: str
) -> RollTemplate:
    """The template chosen, else the first that fits the kind of roll (D6-04);
    `templates` are the campaign's, in their order."""
    if template_id:
        template = next((t for t in templates if t.pk == template_id), None)
        if template is None:
            raise ServiceError(gettext("That roll template is not in this campaign."))
        return template
    for template in templates:
        if template.deals_harm == (kind == "attack"):
            return template
    if not templates:
        raise ServiceError(gettext("This campaign has no roll templates yet."))
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
            raise ServiceError(gettext("Resolve is spent in whole points, 0 or more."))
        if amount:
            wanted[int(character_id)] = wanted.get(int(character_id), 0) + amount
    if not wanted:
        return ()
    if kind != "action" or play != "narrative":
        raise ServiceError(gettext("Resolve is spent on narrative action rolls only (RS-01)."))
    allowed = {roller.pk: roller}
    if helper is not None:
        allowed[helper.pk] = helper
    out = []
    for character_id, amount in wanted.items():
        spender = allowed.get(character_id)
        if spender is None:
            raise ServiceError(
                gettext(
                    "Only the roller and an ally whose Assist landed on this roll can spend "
                    "Resolve on it (RS-01)."
                )
            )
        # Both were read in this command (under the lock, when rolling).
        current = spender.resolve
        if amount > current:
            raise ServiceError(
                gettext(
                    "%(spender)s has %(current)s Resolve and cannot spend %(amount)s. Nothing was "
                    "rolled or spent."
                )
                % {"spender": spender.name, "current": current, "amount": amount}
            )
        out.append((spender, amount))
    return tuple(out)


def result_of(roll: MomentaRoll) -> RollResult:
    """The stored roll, read again from its own faces (deterministic)."""
    spec = RollSpec.from_dict(roll.spec)
    opposition = roll.result.get("opposition_faces") if spec.opposition_pool is not None else None
    return resolve_roll(spec, faces=roll.result["faces"], opposition_faces=opposition)

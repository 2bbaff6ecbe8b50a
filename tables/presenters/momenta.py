"""What the Momenta composer shows: the form, the odds preview, the allocation chooser.

Read-only: everything here reads the database and asks rules/ (odds, pattern
allocations); nothing changes state. The table page renders the composer
through the `momenta_composer` template tag, the views through
`composer_context`, so both draw the same thing. The forms it shows are built
in tables/forms/momenta.py (a view passes its own, with their errors); their
htmx attributes are in the templates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext, gettext_lazy, ngettext

from rules.d6 import apply_allocation, worth_key
from rules.odds import (
    band_distribution,
    opposed_band_distribution,
    pattern_chances,
    pattern_trigger_chance,
    success_distribution,
)
from rules.patterns import KIND_SIZES
from rules.pools import MOMENTUM, cap_of
from tables.errors import ServiceError
from tables.forms.momenta import (
    AssistRequestForm,
    CustomPatternForm,
    MomentaRollForm,
    RollTemplateForm,
    TraumaForm,
    as_submitted,
    gm_tools_forms,
    roll_form,
    side_forms,
)
from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    CustomPattern,
    Membership,
    MomentaRoll,
    RollTemplate,
)
from tables.policy.access import controllable, default_character, seen_by, still_secret
from tables.policy.roll_plans import RollPlan, RollRequest, plan_roll, result_of
from tables.presenters.assists import player_actions, player_assists
from tables.presenters.odds_chart import Chart, band_chart, fraction, percent
from tables.words.wording import band_words, pattern_name, pattern_words

# --- Odds preview (D6-12, PAT-10, PM-05..PM-11) --------------------------------------


# A pattern kind as the odds list names it ("a Double"), worded for the reader.
A_KIND = {
    "double": gettext_lazy("a Double"),
    "triple": gettext_lazy("a Triple"),
    "quad": gettext_lazy("a Quad"),
}


@dataclass(frozen=True)
class Chance:
    label: str
    value: Fraction
    note: str = ""

    @property
    def percent(self) -> str:
        return percent(self.value)

    @property
    def fraction(self) -> str:
        return fraction(self.value)

    @property
    def width(self) -> int:
        return round(self.value * 100)


@dataclass(frozen=True)
class PatternOdds:
    """One pattern kind in the preview: the chance one of the roller's patterns of that
    kind can trigger (the set and enough effective successes, PAT-04), and the chance
    the faces merely hold the set (PAT-10)."""

    label: str
    triggers: Chance
    in_dice: Chance
    note: str


@dataclass
class Odds:
    pool: int = 0
    zero_dice: bool = False
    opposition: str = ""
    bands: list[Chance] = field(default_factory=list)
    patterns: list[PatternOdds] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def chart(self) -> Chart:
        """The bands as one stacked bar, exact fractions on hover (issue 14)."""
        return band_chart(self.bands)


def _bands_against(pool: int, opposition_successes: int) -> list[Fraction]:
    """Band chances when a known number of opposition successes is subtracted (D6-10)."""
    dist = success_distribution(pool)
    k = opposition_successes

    def p(n):
        return dist.get(n, Fraction(0))

    graze = sum((v for s, v in dist.items() if s <= k), Fraction(0))
    three = sum((v for s, v in dist.items() if s >= k + 3), Fraction(0))
    return [graze, p(k + 1), p(k + 2), three]


def odds_for(plan: RollPlan) -> Odds:
    """Exact band and pattern chances of a planned roll, and who pays what."""
    spec = plan.spec
    odds = Odds(pool=spec.pool, zero_dice=spec.zero_dice)
    if spec.opposition_pool is not None:
        values = list(opposed_band_distribution(spec.pool, spec.opposition_pool).values())
        odds.opposition = gettext("against an opposition roll of %(opposition_pool)sd") % {
            "opposition_pool": spec.opposition_pool
        }
    elif spec.opposition_successes:
        values = _bands_against(spec.pool, spec.opposition_successes)
        n = spec.opposition_successes
        against = ngettext("%(n)s opposition success", "%(n)s opposition successes", n) % {"n": n}
        odds.opposition = gettext("against %(against)s") % {"against": against}
    else:
        values = list(band_distribution(spec.pool).values())
    texts = spec.template.bands
    odds.bands = [
        Chance(f"{i if i < 3 else '3+'}: {band_words(texts[i])}", v) for i, v in enumerate(values)
    ]
    odds.patterns = pattern_odds(spec)
    odds.costs = cost_lines(plan)
    return odds


def pattern_odds(spec) -> list[PatternOdds]:
    """Per kind: the chance the roller's patterns of it can trigger on this roll
    (PAT-04: with at least their effective successes, after the opposition) and the
    chance the faces hold one (PAT-10)."""
    chances = pattern_chances(spec.pool)
    result = []
    for kind in KIND_SIZES:
        # Every condition but the successes is known before the roll.
        applicable = [
            p
            for p in spec.patterns
            if p.kind == kind
            and p.refusal(
                roll_kind=spec.kind,
                play=spec.play,
                effective_successes=max(p.min_effective_successes, 1),
                resolve_spent=spec.resolve_total > 0,
                harm=spec.template.harm,
            )
            is None
        ]
        if applicable:
            # The most lenient pattern of the kind decides whether one can trigger.
            triggers = pattern_trigger_chance(
                spec.pool,
                kind,
                min(p.min_effective_successes for p in applicable),
                opposition_successes=spec.opposition_successes or 0,
                opposition_pool=spec.opposition_pool,
            )
            note = ", ".join(pattern_name(p.name) for p in applicable)
        else:
            triggers, note = Fraction(0), gettext("no pattern of yours on this roll")
        result.append(
            PatternOdds(
                label=A_KIND[kind],
                triggers=Chance(gettext("can trigger"), triggers),
                in_dice=Chance(gettext("in the dice"), chances[kind]),
                note=note,
            )
        )
    return result


def cost_lines(plan: RollPlan) -> list[str]:
    """What Advantage, Disadvantage, the Assist and Resolve will cost, and who pays."""
    lines = _settling_lines(plan) + _advantage_lines(plan) + _assist_lines(plan)
    if plan.settlement.advantage_refused:
        lines.append(plan.settlement.advantage_refused)
    lines += _disadvantage_lines(plan)
    for spender, amount in plan.resolve:
        lines.append(
            gettext("%(spender)s spends %(amount)s Resolve (RS-01).")
            % {"spender": spender.name, "amount": amount}
        )
    return lines


def _settling_lines(plan: RollPlan) -> list[str]:
    s, lines = plan.settlement, []
    if len(plan.sources) > 1:
        lines.append(gettext("Several sources give one Advantage, at the cheapest cost (PM-06)."))
    if s.cancelled:
        lines.append(
            gettext("Advantage and Disadvantage cancel: nothing spent, nothing gained (PM-11).")
        )
    elif s.creation and (s.advantage or s.disadvantage):
        lines.append(
            gettext("Character creation: applied directly, no Momentum spent or gained (PM-12).")
        )
    return lines


def _advantage_lines(plan: RollPlan) -> list[str]:
    s, roller = plan.settlement, plan.character
    if s.assisted:
        return [
            gettext(
                "Advantage (+%(advantage_dice)sd) from %(paid_by)s's Assist: %(paid_by)s pays 1 "
                "Momentum (%(momentum)s → %(after)s), %(roller)s pays nothing (PM-08)."
            )
            % {
                "advantage_dice": plan.spec.advantage_dice,
                "paid_by": s.paid_by,
                "momentum": plan.helper.momentum,
                "after": plan.helper.momentum - 1,
                "roller": roller.name,
            }
        ]
    elif s.paid:
        return [
            gettext(
                "Advantage (+%(advantage_dice)sd) costs %(advantage_cost)s Momentum (PM-05): "
                "%(roller)s pays, %(momentum)s → %(paid)s."
            )
            % {
                "advantage_dice": plan.spec.advantage_dice,
                "advantage_cost": s.advantage_cost,
                "roller": roller.name,
                "momentum": roller.momentum,
                "paid": roller.momentum - s.paid,
            }
        ]
    return []


def _assist_lines(plan: RollPlan) -> list[str]:
    s, roller, lines = plan.settlement, plan.character, []
    if plan.assist is not None and plan.assist.uncertain and not s.assisted:
        if s.assist_failed:
            lines.append(
                gettext("%(helper)s's test failed: the Assist costs nothing (PM-10).")
                % {"helper": plan.helper.name}
            )
    elif plan.assist is not None and plan.assist.uncertain:
        lines.append(
            gettext("%(helper)s's test passed, so the Assist is paid (PM-10).")
            % {"helper": plan.helper.name}
        )
    if s.assist_landed and not s.assisted and s.paid:
        lines.append(
            gettext(
                "%(helper)s helps, but an Assist does not stack on Advantage %(roller)s pays: "
                "%(helper)s spends nothing (PM-08)."
            )
            % {"helper": plan.helper.name, "roller": roller.name}
        )
    if s.assist_uses_action:
        lines.append(
            gettext("Structured time: the Assist is %(helper)s's action (PM-09).")
            % {"helper": plan.helper.name}
        )
    return lines


def _disadvantage_lines(plan: RollPlan) -> list[str]:
    s, roller = plan.settlement, plan.character
    if s.disadvantage and not s.creation:
        cap = cap_of(MOMENTUM)
        full = (
            (gettext(" (at the cap of %(cap)s: it will be lost, PM-04)") % {"cap": cap})
            if roller.momentum >= cap
            else ""
        )
        return [
            gettext(
                "Disadvantage (-%(advantage_dice)sd): %(roller)s gains 1 Momentum after the roll "
                "(PM-02)%(full)s."
            )
            % {"advantage_dice": plan.spec.advantage_dice, "roller": roller.name, "full": full}
        ]
    return []


# --- Allocation chooser (PAT-02, PAT-08, PAT-09) -------------------------------------

# The results listed open (best first); the others fold under "other results".
SHOWN_RESULTS = 4
# Allocations drawn in all (each with its outcome worked out); past this, a count.
MAX_LISTED_ALLOCATIONS = 60


@dataclass(frozen=True)
class AllocationOption:
    key: str
    label: str
    outcome: str
    damage: int | None
    refund: int
    default: bool


@dataclass
class AllocationGroup:
    """Allocations that give the same result: the best way first, the others folded."""

    best: AllocationOption
    others: list[AllocationOption]
    more: int  # same result, not drawn

    @property
    def alternatives(self) -> int:
        return len(self.others) + self.more


@dataclass
class Chooser:
    roll: MomentaRoll
    groups: list[AllocationGroup]
    more: int
    refund_points: int
    spenders: list[tuple[int, str]]

    @property
    def shown(self) -> list[AllocationGroup]:
        return self.groups[:SHOWN_RESULTS]

    @property
    def folded(self) -> list[AllocationGroup]:
        return self.groups[SHOWN_RESULTS:]

    @property
    def options(self) -> list[AllocationOption]:
        """Every allocation drawn, best result first."""
        return [o for g in self.groups for o in (g.best, *g.others)]

    @property
    def refund_slots(self) -> range:
        return range(self.refund_points)


def allocation_key(allocation) -> str:
    return "|".join(f"{name}:{face}" for name, face in allocation)


def chooser_for(roll: MomentaRoll) -> Chooser:
    """Every legal allocation, grouped by the result it gives (PAT-09): one line per
    result, best first with the default pre-selected; the other ways to the same
    result, and the weaker results, fold away so a big roll stays readable."""
    result = result_of(roll)
    by_name = {p.name: p for p in result.patterns}
    default = tuple(result.default_allocation)
    ordered = _by_result(result, by_name, default)

    def option(allocation) -> AllocationOption:
        applied = apply_allocation(result, allocation)
        label = ", ".join(pattern_words(by_name[n].kind, f, n) for n, f in allocation) or gettext(
            "No pattern"
        )
        return AllocationOption(
            key=allocation_key(allocation),
            label=label,
            outcome=band_words(applied.outcome),
            damage=applied.damage,
            refund=sum(n for _, n in applied.refunds),
            default=allocation == default,
        )

    groups = _drawn_groups(ordered, option)
    return Chooser(
        roll=roll,
        groups=groups,
        more=max(0, len(ordered) - len(groups)),
        refund_points=max((o.refund for g in groups for o in (g.best, *g.others)), default=0),
        spenders=_resolve_spenders(result.spec),
    )


def _by_result(result, by_name: dict, default: tuple) -> list[list]:
    """The legal allocations in groups of the same result, best group first and the
    best way first within each; the default's group leads, with the default first."""
    spec = result.spec
    # Worked out once per allocation: a 30-die roll can have thousands.
    worth = {
        a: worth_key(spec, result.band, [(by_name[n], f) for n, f in a]) for a in result.allocations
    }

    def same_result(allocation):
        # What the player gets: outcome band, harm, Resolve back, narrated extras.
        narrated = sorted(n for n, _ in allocation if by_name[n].effect == "text")
        return (*worth[allocation][:3], tuple(narrated))

    grouped: dict[tuple, list] = {}
    for allocation in sorted(worth, key=worth.__getitem__, reverse=True):
        grouped.setdefault(same_result(allocation), []).append(allocation)
    ordered = sorted(grouped.values(), key=lambda members: worth[members[0]], reverse=True)
    for members in ordered:  # the default leads its group, and its group leads
        if default in members:
            members.remove(default)
            members.insert(0, default)
            ordered.remove(members)
            ordered.insert(0, members)
            break
    else:  # not listed (as sorted tuples): it still comes first
        ordered.insert(0, [default])
    return ordered


def _drawn_groups(ordered: list[list], option) -> list[AllocationGroup]:
    """Each result's best way first; then the other ways, while the budget lasts
    (MAX_LISTED_ALLOCATIONS drawn in all; the rest are counted)."""
    budget = MAX_LISTED_ALLOCATIONS
    groups = [
        AllocationGroup(option(members[0]), [], len(members) - 1) for members in ordered[:budget]
    ]
    budget -= len(groups)
    for group, members in zip(groups, ordered, strict=False):
        drawn = min(group.more, max(budget, 0))
        group.others = [option(a) for a in members[1 : 1 + drawn]]
        group.more -= drawn
        budget -= drawn
    return groups


def _resolve_spenders(spec) -> list[tuple[int, str]]:
    """(id, name) of each character who spent Resolve on the roll (RS-01)."""
    who = [pk for pk, _ in spec.resolve_spent]
    names = dict(Character.objects.filter(pk__in=who).values_list("pk", "name"))
    return [(pk, names.get(pk, str(pk))) for pk in who]


# --- The composer ----------------------------------------------------------------------


def roll_request(form: MomentaRollForm) -> RollRequest:
    """The roll a valid composer form asks for, as the services take it."""
    return RollRequest(**form.roll_values())


def plan_from_form(form: MomentaRollForm) -> RollPlan:
    """Plan the roll a valid form describes (no change is made)."""
    return plan_roll(
        form.campaign,
        form.roller,
        roll_request(form),
        templates=form.templates,
        sees_hidden=form.membership.is_gm,
    )


def preview(form: MomentaRollForm) -> Odds | None:
    """The odds preview of the form's current values, or the reason there is none."""
    if form.roller is None or not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs] if form.is_bound else []
        return Odds(error=" ".join(errors)) if errors else None
    try:
        return odds_for(plan_from_form(form))
    except ServiceError as error:
        return Odds(error=str(error))


def pick_character(campaign: Campaign, membership: Membership, wanted=None) -> Character | None:
    """The character the composer shows: the one asked for if the viewer controls it,
    else the viewer's own (access.default_character)."""
    characters = controllable(campaign, membership)
    for character in characters:
        if str(character.pk) == str(wanted):
            return character
    return default_character(characters, membership)


def assist_actions(assist: AssistRequest, is_gm: bool, helps: bool) -> list[tuple[str, str]]:
    """The answers this viewer may give an open Assist (PM-08, PM-10)."""
    if not is_gm:
        return player_actions(assist, helps)
    if assist.state == AssistRequest.State.REQUESTED:
        return [
            ("accept", gettext("Accept")),
            ("call_test", gettext("Call a test")),
            ("decline", gettext("Decline")),
        ]
    if assist.uncertain and assist.test_passed is None:
        return [
            ("test_passed", gettext("Test passed")),
            ("test_failed", gettext("Test failed")),
            ("decline", gettext("Drop")),
        ]
    return [("decline", gettext("Drop"))]


def composer_context(
    campaign: Campaign,
    membership: Membership,
    *,
    character: Character | None = None,
    form: MomentaRollForm | None = None,
    initial=None,
    error: str = "",
    notice: str = "",
    assist_form: AssistRequestForm | None = None,
    trauma_form: TraumaForm | None = None,
) -> dict:
    """Everything tables/partials/composer_momenta.html draws, for one viewer.

    GMs answer Assists and edit templates and patterns in the GM panel
    (gm_tools_context, assist_queue_context), not here.
    """
    mine = controllable(campaign, membership)
    context = {
        "composer": True,
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "can_roll": bool(mine),
        "is_observer": membership.role == Membership.Role.OBSERVER,
        "error": error,
        "notice": notice,
        "personal_max": cap_of(MOMENTUM),
    }
    if not mine:
        return context
    if form is None:
        # Read again: the pools may have moved (this very request's roll, say),
        # and the form's hidden expected_* values must be today's.
        character = pick_character(campaign, membership, character.pk if character else None)
        form = roll_form(campaign, membership, character, initial=initial, characters=mine)
    context["form"] = form
    context["roller"] = form.roller
    # A refused form already says why at the top; the odds box stays empty then.
    context["odds"] = (None if error else preview(form)) if form.is_bound else _initial_odds(form)
    context["choosers"] = [chooser_for(r) for r in _own_pending(campaign, membership, mine)]
    context["assists"] = player_assists(campaign, membership, mine)  # PM-08 consent
    context["helped_ids"] = {c.pk for c in mine}
    context["assist_form"], context["trauma_form"] = side_forms(
        campaign, mine, form.roller, assist_form=assist_form, trauma_form=trauma_form
    )
    context["trauma_characters"] = mine
    return context


def _own_pending(campaign: Campaign, membership: Membership, mine: list[Character]):
    """The rolls awaiting patterns this member chooses for: a player for their
    characters' (never a hidden one), a GM for the rolls they made and their NPCs'."""
    pending = MomentaRoll.objects.filter(
        campaign=campaign,
        character__in=mine,
        state=MomentaRoll.State.AWAITING_ALLOCATION,
    ).select_related("character", "event")
    user_id = membership.user_id
    return [
        r
        for r in seen_by(membership, pending)
        if r.actor_id == user_id or r.character.owner_id == user_id
    ]


def _open_assists(campaign: Campaign) -> list[AssistRequest]:
    return list(
        AssistRequest.objects.filter(
            campaign=campaign,
            state__in=[AssistRequest.State.REQUESTED, AssistRequest.State.ACCEPTED],
        ).select_related("roller", "helper")
    )


def assist_queue_context(
    campaign: Campaign, membership: Membership, *, error: str = "", notice: str = ""
) -> dict:
    """The GM panel's queue of open Assists, each with the GM's answers (PM-08, PM-10)."""
    return {
        "momenta_queue": True,
        "campaign": campaign,
        "is_gm": membership.is_gm,
        "error": error,
        "notice": notice,
        "assists": [(a, assist_actions(a, True, False)) for a in _open_assists(campaign)],
    }


def gm_tools_context(
    campaign: Campaign,
    membership: Membership,
    *,
    error: str = "",
    notice: str = "",
    template_form: RollTemplateForm | None = None,
    pattern_form: CustomPatternForm | None = None,
    forms_later: bool = False,
) -> dict:
    """The GM panel's Momenta tools: roll templates (D6-04) and custom patterns (PAT-01).

    `forms_later`: the table page's first draw leaves the templates' and patterns' forms
    out (about 80 fields in tabs the GM seldom opens, which a phone would otherwise lay
    out and scan for autofill on load); their tab fetches them (views.momenta.gm_tools).
    """
    if forms_later:
        forms = {"forms_later": True}
    else:
        templates = RollTemplate.objects.filter(campaign=campaign)  # in their order
        patterns = CustomPattern.objects.filter(campaign=campaign)
        forms = gm_tools_forms(templates, patterns, template_form, pattern_form)
    return {
        "momenta_gm": True,
        "campaign": campaign,
        "is_gm": membership.is_gm,
        "error": error,
        "notice": notice,
        **forms,
        "secret_rolls": still_secret(MomentaRoll.objects.filter(campaign=campaign)).select_related(
            "character", "event"
        ),
    }


def _initial_odds(form: MomentaRollForm) -> Odds | None:
    """Odds of the form as first drawn: its initial values, as if submitted."""
    if form.roller is None:
        return None
    if not form.fields["attribute"].choices:
        return Odds(
            error=(
                gettext("%(roller)s has no attributes yet: add some on the sheet.")
                % {"roller": form.roller.name}
            )
        )
    return preview(as_submitted(form))

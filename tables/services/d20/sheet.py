"""A 2d20 test described from the character's sheet (T-R1, T-R2, T-03, MO-05, GL-02,
GL-03, GL-05): what a person asks (D20TestRequest), the target numbers and focuses
read from the sheets, and the spec and SkillTest the roll and the odds preview use."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext as _

from rules.d20 import FACES, MAX_BOUGHT_DICE, Assistant, SkillOdds, SkillTest, skill_odds
from rules.errors import RulesError
from rules.game_lines import STACKED_DECK
from rules.momentum import d20_purchase_cost
from tables.clause_ids import without_ids
from tables.errors import refused_by_rules
from tables.models import Campaign, Character, Contest, Trait
from tables.policy.board_traits import marked_traits
from tables.policy.d20_records import spec_json
from tables.policy.game_lines import catalogue
from tables.services.core import ServiceError, character_in


@dataclass(frozen=True)
class D20TestRequest:
    """What a person asks of a 2d20 test, as plain values (T-R1, T-R2, T-03, MO-05,
    MO-08, CT-01, TB-03, GL-02, GL-03): views build it from the composer's form;
    roll_d20_test, services.calls and the odds preview read it.

    `factors` are +1 (harder) or −1 (easier); `assistants` are character ids, or
    (id[, attribute, skill[, focus]]) to roll other names (T-03); `bought_dice` are
    paid `buy_from_momentum` from the group pool, the rest to Threat (MO-08), the pool
    checked against `expected_momentum` (None: not checked); `bonus_restricted_to`
    lists the spend keys bonus Momentum may pay for (None: any); `contest_id` answers
    an opposer's roll (CT-01); `complication_range` None is the scene's (GL-05).
    """

    attribute: str
    skill: str
    focus: str = ""
    difficulty: int = 1
    factors: tuple[int, ...] = ()
    bought_dice: int = 0
    buy_from_momentum: int = 0
    expected_momentum: int | None = None
    assistants: tuple = ()
    bonus_momentum: int = 0
    bonus_restricted_to: tuple[str, ...] | None = None
    contest_id: int | None = None
    secret: bool = False
    complication_range: int | None = None
    spend_determination: bool = False
    # The scene board's traits marked for this roll (MO-09b): (trait id, +1 hinders or
    # -1 helps), each one Difficulty step.
    traits: tuple = ()
    # SC-02: the character an attack is aimed at (the GM applies its damage once resolved).
    target_id: int | None = None

    def __post_init__(self):
        # Lists from forms and tests become tuples, so a request cannot change later.
        object.__setattr__(self, "factors", tuple(self.factors or ()))
        object.__setattr__(self, "traits", tuple(tuple(t) for t in self.traits or ()))
        helpers = (a if isinstance(a, int | str) else tuple(a) for a in self.assistants or ())
        object.__setattr__(self, "assistants", tuple(helpers))
        if self.bonus_restricted_to is not None:
            object.__setattr__(self, "bonus_restricted_to", tuple(self.bonus_restricted_to))


# --- reading the sheet -------------------------------------------------------------------


def named(rows, name: str, attr: str = "name"):
    """The row whose `attr` is `name`, ignoring case and spaces around it; else None.
    Matched here, not in SQL, so a sheet the caller prefetched is not read again."""
    wanted = (name or "").strip().casefold()
    return next((r for r in rows if getattr(r, attr).casefold() == wanted), None)


def target(character: Character, attribute: str, skill: str) -> tuple[int, int, dict]:
    """T-R1: (target = attribute + skill, the skill's value, the sheet's own names)."""
    attr = named(character.attributes.all(), attribute)
    if attr is None:
        raise ServiceError(
            gettext("%(character)s has no attribute called “%(attribute)s”.")
            % {"character": character.name, "attribute": attribute}
        )
    row = named(character.skills.all(), skill)
    if row is None:
        raise ServiceError(
            gettext("%(character)s has no skill called “%(skill)s”.")
            % {"character": character.name, "skill": skill}
        )
    if attr.value + row.value < 1:
        raise ServiceError(
            gettext("%(character)s's %(attr)s + %(row)s is 0: no target.")
            % {"character": character.name, "attr": attr.name, "row": row.name}
        )
    return attr.value + row.value, row.value, {"attribute": attr.name, "skill": row.name}


def focus(character: Character, focus_name: str, skill_value: int) -> tuple[int, str]:
    """A focus the character has: every die ≤ skill scores 2 (T-R1); otherwise focus 1.
    Returns (focus value, the sheet's name for it, "" for none)."""
    focus_name = (focus_name or "").strip()
    if not focus_name:
        return 1, ""
    focuses = [t for t in character.traits.all() if t.kind == Trait.Kind.FOCUS]
    trait = named(focuses, focus_name, "text")
    if trait is None:
        raise ServiceError(
            gettext("%(character)s has no focus called “%(focus_name)s”.")
            % {"character": character.name, "focus_name": focus_name}
        )
    return max(1, min(20, skill_value)), trait.text


def _assistants(
    campaign: Campaign, leader: Character, assistants: Sequence, attribute: str, skill: str
) -> list[dict]:
    """T-03: each ally's own target number; (character_id[, attribute, skill[, focus]])."""
    out, seen = [], {leader.pk}
    for item in assistants or ():
        item = (item,) if isinstance(item, int | str) else tuple(item)
        character = character_in(campaign, item[0])
        if character.pk in seen:
            raise ServiceError(
                f"{character.name} is already rolling in this test."
                if character.pk == leader.pk
                else f"{character.name} can assist only once."
            )
        seen.add(character.pk)
        a_attr = item[1] if len(item) > 1 and item[1] else attribute
        a_skill = item[2] if len(item) > 2 and item[2] else skill
        a_target, skill_value, names = target(character, a_attr, a_skill)
        a_focus, focus_name = focus(character, item[3] if len(item) > 3 else "", skill_value)
        out.append(
            {
                "character_id": character.pk,
                "name": character.name,
                **names,
                "target": a_target,
                "focus": a_focus,
                "focus_name": focus_name,
            }
        )
    return out


# --- the test ----------------------------------------------------------------------------


def whole_range(value, what: str, campaign: Campaign | None = None) -> int:
    """A complication range (GL-05): a whole number of faces, 1 (only 20s) to 20, or to
    the campaign's line's bound (STA: 5, faces 16–20)."""
    high = FACES if campaign is None else campaign.line.complication_max
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise ServiceError(
            _("%(what)s is a whole number from 1 (only 20s) to %(high)d.")
            % {"what": what, "high": high}
        )
    return value


def complication_range(campaign: Campaign, override: int | None = None) -> int:
    """GL-05 over T-R1: the GM's range (the running scene's, else the campaign's) is the
    floor; a roll's own range may widen it, never narrow it; the line bounds both."""
    if override is not None:
        whole_range(override, _("A roll's complication range"), campaign)
    gm_range = campaign.scene_complication_range or campaign.complication_range
    return campaign.line.roll_range(gm_range, override)


def _determination_dice(
    campaign: Campaign, request: D20TestRequest, opposer: bool
) -> tuple[int, int]:
    """GL-02, GL-03: (dice set to 1, extra dice) the line's personal pool buys before the
    roll, or why it cannot be spent so."""
    line, spend = campaign.line, request.spend_determination
    if spend and not line.spends_before_roll:
        raise ServiceError(
            _("In %(line)s, %(pool)s rerolls dice after the roll, with the GM's leave (T-04).")
            % {"line": line.title, "pool": line.personal_pool}
        )
    if spend and opposer:
        raise ServiceError(
            _("The opposer's roll only sets the Difficulty: no %(pool)s.")
            % {"pool": line.personal_pool}
        )
    ones, extra = line.determination_dice(spend)
    if extra and request.bought_dice + extra > MAX_BOUGHT_DICE:  # GL-03: 5d20 in all
        raise ServiceError(
            _(
                "At most 5d20 in all: the %(pool)s die is one of the %(most)d bonus dice, "
                "so buy at most %(left)d with it (GL-03)."
            )
            % {"pool": line.personal_pool, "most": MAX_BOUGHT_DICE, "left": MAX_BOUGHT_DICE - extra}
        )
    return ones, extra


def _stacked_deck_attribute(campaign: Campaign, character: Character) -> str:
    """Fallout's Stacked Deck (GL-02): the sheet's name for LCK, which replaces the test's
    attribute in the target number."""
    names = campaign.line.personal_attribute
    for name in names:
        if named(character.attributes.all(), name) is not None:
            return name
    raise ServiceError(
        _("%(name)s has no %(attribute)s attribute for Stacked Deck.")
        % {"name": character.name, "attribute": " / ".join(names)}
    )


def _bonus_keys(campaign: Campaign, keys) -> list[str] | None:
    """MO-05: the spends bonus Momentum is kept for (None: any), each on the list."""
    restricted = sorted(set(keys)) if keys else None
    if restricted and any(k not in catalogue(campaign) for k in restricted):
        raise ServiceError(gettext("Bonus Momentum can be kept only for spends on the list."))
    return restricted


def build_spec(
    campaign: Campaign,
    character: Character,
    request: D20TestRequest,
    *,
    contest: Contest | None = None,
    opposer: bool = False,
    sees_hidden: bool,
) -> tuple[dict, SkillTest]:
    """Everything decided before the roll, as plain values, and the rules' SkillTest.

    Reads the sheet only; used for the odds preview (T-05) and for the roll. With
    `contest` the Difficulty is the opposer's (CT-01, CT-02); the `opposer`'s own roll
    has none, no factors and no bonus Momentum (CT-01). Each board trait marked is one
    factor (MO-09b); `sees_hidden`: the asker is a GM, who may mark a hidden one.
    """
    ones, extra_dice = _determination_dice(campaign, request, opposer)
    attribute = request.attribute
    if request.spend_determination and campaign.line.personal_spend == STACKED_DECK:
        attribute = _stacked_deck_attribute(campaign, character)
    value, skill_value, names = target(character, attribute, request.skill)
    focus_value, focus_name = focus(character, request.focus, skill_value)
    difficulty, factors, bonus, restricted, marks = _what_counts(
        campaign, request, contest=contest, opposer=opposer, sees_hidden=sees_hidden
    )
    helpers = _assistants(
        campaign, character, request.assistants, names["attribute"], names["skill"]
    )
    with refused_by_rules():
        d20_purchase_cost(request.bought_dice)  # MO-08: a fourth die gets the rules' own words
        test = SkillTest(
            target=value,
            difficulty=difficulty,
            focus=focus_value,
            # A called test's or the composer's own range, else the scene's (GL-05), else T-R1's.
            complication_range=complication_range(campaign, request.complication_range),
            factors=factors,
            bought_dice=request.bought_dice,
            assistants=tuple(Assistant(a["name"], a["target"], a["focus"]) for a in helpers),
            bonus_momentum=bonus,
            bonus_restricted_to=restricted,
            assistance_needs_leader_success=campaign.assistance_needs_leader_success,
            opposed=contest is not None,
            ones=ones,
            extra_dice=extra_dice,
        )
    return _spec_values(campaign, test, names, focus_name, helpers, marks), test


def _spec_values(campaign, test: SkillTest, names, focus_name, helpers, marks) -> dict:
    """The test's spec as the record keeps it: the sheet's names, the rules' values."""
    spec = {**names, **spec_json(test), "focus_name": focus_name, "assistants": helpers}
    spec.update(game_line=campaign.line.key, final_difficulty=test.final_difficulty)
    spec["dice"] = test.dice
    if marks:
        spec["traits"] = marks  # the card names the traits that counted
    return spec


def _what_counts(campaign: Campaign, request: D20TestRequest, *, contest, opposer, sees_hidden):
    """The Difficulty, the factors (each board trait marked is one, MO-09b), the bonus
    Momentum and the spends it is kept for, and the traits marked; the opposer's own
    roll has none of them (CT-01)."""
    restricted = _bonus_keys(campaign, request.bonus_restricted_to)
    difficulty, bonus = request.difficulty, request.bonus_momentum
    if contest is not None:
        difficulty = contest.difficulty  # CT-01, CT-02: set by the opposer's roll
    marks = [] if opposer else marked_traits(
        campaign, request.traits, sees_hidden=sees_hidden, secret=request.secret
    )  # fmt: skip
    factors = tuple(request.factors) + tuple(m["effect"] for m in marks)
    if opposer:
        difficulty, factors, bonus, restricted = 0, (), 0, None
    return difficulty, factors, bonus, restricted, marks


def preview_odds(
    campaign: Campaign,
    character: Character,
    request: D20TestRequest,
    *,
    contest: Contest | None = None,
    sees_hidden: bool,
) -> tuple[dict, SkillOdds]:
    """T-05: the exact odds of the test the composer describes; changes nothing."""
    spec, test = build_spec(campaign, character, request, contest=contest, sees_hidden=sees_hidden)
    return spec, skill_odds(test)


def odds_or_refusal(
    campaign: Campaign,
    character: Character,
    request: D20TestRequest,
    *,
    contest: Contest | None = None,
    sees_hidden: bool,
) -> tuple[dict, SkillOdds] | str:
    """preview_odds (T-05), or what keeps the test from being rolled, in a player's
    words: a composer shows either."""
    try:
        return preview_odds(campaign, character, request, contest=contest, sees_hidden=sees_hidden)
    except (ServiceError, RulesError) as error:
        return without_ids(str(error))  # a RulesError's message names clauses

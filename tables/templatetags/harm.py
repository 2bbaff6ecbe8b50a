"""Harm track names at the table (SC-02): rules.harm's keys, in the reader's language."""

from django import template
from django.utils.translation import gettext_lazy as _

from tables.policy import harm_rules
from tables.policy.challenge_rolls import challenge_roll_after

register = template.Library()

# Every key of rules.harm.LINE_TRACKS (tests/tables/test_harm_views.py checks they match).
LABELS = {
    "harm": _("Harm"),
    "strain": _("Strain"),
    "stress": _("Stress"),
    "injuries": _("Injuries"),
    "vigor": _("Vigor"),
    "wounds": _("Wounds"),
    "resolve": _("Resolve"),
    "trauma": _("Trauma"),
    "hp": _("HP"),
    "defeats": _("Defeats"),
}


@register.filter
def harm_label(key: str) -> str:
    return LABELS.get(key, key)


@register.filter
def bonus_damage(test) -> int:
    """SC-02: a 2d20 test's Bonus Damage bought and not vetoed."""
    return harm_rules.bonus_damage(test)


@register.simple_tag(takes_context=True)
def hit_rolled(context, test):
    """SC-02, GL-04: the total of the Challenge dice roll that goes with an attack `test`
    (policy.challenge_rolls), which fills the GM's hit; None before it is rolled, or on a
    line without them (no query). A push holding the roll gives it as `hit_rolled`."""
    if "hit_rolled" in context:
        return context["hit_rolled"]
    campaign = context.get("campaign")
    if campaign is None or not campaign.line.has_challenge_dice:
        return None
    roll = challenge_roll_after(test, before_next_test=True)
    return roll.payload.get("total") if roll is not None else None


@register.filter
def hit_tracks(campaign) -> list[str]:
    """The tracks a 2d20 hit's damage may go on: those whose line names their harms."""
    return [kind.key for kind in harm_rules.track_kinds(campaign) if kind.harms]


@register.filter
def defeats_minor_foes(campaign) -> bool:
    """SC-06, Dune: a passed attack's card offers the defeat of a minor foe, not damage."""
    return harm_rules.defeats_minor_foes(campaign)


@register.filter
def offers_injury_choice(campaign) -> bool:
    """SC-06, STA 2e: the hit's form asks whether the target avoids the Injury with Stress."""
    from tables.policy.harm_rules import offers_injury_choice as offers

    return offers(campaign)


@register.filter
def offers_tasks(campaign) -> bool:
    """SC-03: the GM is offered a new extended task only where the line has a rule."""
    return harm_rules.offers_tasks(campaign)


@register.filter
def odds_for(task, odds: dict):
    """An extended task's finishing odds (presenters/task_odds.py), or None (SC-03)."""
    return (odds or {}).get(task.pk)


@register.filter
def chance_percent(value) -> str:
    """An exact chance, rounded to a percentage (never to a false 0% or 100%)."""
    from tables.presenters.odds_chart import percent

    return percent(value)


@register.filter
def chance_exact(value) -> str:
    """An exact chance as n/d."""
    from tables.presenters.odds_chart import fraction

    return fraction(value)

"""A Momenta roll's card as data: the event payload and MomentaRoll.card hold numbers,
names and the rules' own texts; tables/templatetags/momenta.py puts them into words."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from rules.d6 import AppliedRoll, RollResult
from tables.models import Campaign, Character, MomentaRoll
from tables.policy.roll_plans import RollPlan
from tables.words.said import said


def roll_card(
    campaign: Campaign,
    roll: MomentaRoll,
    plan: RollPlan,
    result: RollResult,
    applied: AppliedRoll | None,
) -> dict:
    """What the roll card shows (the event payload)."""
    spec = plan.spec
    board = {"traits": list(plan.traits)} if plan.traits else {}  # MO-09b: those that counted
    return {
        **board,
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
        **_division_data(spec.template),
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
        "applied": applied_data(applied, campaign) if applied else None,
        **said(
            gettext_noop("%(character)s: %(outcome)s"),
            character=plan.character.name,
            outcome=result.outcome,
        ),
    }


def _division_data(template) -> dict:
    """D6-05, D6-R1: how the template divides an attack's harm, only when it does."""
    if template.harm_divisor == 1:
        return {}
    return {"harm_divisor": template.harm_divisor, "rounding": template.rounding}


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


def applied_data(applied: AppliedRoll, campaign: Campaign) -> dict:
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

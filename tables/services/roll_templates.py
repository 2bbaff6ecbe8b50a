"""The roll templates a d6 campaign starts with (D6-04), and reading them.

A campaign gets the defaults when it is created with d6 dice or switched to
them (services/campaigns.py); migration 0003 caught up the campaigns that
existed before. Reading never writes: the composer is drawn on a GET.
"""

from __future__ import annotations

from rules.templates import RollTemplate as RulesTemplate
from tables.models import Campaign, RollTemplate

ATTACK_BANDS = ("Graze", "Hit", "Strong hit", "Devastating hit")
# A sensible starting set; the GM edits or replaces them (D6-04).
DEFAULT_TEMPLATES: tuple[tuple[str, bool, RulesTemplate], ...] = (
    ("Narrative action", True, RulesTemplate(name="Narrative action")),
    (
        "Attack (damage)",
        False,
        RulesTemplate(
            name="Attack (damage)",
            bands=ATTACK_BANDS,
            overflow="+1 damage per success above 3",
            damage=(1, 2, 3, 4),
            harm="damage",
            overflow_damage=1,
        ),
    ),
    (
        "Attack (strain)",
        False,
        RulesTemplate(
            name="Attack (strain)",
            bands=ATTACK_BANDS,
            overflow="+1 Strain per success above 3",
            damage=(1, 2, 3, 4),
            harm="strain",
            overflow_damage=1,
        ),
    ),
)


def seed_default_templates(campaign: Campaign) -> None:
    """Give a d6 campaign without templates the defaults.

    The caller holds the campaign's lock (or has just created it): two seeds
    at once would otherwise both see none and create the set twice.
    """
    if not campaign.uses_d6 or RollTemplate.objects.filter(campaign=campaign).exists():
        return
    RollTemplate.objects.bulk_create(
        RollTemplate(
            campaign=campaign,
            name=name,
            data=template.to_dict(),
            campaign_labels=labels,
            position=i,
        )
        for i, (name, labels, template) in enumerate(DEFAULT_TEMPLATES)
    )


def roll_templates(campaign: Campaign) -> list[RollTemplate]:
    """The campaign's roll templates, in their order (a read, never a write)."""
    return list(RollTemplate.objects.filter(campaign=campaign))

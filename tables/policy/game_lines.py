"""What a campaign's game line offers, in the table's words, read only: the 2d20 spends
(its catalogue), the narrative uses of Determination, the GM's new-mission button. The
commands that spend them live in tables/services/; presenters read here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules import game_lines, starts
from rules.momentum import BONUS_DAMAGE, TASK_POINTS, SpendKind, custom_spend, spend_catalogue
from tables.errors import refused_by_rules
from tables.models import Campaign

# The GM's button and the ledger's word for the occasion, by the line's word for it.
NEW_ADVENTURE = {
    game_lines.MISSION: gettext_lazy("New mission"),
    game_lines.ADVENTURE: gettext_lazy("New adventure"),
    game_lines.QUEST: gettext_lazy("New quest"),
}


def adventure_word(campaign: Campaign) -> str:
    """The GM's button for a new mission (adventure, quest), "" where a mission changes
    nothing: a line refilling the personal pool then (GL-02), or STA 1e, whose mission sets
    Threat (GL-07, while the setting says so) and whose Determination refills each session."""
    line = campaign.line
    if line.refills_between_sessions:
        return str(NEW_ADVENTURE[line.refill_at])
    if campaign.mission_sets_threat and starts.starts_adventures(line.key):
        return str(NEW_ADVENTURE[game_lines.MISSION])
    return ""


# Each use's name at the table (the book's).
USE_NAMES = {
    game_lines.LUCK_OF_THE_DRAW: gettext_lazy("Luck of the Draw"),
    game_lines.LUCKY_TIMING: gettext_lazy("Lucky Timing"),
}


def catalogue(campaign: Campaign) -> dict[str, SpendKind]:
    """Standard spends, the line's Bonus Damage where its book has it (SC-02), and the
    campaign's custom ones, by key (MO-09 … MO-11, MO-14)."""
    line = campaign.line
    line_spends = (BONUS_DAMAGE,) * line.bonus_damage + (TASK_POINTS,) * line.task_points
    custom = [
        custom_spend(s.name, s.cost, s.repeatable, s.description)
        for s in campaign.custom_spends.order_by("name")
    ]
    with refused_by_rules():
        return spend_catalogue(custom, line_spends)

"""Quick reference (issue 23): what the campaign's pools can buy, with costs, from the
spend catalogue the rules hold (rules/momentum.py, rules/game_lines.py) in the line's names."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules.game_lines import BONUS_ONE, SET_ONE
from rules.momentum import d20_purchase_cost
from tables.clause_ids import without_ids
from tables.models import Campaign
from tables.policy.game_lines import catalogue
from tables.words.wording import spend_description, spend_name


@dataclass(frozen=True)
class Line:
    name: str
    cost: str
    what: str


def spend_reference(campaign: Campaign) -> list[tuple[str, list[Line]]]:
    """[(pool name, its lines)] for this campaign's ruleset."""
    if not campaign.uses_group_economy:
        return [
            (
                _("Momentum (each character's own)"),
                [
                    Line(_("Advantage from a characteristic"), "2", _("+1d on the roll")),
                    Line(_("Advantage from a Boon or a GM-called edge"), "1", _("+1d")),
                    Line(_("Assist"), "1", _("the helper pays; the roller gains Advantage")),
                ],
            )
        ]
    line = campaign.line
    points = _("%(n)d %(pool)s")
    group = [
        Line(
            spend_name(kind),
            points % {"n": kind.cost, "pool": line.group_pool}
            + (_(" per use") if kind.repeatable else ""),
            without_ids(spend_description(kind)),
        )
        for kind in catalogue(campaign).values()
    ]
    dice = ", ".join(str(d20_purchase_cost(n) - d20_purchase_cost(n - 1)) for n in (1, 2, 3))
    group.append(
        Line(
            _("Buy d20s (before the roll)"),
            dice,
            _("at most 3; any part may be paid by adding as much to %(gm)s") % {"gm": line.gm_pool},
        )
    )
    personal = {
        BONUS_ONE: _("add a d20 that shows 1, before the roll"),
        SET_ONE: _("one d20 shows 1, before the roll"),
    }.get(line.personal_spend, _("reroll chosen dice of your own pool, with the GM's leave"))
    return [
        (line.group_pool, group),
        (
            line.gm_pool,
            [Line(_("The GM's pool"), "1+", _("players add to it; only the GM spends it"))],
        ),
        (line.personal_pool, [Line(line.personal_pool, "1", personal)]),
    ]

"""A pool's name at this campaign's table: the 2d20 game line's where it renames one (GL-01).

The group pool, the GM's pool and the personal pool take the line's names ("Doom",
"Fortune", "Action Points"); on a line that keeps the seeds' name for a pool, the
ledger's own label stays ("Group Momentum"), and so does it for every other pool.
"""

from __future__ import annotations

import re

from rules import game_lines
from rules.pools import DETERMINATION, GROUP_MOMENTUM, THREAT
from tables.forms.game_lines import challenge_form
from tables.policy.access import controllable, has_role

_FIELDS = {GROUP_MOMENTUM: "group_pool", THREAT: "gm_pool", DETERMINATION: "personal_pool"}


def pool_name(campaign, pool: str, label: str) -> str:
    """`label` (the ledger's name for `pool`), or the campaign's line's name for it."""
    field = _FIELDS.get(pool)
    line = getattr(campaign, "line", None)
    if field is None or line is None or not getattr(campaign, "uses_group_economy", False):
        return label
    name = getattr(line, field)
    default = getattr(game_lines.LINES[game_lines.DEFAULT], field)
    return label if name == default else name


_SEEDS = game_lines.LINES[game_lines.DEFAULT]


def line_words(text: str, line) -> str:
    """A fixed label in the seeds' words ("Threat added", "Determination reroll") with
    the line's pool names instead (GL-01): for the registry's labels, not free text."""
    if line is None or line.key == _SEEDS.key:
        return text
    for field in _FIELDS.values():
        seeds, own = getattr(_SEEDS, field), getattr(line, field)
        if seeds != own:
            text = re.sub(rf"\b{re.escape(seeds)}\b", own, text)
    return text


def challenge_context(campaign, membership, *, form=None, error: str = "") -> dict:
    """The Challenge dice form (GL-04): shown on lines that have them, to members who play."""
    line = campaign.line
    shown = (
        campaign.uses_group_economy
        and not campaign.uses_d6
        and line.has_challenge_dice
        and has_role(membership, "player")
    )
    return {
        "campaign": campaign,
        "shown": shown,
        "name": line.challenge_dice,
        "form": challenge_form(form),
        "characters": controllable(campaign, membership) if shown else [],
        "error": error,
    }


def narrative_context(campaign, membership, *, error: str = "", notice: str = "") -> dict:
    """The line's narrative spends of the personal pool (GL-02, Fallout's Luck of the Draw
    and Lucky Timing): shown on lines that have them, to members who play."""
    from tables.services.d20.narrative import USE_NAMES

    line = campaign.line
    shown = (
        campaign.uses_group_economy
        and not campaign.uses_d6
        and bool(line.narrative_spends)
        and has_role(membership, "player")
    )
    return {
        "campaign": campaign,
        "shown": shown,
        "pool": line.personal_pool,
        "uses": [(use, USE_NAMES[use]) for use in line.narrative_spends],
        "characters": controllable(campaign, membership) if shown else [],
        "error": error,
        "notice": notice,
    }

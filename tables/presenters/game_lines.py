"""The game line's forms at the table (GL-02, GL-04). A pool's name at this campaign's
table (GL-01) is tables/words/wording.py's `pool_name`, so Discord posts read it too."""

from __future__ import annotations

from tables.forms.game_lines import challenge_form
from tables.policy.access import controllable, has_role


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
    from tables.policy.game_lines import USE_NAMES

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

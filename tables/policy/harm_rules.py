"""Which harm rule a campaign plays (SC-06), for the forms, templates and services that
read it: no writes here."""

from __future__ import annotations

from rules import harm


def defeats_minor_foes(campaign) -> bool:
    """SC-06 (Dune core rulebook, Conflict chapter): a successful attack defeats a minor
    foe, so the GM flags NPCs minor and the roll's card offers the defeat."""
    if campaign.dice_system != "d20":
        return False
    return harm.HARM_RULE.get(campaign.game_line or "seeds") == harm.MINOR_FOE

"""Which harm and extended-task rules a campaign plays (SC-03, SC-06), for the forms,
templates and services that read it: no writes here. Also what a 2d20 test adds to its
damage (Bonus Damage, SC-02), which its card and the GM's hit both show."""

from __future__ import annotations

from rules import extended, harm
from rules.momentum import BONUS_DAMAGE
from tables.models import Campaign, D20Test


def defeats_minor_foes(campaign) -> bool:
    """SC-06 (Dune core rulebook, Conflict chapter): a successful attack defeats a minor
    foe, so the GM flags NPCs minor and the roll's card offers the defeat."""
    if campaign.dice_system != "d20":
        return False
    return harm.HARM_RULE.get(campaign.game_line or "seeds") == harm.MINOR_FOE


def offers_tasks(campaign) -> bool:
    """SC-03: a 2d20 line whose extended tasks have a rule, the book's or a borrowed one
    the campaign's setting allows (SC-R7, SC-R16, SC-R17)."""
    if campaign.dice_system != "d20":
        return False
    line = campaign.game_line or "seeds"
    return extended.offered(line, borrowed=campaign.borrowed_extended_tasks)


def offers_injury_choice(campaign) -> bool:
    """SC-06 (STA 2e core pp. 290 and 292): the target's side chooses to take a hit's
    Injury or avoid it with Stress, so the hit's form asks."""
    if campaign.dice_system != "d20":
        return False
    return harm.HARM_RULE.get(campaign.game_line or "seeds") == harm.PAST_TRACK


def line_key(campaign: Campaign) -> str:
    """The key of rules.harm.LINE_TRACKS the campaign's sheets use."""
    if campaign.dice_system == Campaign.DiceSystem.D6:
        return harm.MOMENTA
    return campaign.game_line or "seeds"


def track_kinds(campaign: Campaign) -> tuple[harm.TrackKind, ...]:
    return harm.tracks_of(line_key(campaign))


def bonus_damage(test: D20Test) -> int:
    """SC-02: the test's Bonus Damage bought and not vetoed, 1 damage a point."""
    spends = (test.ledger or {}).get("spends") or ()
    return sum(
        s.get("points", 0)
        for s in spends
        if s.get("key") == BONUS_DAMAGE.key and not s.get("refunded")
    )

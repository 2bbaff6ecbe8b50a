"""The personal pool back to its starting amount (GL-02): Determination, Fortune or Luck
as the line's book sets it at each session, or at the GM's "new mission" (adventure,
quest). Called inside the caller's transaction, with the campaign locked."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from rules.pools import DETERMINATION
from rules.sentences import words
from tables.models import Campaign
from tables.services.core import Change, change_pool, personal_bounds


def refill_personal_pools(campaign: Campaign, occasion: dict) -> list[Change]:
    """Set every player character's personal pool to the line's starting amount; one
    ledger line each, even when already there, so the log shows it happened (PM-13).

    `occasion` (a stored sentence) names it in the reason ("New session", "New mission",
    worded per reader). NPCs keep theirs:
    the books give the starting amount to player characters (Fallout's notable NPCs have
    Luck of their own, which the GM keeps by hand).
    """
    line = campaign.book_line
    changes = []
    characters = campaign.characters.filter(is_npc=False).prefetch_related("attributes")
    for character in characters.order_by("name"):
        start = personal_bounds(campaign, character)[1]
        if start is None:  # Fallout: a sheet without LCK has no Luck to refill to
            continue
        reason = words(
            gettext_noop("%(occasion)s: %(pool)s set to %(start)d (%(line)s, GL-02)"),
            occasion=occasion,
            pool=words(line.personal_pool),
            start=start,
            line=words(line.title),
        )
        changes.append(
            change_pool(
                campaign,
                DETERMINATION,
                start - character.determination,
                reason,
                character=character,
            )
        )
    return changes

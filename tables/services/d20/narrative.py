"""Narrative spends of the personal pool (GL-02): Fallout's Luck of the Draw and Lucky
Timing. What they do is told at the table; the app keeps their cost, through the ledger and
the log like every spend, so the pool and its history stay true."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules.pools import DETERMINATION
from rules.sentences import english
from tables import events
from tables.models import TableEvent
from tables.models.limits import NOTE_MAX
from tables.policy.access import require_control
from tables.policy.game_lines import USE_NAMES
from tables.services.core import (
    ServiceError,
    append_event,
    change_pool,
    character_in,
    lock_campaign,
    require_playing,
)
from tables.services.d20.checks import require_d20
from tables.words.said import named, said, words


def spend_narrative(
    campaign_id: int, actor, character_id: int, use: str, *, points: int = 1, note: str = ""
) -> TableEvent:
    """GL-02: spend the personal pool on one of the line's narrative uses. `points` above 1
    only where the book lets the GM ask for more (Luck of the Draw); the GM's veto is a
    hand refund (sessions.adjust_pool), since nothing else changed."""
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(_("A note holds at most %(n)d characters.") % {"n": NOTE_MAX})
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        require_d20(campaign)
        line = campaign.line
        character = character_in(campaign, character_id)
        require_control(
            membership, character, _("%(name)s is not yours to play.") % {"name": character.name}
        )
        try:
            cost = line.narrative_cost(use, points)
        except ValueError:
            raise ServiceError(
                _("%(line)s has no such %(pool)s spend, or not at that price.")
                % {"line": line.title, "pool": line.personal_pool}
            ) from None
        reason = words("%(who)s: %(use)s", who=character.name, use=named(USE_NAMES[use]))
        if note:
            reason = words("%(reason)s (%(note)s)", reason=reason, note=note)
        change = change_pool(campaign, DETERMINATION, -cost, english(reason)[:200],
                             character=character, reason_words=reason)  # fmt: skip
        summary = said(
            gettext_noop("%(name)s spends %(cost)d %(pool)s: %(use)s."),
            name=character.name,
            cost=cost,
            pool=words(campaign.book_line.personal_pool),
            use=named(USE_NAMES[use]),
        )
        return append_event(
            campaign,
            events.POOL_ADJUSTED,
            actor,
            {"pool": DETERMINATION, "character_id": character.pk, **summary},
            changes=[change],
        )

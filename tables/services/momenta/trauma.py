"""Trauma (PM-03, PM-04, PM-12): each point a character suffers gains Momentum."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.errors import RulesError
from rules.personal import PersonalMomentum, suffer_trauma
from tables import events
from tables.models import TableEvent
from tables.models.limits import MAX_TRAUMA
from tables.services.core import ServiceError, append_event, change_pool
from tables.services.momenta.common import check_pool_seen, lock_for_play
from tables.words.said import said


def record_trauma(
    campaign_id: int, actor, character_id: int, points: int, *, expected: int | None = None
) -> TableEvent:
    """A character suffers trauma: +1 Momentum per point (PM-03), capped at 6 with the
    loss logged (PM-04); none during character creation (PM-12). The GM, or the owner
    where the campaign lets players declare it (players_declare_edges)."""
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_TRAUMA:
        raise ServiceError(
            gettext("Trauma is a whole number of points from 1 to %(max_trauma)s.")
            % {"max_trauma": MAX_TRAUMA}
        )
    with transaction.atomic():
        campaign, membership, character = lock_for_play(campaign_id, actor, character_id)
        if not (membership.is_gm or campaign.players_declare_edges):
            raise ServiceError(
                gettext(
                    "At this table the GM records trauma (it gains Momentum, PM-03): tell the GM. "
                    "Nothing was recorded."
                )
            )
        # Trauma gains Momentum (none in creation, PM-12): a move since matters only
        # if more of the gain is now lost beyond the cap (PM-04).
        check_pool_seen(character, "momentum", expected, 0 if character.in_creation else points)
        try:
            _, entries = suffer_trauma(
                PersonalMomentum(character.momentum, character.name),
                points,
                creation=character.in_creation,
            )
        except RulesError as error:
            raise ServiceError(str(error)) from None
        changes = [
            change_pool(
                campaign,
                "momentum",
                e.delta + e.lost,
                e.reason,
                character=character,
                reason_words=e.reason_words,
            )  # fmt: skip
            for e in entries
        ]
        return append_event(
            campaign, events.TRAUMA, actor, _trauma_payload(character, points), changes=changes
        )


def _trauma_payload(character, points: int) -> dict:
    creation = gettext(" (character creation: no Momentum, PM-12)") if character.in_creation else ""
    return {
        "character_id": character.pk,
        "character": character.name,
        "points": points,
        "creation": character.in_creation,
        **said(
            gettext_noop("%(character)s suffers trauma: %(points)s%(creation)s."),
            character=character.name,
            points=points,
            creation=creation,
        ),
    }

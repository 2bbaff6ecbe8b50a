"""The table page's context: the campaign, its cards and the log's first page, for one
member's audience (templates/tables/table.html)."""

from __future__ import annotations

from typing import Any

from tables.live.log_filters import SHOWS as LOG_SHOWS
from tables.live.log_page import log_page
from tables.live.render import LOG_LIMIT, ws_path
from tables.models import Campaign, Membership
from tables.presenters.conflicts import tracker_context
from tables.presenters.scene_board import board_context
from tables.presenters.table import audience_for, base_context, sheet_rollers, table_characters


def table_context(
    campaign_id: int, membership: Membership, show: str = "all", at: int | None = None
) -> dict[str, Any]:
    """Everything templates/tables/table.html needs; the log's first page, filtered by `show`
    (with `at`, a seq: the page that starts at that entry, as the recap links to it).

    The campaign row is read first: its last_seq is the page's cursor, and the
    pools and cards read after it are at least that new. The socket then
    replays whatever committed after last_seq, so nothing falls in between.
    """
    campaign = Campaign.objects.get(pk=campaign_id)
    audience = audience_for(membership)
    before = at + 1 if at is not None else None
    page = log_page(
        campaign, audience, before=before, show=show, limit=LOG_LIMIT, viewer=membership.user_id
    )
    context = base_context(campaign, audience)
    # The harm tracks are drawn in each character's box, outside the card a roll pushes.
    characters = list(table_characters(campaign).prefetch_related("harm_tracks"))
    context.update(
        membership=membership,
        characters=characters,
        sheet_rollers=sheet_rollers(membership, characters),
        log=page.entries,
        log_page=page,
        log_shows=LOG_SHOWS.items(),
        last_seq=campaign.last_seq,
        ws_path=ws_path(campaign.pk),
        **board_context(campaign, membership.is_gm),
        **tracker_context(campaign, membership.is_gm),
    )
    return context

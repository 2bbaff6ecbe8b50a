"""A line's session and adventure starts at the table (GL-07): the pools rules/starts.py
sets, written through the ledger. Called inside the caller's transaction, with the
campaign locked, after GL-02's refill (Conan's Doom is read from the refilled Fortune)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from rules import starts
from rules.pools import GROUP_MOMENTUM, THREAT
from rules.sentences import Reason, words
from tables import events
from tables.models import Campaign, TableEvent
from tables.services.core import Change, append_event, change_pool


def _set(campaign: Campaign, pool: str, value: int | None, reason: Reason) -> list[Change]:
    """One ledger line setting `pool` to `value`, even when already there (PM-13)."""
    if value is None:
        return []
    current = getattr(campaign, pool)
    return [change_pool(campaign, pool, value - current, reason, fresh=True)]


def _player_characters(campaign: Campaign):
    return campaign.characters.filter(is_npc=False)


def session_start_changes(campaign: Campaign, occasion: dict) -> list[Change]:
    """GL-07, Conan: group Momentum to 0 and Doom to the player characters' Fortune, when
    the campaign's setting says so; nothing on the other lines. `occasion` is a stored
    sentence (words()), like the reasons made of it."""
    if not campaign.session_start_from_fortune or not campaign.uses_group_economy:
        return []
    fortunes = _player_characters(campaign).values_list("determination", flat=True)
    start = starts.session_start(campaign.line.key, fortunes)
    line = campaign.book_line
    momentum = words(
        gettext_noop("%(occasion)s: %(pool)s set to 0 (%(line)s, GL-07)"),
        occasion=occasion,
        pool=words(line.group_pool),
        line=words(line.title),
    )
    doom = words(
        gettext_noop("%(occasion)s: %(pool)s set to the player characters' %(fortune)s (GL-07)"),
        occasion=occasion,
        pool=words(line.gm_pool),
        fortune=words(line.personal_pool),
    )
    return _set(campaign, GROUP_MOMENTUM, start.group_momentum, momentum) + _set(
        campaign, THREAT, start.gm_pool, doom
    )


def adventure_threat_changes(campaign: Campaign, occasion: dict) -> list[Change]:
    """GL-07, STA: a new mission sets Threat to 2 per player character (ruling GL-R2),
    when the campaign's setting says so; nothing on the other lines."""
    if not campaign.mission_sets_threat:
        return []
    count = _player_characters(campaign).count()
    start = starts.adventure_start(campaign.line.key, count)
    reason = words(
        gettext_noop("%(occasion)s: %(pool)s set to 2 per player character (%(line)s, GL-07)"),
        occasion=occasion,
        pool=words(campaign.book_line.gm_pool),
        line=words(campaign.book_line.title),
    )
    return _set(campaign, THREAT, start.gm_pool, reason)


def _summary(summary) -> dict:
    return summary if isinstance(summary, dict) else {"summary": summary}


def log_threat(campaign: Campaign, actor, changes: list[Change], summary) -> TableEvent | None:
    """The Threat a start set, in its own event: players see it only if Threat is shown
    (MO-13), so it cannot ride on the public session or mission event."""
    threat = [c for c in changes if c.pool == THREAT]
    if not threat:
        return None
    audience = TableEvent.Audience.ALL if campaign.threat_visible else TableEvent.Audience.GM
    return append_event(
        campaign,
        events.POOL_ADJUSTED,
        actor,
        # `summary`: a sentence, or said()'s pair (worded again for each reader)
        {"pool": THREAT, "character_id": None, **_summary(summary)},
        audience=audience,
        changes=threat,
    )

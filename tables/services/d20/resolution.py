"""Closing a test's Momentum (MO-04 … MO-07, CT-04, CT-R1, MO-R1): the holder's "Done",
and the scene's end closing every test still open (sessions.end_scene)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.ledger import GROUP_MOMENTUM, THREAT
from rules.momentum import GM_SIDE, Resolution, Threat
from tables import events
from tables.errors import refused_by_rules
from tables.models import Campaign, Character, Contest, D20Test, TableEvent
from tables.policy.access import audience_of, can_control
from tables.policy.d20_records import holder_of, ledger_json, ledger_of
from tables.services.core import (
    Change,
    append_event,
    lock_campaign,
    players_see,
    require_playing,
)
from tables.services.d20.contests import contest_view
from tables.services.d20.pools import apply_entries, group_pool, keep_secret
from tables.services.d20.spends import open_for_spending
from tables.words.said import resolution_words, said, stored, words


def resolve_test(campaign_id: int, actor, test_id: int) -> TableEvent:
    """“Done”: close the test's Momentum (MO-04, MO-05, MO-06, CT-04, CT-R1).

    Unspent roll Momentum saves to the group pool up to 6; what does not fit
    is lost, and bonus Momentum is always lost; the event says how much. A GM
    character's unspent Momentum goes to Threat when the campaign's CT-R1
    ruling is on. Closing a contest's active test ends the contest.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = open_for_spending(campaign, membership, test_id)
        holder = holder_of(record)
        if not can_control(membership, holder):
            raise PermissionDenied(
                gettext("Only %(holder)s's player or the GM can close this test.")
                % {"holder": holder.name}
            )
        return _close(campaign, actor, record, holder)


def close_open_tests(campaign: Campaign, actor) -> list[TableEvent]:
    """MO-04, MO-07: the scene ends, so every test still open is closed as its “Done”
    would close it (saved to the pool up to its cap, the rest lost), before the scene's
    loss is taken; one resolution event each, in the order rolled. `campaign` is locked
    by the caller (sessions.end_scene), whose GM may close any test.

    MO-R1 (ruling): a secret test still hidden saves only into pools the players do not
    see (TB-03); what it would save where they would see it is lost instead, and only
    the GM's log says so."""
    open_tests = campaign.d20_tests.exclude(state=D20Test.State.RESOLVED).exclude(
        role=D20Test.Role.OPPOSER
    )
    return [
        _close(campaign, actor, record, holder_of(record), scene_end=True)
        for record in open_tests.select_related("character", "contest").order_by("pk")
    ]


def _close(campaign, actor, record: D20Test, holder: Character, scene_end=False) -> TableEvent:
    """Resolve `record`'s ledger (MO-04 … MO-06, CT-R1, MO-R1), write it, announce it."""
    ledger = ledger_of(record)
    resolution = _resolution(campaign, ledger)
    if scene_end and record.hidden:
        if any(players_see(campaign, e.pool) for e in resolution.entries):
            resolution = _resolution(campaign, ledger, save=False)  # MO-R1: lost, unseen
    changes = apply_entries(campaign, resolution.entries, who=holder.name)
    keep_secret(
        campaign,
        record.hidden,
        changes,
        gettext("Reveal the test before its unspent Momentum is saved, or spend it first."),
    )
    data = ledger_json(resolution.ledger, record.ledger)
    data["resolution"] = _resolution_json(ledger.side, resolution, changes, campaign.book_line)
    record.ledger = data
    record.state = D20Test.State.RESOLVED
    record.save(update_fields=["ledger", "state"])
    parts = {"who": holder.name, "pool": words(campaign.book_line.group_pool)}
    parts["summary"] = data["resolution"]["summary_words"]
    if scene_end:  # MO-07: the scene's end closed it, not its holder
        summary = said(
            gettext_noop("The scene ends: %(who)s's open %(pool)s is resolved: %(summary)s."),
            **parts,
        )
    else:
        summary = said(gettext_noop("%(who)s's %(pool)s is resolved: %(summary)s."), **parts)
    payload = {
        "test_id": record.pk,
        "character_id": holder.pk,
        "character": holder.name,
        "resolution": data["resolution"],
        "spends": data["spends"],
        **summary,
    }
    kind = events.D20_RESOLVED
    if record.role == D20Test.Role.ACTIVE:
        kind = _end_contest(record, payload)
    audience = audience_of(record)
    return append_event(campaign, kind, actor, payload, audience=audience, changes=changes)


def _resolution(campaign: Campaign, ledger, save: bool = True) -> Resolution:
    """The rules' resolution of `ledger` against the campaign's pools as they are now."""
    with refused_by_rules():
        return ledger.resolve(
            group_pool(campaign),
            threat=Threat(campaign.threat),
            gm_momentum_to_threat=campaign.gm_momentum_to_threat,
            group_pool=campaign.book_line.group_pool,  # GL-01, worded when drawn
            gm_pool=campaign.book_line.gm_pool,
            save=save,
        )


def _resolution_json(side: str, resolution: Resolution, changes: list[Change], line) -> dict:
    """What was saved and lost, worked out from the lines just written, in the rules' one
    wording, so text and ledger cannot disagree (MO-04, MO-05, MO-06)."""
    saved = sum(c.delta for c in changes)
    lost_overflow = sum(c.lost for c in changes)
    lost = (lost_overflow, resolution.lost_bonus, resolution.lost_unsaved)
    sentence = resolution_words(side == GM_SIDE, saved, lost, line)
    return {
        "saved": saved,
        "saved_to": THREAT if side == GM_SIDE else GROUP_MOMENTUM,
        "lost_overflow": lost_overflow,
        "lost_bonus": resolution.lost_bonus,
        "lost_unsaved": resolution.lost_unsaved,
        "lost": lost_overflow + resolution.lost_bonus + resolution.lost_unsaved,
        **stored(sentence),
    }


def _end_contest(record: D20Test, payload: dict) -> str:
    """Closing the active test ends its contest (CT-04): the payload names the winner."""
    contest = record.contest
    contest.state = Contest.State.RESOLVED
    contest.active_won = bool(record.ledger.get("contest_won"))
    contest.save(update_fields=["state", "active_won"])
    payload["contest"] = contest_view(contest)
    winner = record.character if contest.active_won else contest.opposer
    payload.update(
        said(
            gettext_noop("%(winner)s wins the contest (%(opposer)s against %(active)s). %(rest)s"),
            winner=winner.name,
            opposer=contest.opposer.name,
            active=contest.active.name,
            rest=payload["summary_words"],
        )
    )
    return events.CONTEST_RESOLVED

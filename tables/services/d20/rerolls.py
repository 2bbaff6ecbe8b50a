"""Determination rerolls (T-04): with the GM's leave, before any Momentum is spent."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from rules.d20 import determination_reroll as rules_determination_reroll
from tables import events
from tables.errors import refused_by_rules
from tables.models import Campaign, D20Test, TableEvent
from tables.policy.access import audience_of, require_control
from tables.policy.d20_records import fresh_ledger, result_json, result_of
from tables.services.core import ServiceError, append_event, lock_campaign, require_playing
from tables.services.d20.checks import visible_test_record
from tables.services.d20.pools import apply_entries, keep_secret
from tables.services.d20.tests import roll_payload
from tables.words.said import counted, named, said, successes
from tables.words.said import words as said_words


def determination_reroll(
    campaign_id: int, actor, test_id: int, indices: Sequence[int], *, rng=None
) -> TableEvent:
    """T-04: with the GM's leave, spend 1 Determination to reroll chosen dice of one's
    own pool (never assistance dice). Only before any Momentum is spent."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = visible_test_record(campaign, membership, test_id)
        character = record.character
        require_control(
            membership,
            character,
            gettext("%(character)s is not yours to play.") % {"character": character.name},
        )
        _check_rerollable(campaign, record)
        before = record.result
        indices = [int(i) for i in indices]
        reroll = _reroll(campaign, record, indices, rng)
        changes = apply_entries(campaign, reroll.entries, who=character.name, character=character)
        keep_secret(campaign, record.hidden, changes, gettext("Reveal the test first."))
        record.result = result_json(reroll.result, record.spec)
        record.ledger = fresh_ledger(record, reroll.result)
        record.save(update_fields=["result", "ledger"])
        return append_event(
            campaign,
            events.D20_REROLL,
            actor,
            _reroll_payload(campaign, record, indices, before),
            audience=audience_of(record),
            changes=changes,
        )


def _reroll(campaign: Campaign, record: D20Test, indices: list[int], rng):
    """The rules' reroll of the chosen dice, paid from the character's current pool."""
    line, character = campaign.line, record.character
    character.refresh_from_db(fields=["determination"])
    with refused_by_rules():
        return rules_determination_reroll(
            result_of(record),
            indices,
            determination=character.determination,
            holder=character.name,
            # Fallout's Miss Fortune needs no leave (GL-02).
            gm_permits=record.determination_permitted or not line.reroll_needs_leave,
            rng=rng,
            once=line.reroll_once,
            most=line.reroll_most_dice,
            pool_name=campaign.book_line.personal_pool,  # GL-01, worded when shown
        )


def _reroll_payload(campaign: Campaign, record: D20Test, indices: list[int], before) -> dict:
    payload = roll_payload(
        record,
        indices=sorted(indices),
        faces_before=before["faces"],
        successes_before=before["successes"],
        line=campaign.line,
    )
    verdict = gettext_noop("passes") if record.result["passed"] else gettext_noop("fails")
    payload.update(
        said(
            gettext_noop("%(who)s spends %(pool)s to reroll %(dice)s: %(before)s → %(after)s, "
                         "%(verdict)s."),
            who=record.character.name,
            pool=named(campaign.book_line.personal_pool),
            dice=counted(len(indices), "%(n)s die", "%(n)s dice"),
            before=before["successes"],
            after=successes(record.result["successes"]),
            verdict=said_words(verdict),
        )
    )  # fmt: skip
    return payload


def _check_rerollable(campaign: Campaign, record: D20Test) -> None:
    """T-04, GL-02: an own test, in a line that rerolls, before Momentum is spent."""
    if record.role == D20Test.Role.OPPOSER:
        raise ServiceError(
            gettext("The opposer's roll has set the Difficulty; it is not rerolled.")
        )
    line = campaign.line
    if not line.rerolls_after:  # GL-02: that line spends it only as the test is rolled
        raise ServiceError(
            _("In %(line)s, %(pool)s is spent as you roll, not to reroll.")
            % {"line": line.title, "pool": line.personal_pool}
        )
    if record.state != D20Test.State.ROLLED:
        raise ServiceError(
            gettext("Determination rerolls come before Momentum is spent; this test is past that.")
        )

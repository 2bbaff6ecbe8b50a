"""The GM panel's commands: Threat, secret rolls, Determination leave, custom spends.

Same shape as services.py. Session start, scene end and pool adjustments are
services.start_session, services.end_scene and services.adjust_pool: the panel
calls those, nothing here repeats them. NPC rolls are services_d20.roll_d20_test
with an NPC (only a GM controls one).
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from rules.ledger import GM
from rules.momentum import Threat, custom_spend
from tables import events
from tables.errors import refused_by_rules
from tables.models import CustomSpend, TableEvent
from tables.policy.access import audience_of
from tables.policy.game_lines import catalogue
from tables.services.campaigns import update_campaign_settings
from tables.services.core import ServiceError, append_event, change_pool, lock_campaign, require_gm
from tables.services.d20 import visible_test_record
from tables.services.named import campaign_record, delete_named
from tables.services.reveal import reveal
from tables.words.said import said, successes, words

REASON_MAX = 200
THREAT_STEP_MAX = 50
NO_SUCH_SPEND = "There is no such custom spend."


def _threat_audience(campaign) -> str:
    """Threat is the GM's pool: its changes reach players only if it is shown (MO-13)."""
    return TableEvent.Audience.ALL if campaign.threat_visible else TableEvent.Audience.GM


def _amount(amount) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise ServiceError(gettext("Give a whole number of Threat, 1 or more."))
    if amount > THREAT_STEP_MAX:
        raise ServiceError(
            gettext("Change Threat by at most %(threat_step_max)s at a time.")
            % {"threat_step_max": THREAT_STEP_MAX}
        )
    return amount


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(gettext("Give a reason: every pool change is logged with one."))
    return reason[:REASON_MAX]


def add_threat(
    campaign_id: int, actor, amount: int, reason: str, *, expected: int | None = None
) -> TableEvent:
    """The GM adds Threat (MO-13). Players add to it only by paying costs in Threat
    (MO-08 and spends), never by hand."""
    return _change_threat(campaign_id, actor, amount, reason, expected, spend=False)


def spend_threat(
    campaign_id: int, actor, amount: int, reason: str, *, expected: int | None = None
) -> TableEvent:
    """Only the GM spends Threat (MO-13): a player is refused (PermissionDenied)."""
    return _change_threat(campaign_id, actor, amount, reason, expected, spend=True)


def _change_threat(campaign_id, actor, amount, reason, expected, *, spend: bool) -> TableEvent:
    amount, reason = _amount(amount), _reason(reason)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        with refused_by_rules():
            threat = Threat(campaign.threat)
            _after, entry = (
                threat.spend(amount, reason, actor=GM) if spend else threat.add(amount, reason)
            )
        change = change_pool(campaign, "threat", entry.delta, reason, expected=expected)
        words = (
            _("The GM spends {n} {pool}: {why}") if spend else _("The GM adds {n} {pool}: {why}")
        )
        summary = words.format(n=amount, pool=campaign.line.gm_pool, why=reason)  # GL-01
        return append_event(
            campaign,
            events.THREAT_SPENT if spend else events.THREAT_ADDED,
            actor,
            {"amount": amount, "summary": summary},
            audience=_threat_audience(campaign),
            changes=[change],
        )


def set_threat_visible(campaign_id: int, actor, visible: bool) -> TableEvent | None:
    """Show Threat to players, or hide it again (MO-13). A campaign setting, so this
    is services.update_campaign_settings; None when nothing changed."""
    return update_campaign_settings(campaign_id, actor, {"threat_visible": bool(visible)})


def permit_determination(campaign_id: int, actor, test_id: int) -> TableEvent:
    """T-04: the GM gives leave to spend Determination on this test."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        record = visible_test_record(campaign, membership, test_id)
        line = campaign.line
        if not line.reroll_needs_leave:  # GL-02: no reroll after the roll, or one without leave
            raise ServiceError(
                _("At a {line} table {pool} needs no leave from the GM.").format(
                    line=line.title, pool=line.personal_pool
                )
                if line.rerolls_after
                else _("At a {line} table {pool} buys no reroll after the roll.").format(
                    line=line.title, pool=line.personal_pool
                )
            )
        if record.determination_permitted:
            pool = campaign.line.personal_pool
            raise ServiceError(_("{pool} is already allowed on this test.").format(pool=pool))
        record.determination_permitted = True
        record.save(update_fields=["determination_permitted"])
        name = record.character.name
        return append_event(
            campaign,
            events.DETERMINATION_PERMITTED,
            actor,
            {
                "test_id": record.pk,
                "character_id": record.character_id,
                "character": name,
                **said(
                    gettext_noop("The GM allows %(who)s to spend %(pool)s on this test."),
                    who=name,
                    pool=words(campaign.book_line.personal_pool),
                ),
            },
            audience=audience_of(record),
        )


def reveal_test(campaign_id: int, actor, test_id: int) -> TableEvent:
    """TB-03: show a secret test to everyone; from now on its events reach all."""

    def announce(record) -> dict:
        result, name = record.result, record.character.name
        verdict = words(gettext_noop("passed") if result["passed"] else gettext_noop("failed"))
        return {
            "test_id": record.pk,
            "character_id": record.character_id,
            "character": name,
            "revealed_seq": record.event.seq if record.event_id else None,
            "spec": record.spec,
            "result": result,
            "state": record.state,
            **said(
                gettext_noop(
                    "The GM reveals a secret roll: %(name)s scored %(successes)s against "
                    "Difficulty %(difficulty)s and %(verdict)s."
                ),
                name=name,
                successes=successes(result["successes"]),
                difficulty=result["difficulty"],
                verdict=verdict,
            ),
        }

    return reveal(
        campaign_id,
        actor,
        lambda campaign, membership: visible_test_record(campaign, membership, test_id),
        announce,
    )


# A whole sentence per case: a translation may order the words its own way.
_SPEND_WORDS = {
    (True, True): gettext_noop("New Momentum spend: %(name)s (%(cost)s per use, repeatable)."),
    (True, False): gettext_noop("New Momentum spend: %(name)s (%(cost)s, once per test)."),
    (False, True): gettext_noop("Changed Momentum spend: %(name)s (%(cost)s per use, repeatable)."),
    (False, False): gettext_noop("Changed Momentum spend: %(name)s (%(cost)s, once per test)."),
}


def _spend_words(creating: bool, repeatable: bool) -> str:
    return _SPEND_WORDS[bool(creating), bool(repeatable)]


def save_custom_spend(
    campaign_id: int,
    actor,
    *,
    name: str,
    cost: int,
    repeatable: bool = False,
    description: str = "",
    spend_id: int | None = None,
) -> CustomSpend:
    """MO-14: the GM defines (or edits) a spend with a cost and whether it repeats."""
    name, description = _spend_terms(name, cost, description)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        if spend_id is None:
            spend = CustomSpend(campaign=campaign)
        else:
            spend = campaign_record(CustomSpend, campaign, spend_id, NO_SUCH_SPEND)
        with refused_by_rules():
            kind = custom_spend(name, cost, repeatable, description)
        _refuse_clash(campaign, spend, kind.key, name)
        creating = spend.pk is None
        _refuse_unchanged(spend, name, cost, bool(repeatable), description)
        spend.name, spend.cost = name, cost
        spend.repeatable, spend.description = bool(repeatable), description
        spend.save()
        append_event(
            campaign,
            events.CUSTOM_SPEND_SAVED,
            actor,
            {
                "spend_id": spend.pk,
                "name": name,
                "cost": cost,
                "repeatable": spend.repeatable,
                **said(
                    _spend_words(creating, spend.repeatable),
                    name=name,
                    cost=cost,
                ),
            },
        )
    return spend


def _spend_terms(name, cost, description) -> tuple[str, str]:
    """The spend's name (spaces folded) and description as the GM typed them, if the
    name and the cost are ones a spend may have."""
    name = re.sub(r"\s+", " ", (name or "").strip())
    description = (description or "").strip()[:200]
    if not name:
        raise ServiceError(gettext("Give the spend a name."))
    if len(name) > 60:
        raise ServiceError(gettext("A spend's name holds at most 60 characters."))
    if isinstance(cost, bool) or not isinstance(cost, int) or not 1 <= cost <= 20:
        raise ServiceError(gettext("A spend costs 1 to 20 Momentum."))
    return name, description


def _refuse_clash(campaign, spend: CustomSpend, key: str, name: str) -> None:
    # Two names that differ only in punctuation share a key: refuse the clash.
    others = {k: v for k, v in catalogue(campaign).items() if v.name != spend.name}
    if key in others or any(v.name.casefold() == name.casefold() for v in others.values()):
        raise ServiceError(gettext("There is already a spend called “%(name)s”.") % {"name": name})


def _refuse_unchanged(spend: CustomSpend, name, cost, repeatable, description) -> None:
    """An edit that saves the spend as it stands writes no event (issue 34)."""
    held = (spend.name, spend.cost, spend.repeatable, spend.description)
    if spend.pk is not None and held == (name, cost, repeatable, description):
        raise ServiceError(
            gettext("“%(name)s” already reads like this. Nothing was changed.") % {"name": name}
        )


def delete_custom_spend(campaign_id: int, actor, spend_id: int) -> TableEvent:
    """MO-14: the GM removes a custom spend; uses already made keep their record."""
    return delete_named(
        campaign_id,
        actor,
        CustomSpend,
        spend_id,
        kind=events.CUSTOM_SPEND_DELETED,
        missing=NO_SUCH_SPEND,
        summary=lambda name: said(gettext_noop("Momentum spend removed: %(name)s."), name=name),
    )

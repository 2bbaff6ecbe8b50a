"""Harm without damage (SC-06): Dune's defeat of a minor foe by one successful attack,
and a harm the GM marks by hand (a Dune defeat through an extended task, or any harm
a book gives that the table does not compute). Same lock, ledger and event as
services/harm.py, through the tracks' shared steps (harm_tracks.py)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import harm
from rules.errors import RulesError
from tables.models import Character, D20Test, TableEvent
from tables.services import attacks
from tables.services import harm_tracks as tracks
from tables.services.core import ServiceError, lock_campaign, require_gm
from tables.words.said import said, words

DEFEATS = "defeats"


def defeat_minor_foe(campaign, actor, test: D20Test, target: Character, reason: str):
    """SC-06 (Dune core rulebook, Conflict chapter): a passed attack on a minor foe
    defeats it: its Defeats track takes 1, ledgered as the test's hit. A foe not flagged
    minor is refused (nothing changes). Inside apply_d20_hit's lock."""
    kind = tracks.kind(campaign, DEFEATS)
    tracks.refuse_second_hit(d20_test=test)
    row = tracks.track(target, kind)
    try:
        hit = harm.defeat_hit(row.taken, row.maximum, target.minor_foe)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    step = tracks.move(row, hit.step.delta)
    values = {"who": target.name, "track": words(kind.label), "taken": step.after}
    values["max"] = row.maximum
    event = tracks.write(
        campaign,
        actor,
        target,
        [(kind, row, step)],
        reason or words(gettext_noop("%(who)s's attack"), who=test.character.name),
        audience=tracks.audience(row, secret=test.hidden),
        extra={"source_test_id": test.pk, "dealt": 0},
        summary=said(
            gettext_noop("%(who)s, a minor foe, is defeated (%(track)s %(taken)d of %(max)d)."),
            **values,
        ),
        sources={"d20_test": test},
    )
    attacks.mark_hit(test, event)
    return event


def mark_harm(
    campaign_id: int, actor, character_id: int, track: str, amount: int, reason: str
) -> TableEvent:
    """The GM marks `amount` on a track by hand, with a reason (SC-06: a Dune foe defeated
    through an extended task; the mirror of recovery). Never past the track's maximum;
    a full track is refused, nothing changes."""
    reason = tracks.reason(reason, required=True)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise ServiceError(_("Mark a whole number of 1 or more."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        kind = tracks.kind(campaign, track)
        target = tracks.target(campaign, character_id)
        row = tracks.track(target, kind)
        if row.taken >= row.maximum:
            # Read under the lock: of many presses at once, only those that fit write.
            raise ServiceError(
                _("%(who)s's %(track)s is full: there is nothing more to mark.")
                % {"who": target.name, "track": kind.label}
            )
        step = tracks.move(row, amount)
        values = {"who": target.name, "n": step.delta, "track": words(kind.label)}
        values.update(taken=step.after, max=row.maximum)
        return tracks.write(
            campaign,
            actor,
            target,
            [(kind, row, step)],
            reason,
            audience=tracks.audience(row),
            extra={},
            summary=said(
                gettext_noop("%(who)s takes %(n)d %(track)s (%(taken)d of %(max)d)."), **values
            ),
            sources={},
        )

"""Secret rolls (TB-03): what a reveal requires, and the reveal itself.

A 2d20 test (gm.reveal_test) and a Momenta roll (momenta.reveal_roll) are
revealed the same way; only how the record is fetched and what the log says
differ, so those two are passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction
from django.utils.translation import gettext

from tables import events
from tables.models import Campaign, Membership, TableEvent
from tables.services.core import ServiceError, append_event, lock_campaign, require_gm


def require_hidden(record) -> None:
    """TB-03: only a secret roll not yet revealed can be revealed (D20Test, MomentaRoll)."""
    if not record.secret:
        raise ServiceError(gettext("That roll was never secret."))
    if record.revealed:
        raise ServiceError(gettext("That roll is already revealed."))


def reveal(
    campaign_id: int,
    actor,
    fetch: Callable[[Campaign, Membership], object],
    announce: Callable[[object], dict],
    *,
    also_save: Iterable[str] = (),
    event_field: str | None = None,
) -> TableEvent:
    """TB-03: the GM shows a secret roll to everyone; from now on its events reach all.

    `fetch(campaign, membership)` is the record as the GM sees it; `announce(record)`
    is the payload of the "roll_revealed" event, called once `revealed` is set (it may
    update fields named in `also_save`). `event_field` names the record's field that
    keeps the reveal event, if it has one.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        record = fetch(campaign, membership)
        require_hidden(record)
        record.revealed = True
        event = append_event(campaign, events.ROLL_REVEALED, actor, announce(record))
        fields = ["revealed", *also_save]
        if event_field is not None:
            setattr(record, event_field, event)
            fields.append(event_field)
        record.save(update_fields=fields)
        return event

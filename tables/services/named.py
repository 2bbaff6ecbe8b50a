"""The GM's named records of a campaign (roll templates, custom patterns, custom
spends): finding one and removing one, the same way for each kind."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from tables.models import Campaign, TableEvent
from tables.services.core import ServiceError, append_event, lock_campaign, require_gm


def campaign_record(model, campaign: Campaign, record_id: int, missing: str):
    """The campaign's `model` record `record_id`; ServiceError(`missing`) if there is none."""
    record = model.objects.filter(campaign=campaign, pk=record_id).first()
    if record is None:
        raise ServiceError(missing)
    return record


def delete_named(
    campaign_id: int,
    actor,
    model,
    record_id: int,
    *,
    kind: str,
    missing: str,
    summary: Callable[[str], dict],
    check: Callable[[Campaign], None] | None = None,
) -> TableEvent:
    """The GM removes a named record; what was made with it keeps its copy.

    `check(campaign)` may refuse (ServiceError) once the record is found; the
    event `kind` carries the name and `summary(name)`.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        record = campaign_record(model, campaign, record_id, missing)
        if check is not None:
            check(campaign)
        name = record.name
        record.delete()
        return append_event(campaign, kind, actor, {"name": name, **summary(name)})

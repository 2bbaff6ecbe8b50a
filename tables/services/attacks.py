"""An attack's target (SC-02): named in the roll composer, kept with the roll, offered to
the GM once the roll resolves, and taken back off the target's tracks when the GM voids
the roll.

A Momenta roll keeps its target in its card (the event payload: `target_id`, `target`), a
2d20 test in its spec; once the GM has applied the hit, `hit_seq` beside them names the
harm event, so the card says so on any later draw without a query.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import Character, MomentaRoll, TableEvent
from tables.services.core import ServiceError


def target_fields(campaign, roller: Character, target_id, *, kind: str = "attack") -> dict:
    """{"target_id", "target"} for a roll that names a target, {} for one that does not;
    a target outside the campaign, the roller themself, or a roll that is no attack is
    refused (nothing is rolled)."""
    if target_id is None:
        return {}
    if kind != "attack":
        raise ServiceError(_("Only an attack names a target."))
    target = Character.objects.filter(campaign=campaign, pk=target_id).first()
    if target is None:
        raise ServiceError(_("The target is not in this campaign."))
    if target.pk == roller.pk:
        raise ServiceError(_("A character does not attack themself: choose another target."))
    return {"target_id": target.pk, "target": target.name}


def refuse_if_voided(record) -> None:
    """A voided roll deals nothing (issue 15's correction stands)."""
    if (
        record.event_id
        and TableEvent.objects.filter(pk=record.event_id, voided_by__isnull=False).exists()
    ):
        raise ServiceError(_("That roll was voided: it deals no damage."))


def mark_hit(record, event: TableEvent) -> None:
    """Name the harm event on the roll, so its card shows the hit as applied."""
    if isinstance(record, MomentaRoll):
        record.card = dict(record.card, hit_seq=event.seq)
        record.save(update_fields=["card"])
    else:
        record.spec = dict(record.spec, hit_seq=event.seq)
        record.save(update_fields=["spec"])

"""Which Challenge (Combat) dice roll (GL-04) goes with a 2d20 test: the roller's own,
made after the test. An extended task's Work takes it (SC-03, services/extended_tasks.py),
and an attack's card fills the GM's hit with it (SC-02, attack_hit.html). Reads only."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Subquery

from tables import events
from tables.models import D20Test, TableEvent


def challenge_roll_after(test: D20Test, *, before_next_test: bool = False) -> TableEvent | None:
    """The newest Challenge dice roll of `test`'s character made after the test (a roll
    is never voided: corrections.voidable), in one query. `before_next_test`: only one
    made before that character's next test. A hit records no roll (services/harm.py),
    so a roll belongs to the test it follows: one test's hit never takes the roll of
    the character's later attack."""
    rolls = TableEvent.objects.filter(
        campaign_id=test.campaign_id,
        kind=events.CHALLENGE_ROLL.name,
        payload__roller_id=test.character_id,
    )
    if test.event_id is not None:  # rows from before tests had events: any roll
        rolls = rolls.filter(seq__gt=Subquery(_seq_of(test.event_id)))
    if before_next_test:
        later = D20Test.objects.filter(
            campaign_id=test.campaign_id,
            character_id=test.character_id,
            event__seq__lt=OuterRef("seq"),
        )
        if test.event_id is not None:
            later = later.filter(event__seq__gt=Subquery(_seq_of(test.event_id)))
        rolls = rolls.exclude(Exists(later.exclude(pk=test.pk)))
    return rolls.order_by("-seq").first()


def _seq_of(event_id: int):
    return TableEvent.objects.filter(pk=event_id).values("seq")[:1]

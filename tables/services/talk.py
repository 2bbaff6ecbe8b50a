"""Table talk (issue 15): players and GMs post to the table's log.

In character or out of character, for everyone at the table (events.TALK); or to the
GM, seen by the GMs and the sender only (events.TALK_PRIVATE, the PRIVATE audience
rule: tables/services/access.py sees_event). Either way the message is an event like
any other: ordered, replayed, pushed live, exported. Observers watch; they do not post.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext_lazy, ngettext_lazy

from tables import events
from tables.models import Membership, TableEvent
from tables.services.access import has_role, membership_of
from tables.services.core import ServiceError, append_event, lock_campaign

IN_CHARACTER, OUT_OF_CHARACTER, TO_GM = "ic", "ooc", "gm"
# Lazy: worded when drawn, in the reader's language (the keys are what is stored).
MODES = {
    IN_CHARACTER: gettext_lazy("In character"),
    OUT_OF_CHARACTER: gettext_lazy("Out of character"),
    TO_GM: gettext_lazy("To the GM"),
}
MAX_LENGTH = 1000  # characters: a few paragraphs, and a card that stays readable

EMPTY = gettext_lazy("Write a message first.")
TOO_LONG = ngettext_lazy(
    "A message holds at most %(count)d character.",
    "A message holds at most %(count)d characters.",
    "count",
) % {"count": MAX_LENGTH}
NO_MODE = gettext_lazy("Say it in character, out of character or to the GM.")
OBSERVERS = gettext_lazy("Observers watch the table; only players and GMs post to it.")


def clean_text(text: str) -> str:
    """The message as posted: control characters other than line breaks and tabs removed
    (a NUL cannot even be stored in PostgreSQL's JSON), blank lines at the ends trimmed."""
    kept = "".join(
        c for c in (text or "") if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs")
    )
    return kept.strip()


def post_talk(
    campaign_id: int, actor, mode: str, text: str, *, membership: Membership | None = None
) -> TableEvent:
    """A player or GM says something at the table; nothing changes if it is refused.

    A `membership` the caller read for this command is not read again under the lock
    (a role change committing meanwhile is as if it came just after)."""
    text = clean_text(text)
    if mode not in MODES:
        raise ServiceError(NO_MODE)
    if not text:
        raise ServiceError(EMPTY)
    if len(text) > MAX_LENGTH:
        raise ServiceError(TOO_LONG)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        held = membership is not None and (membership.campaign_id, membership.user_id) == (
            campaign.pk,
            actor.pk,
        )
        if not has_role(membership if held else membership_of(actor, campaign), "player"):
            raise PermissionDenied(OBSERVERS)
        payload = {"mode": mode, "text": text}
        if mode == TO_GM:
            # Stored for the GMs; the sender sees it as its actor (events.PRIVATE).
            return append_event(
                campaign, events.TALK_PRIVATE, actor, payload, audience=TableEvent.Audience.GM
            )
        return append_event(campaign, events.TALK, actor, payload)

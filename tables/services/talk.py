"""Table talk (issue 15): players and GMs post to the table's log.

In character or out of character, for everyone at the table (events.TALK); or to the
GM, seen by the GMs and the sender only (events.TALK_PRIVATE, the PRIVATE audience
rule: tables/policy/access.py sees_event); or a whisper to one player (issue 37,
events.TALK_WHISPER), seen by its sender, its recipient and the GMs, unless the
campaign keeps players' whispers to each other from the GMs (gm_reads_whispers). Either
way the message is an event like any other: ordered, replayed, pushed live, exported.
Observers watch; they do not post.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext_lazy, ngettext_lazy

from tables import events
from tables.models import Membership, TableEvent
from tables.policy.access import has_role, membership_of
from tables.services.core import ServiceError, append_event, lock_campaign

IN_CHARACTER, OUT_OF_CHARACTER, TO_GM, WHISPER = "ic", "ooc", "gm", "whisper"
# Lazy: worded when drawn, in the reader's language (the keys are what is stored).
MODES = {
    IN_CHARACTER: gettext_lazy("In character"),
    OUT_OF_CHARACTER: gettext_lazy("Out of character"),
    TO_GM: gettext_lazy("To the GM"),
    WHISPER: gettext_lazy("Whisper to one player"),
}
MAX_LENGTH = 1000  # characters: a few paragraphs, and a card that stays readable

EMPTY = gettext_lazy("Write a message first.")
TOO_LONG = ngettext_lazy(
    "A message holds at most %(count)d character.",
    "A message holds at most %(count)d characters.",
    "count",
) % {"count": MAX_LENGTH}
NO_MODE = gettext_lazy("Say it in character, out of character, to the GM or as a whisper.")
NO_RECIPIENT = gettext_lazy("Choose another player of this campaign to whisper to.")
OBSERVERS = gettext_lazy("Observers watch the table; only players and GMs post to it.")


def clean_text(text: str) -> str:
    """The message as posted: control characters other than line breaks and tabs removed
    (a NUL cannot even be stored in PostgreSQL's JSON), blank lines at the ends trimmed."""
    kept = "".join(
        c for c in (text or "") if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs")
    )
    return kept.strip()


def post_talk(
    campaign_id: int,
    actor,
    mode: str,
    text: str,
    *,
    membership: Membership | None = None,
    recipient_id: int | None = None,
) -> TableEvent:
    """A player or GM says something at the table; nothing changes if it is refused.

    A whisper names its `recipient_id`: another player of this campaign, read under the lock.
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
        membership = membership if held else membership_of(actor, campaign)
        if not has_role(membership, "player"):
            raise PermissionDenied(OBSERVERS)
        payload = {"mode": mode, "text": text}
        if mode == WHISPER:
            return _whisper(campaign, actor, membership, payload, recipient_id)
        if mode == TO_GM:
            # Stored for the GMs; the sender sees it as its actor (events.PRIVATE).
            return append_event(
                campaign, events.TALK_PRIVATE, actor, payload, audience=TableEvent.Audience.GM
            )
        return append_event(campaign, events.TALK, actor, payload)


def _whisper(campaign, actor, membership: Membership, payload: dict, recipient_id) -> TableEvent:
    """A whisper to one player (issue 37). A player's to another player reaches the GMs
    only where the campaign lets them read it; a GM's is the GMs' as any of their own."""
    players = Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER)
    recipient = None
    if isinstance(recipient_id, int) and recipient_id != actor.pk:
        recipient = players.select_related("user").filter(user_id=recipient_id).first()
    if recipient is None:  # not a player here (an observer, a GM, gone, oneself): refused
        raise ServiceError(NO_RECIPIENT)
    payload |= {"recipient_id": recipient.user_id, "recipient": recipient.user.get_username()}
    gm_reads = membership.is_gm or campaign.gm_reads_whispers
    audience = TableEvent.Audience.GM if gm_reads else TableEvent.Audience.NAMED
    return append_event(campaign, events.TALK_WHISPER, actor, payload, audience=audience)


def whisper_recipients(campaign_id: int, actor) -> list[tuple[int, str]]:
    """Whom `actor` may whisper to: the campaign's other players, (user id, name) by name.
    Read-only: the composer's choices; post_talk checks the one chosen again."""
    players = Membership.objects.filter(campaign_id=campaign_id, role=Membership.Role.PLAYER)
    users = players.exclude(user_id=actor.pk).select_related("user")
    named = [(m.user_id, m.user.get_username()) for m in users]
    return sorted(named, key=lambda pair: pair[1].casefold())

"""Who may do what at a table: membership, roles, control of a character, secrecy.

Services, views, presenters, forms and consumers all ask here, so a rule about
who may act, or see, is written once. Only models and the event registry are
imported: forms and presenters depend on this module without depending on services.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from tables import events
from tables.models import Campaign, Character, Membership, Participant, TableEvent

# Roles that satisfy each requirement.
ALLOWED = {
    "member": {Membership.Role.GM, Membership.Role.PLAYER, Membership.Role.OBSERVER},
    "player": {Membership.Role.GM, Membership.Role.PLAYER},
    "gm": {Membership.Role.GM},
}


def membership_of(user, campaign: Campaign | int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    # campaign__pk, not campaign_id: an id beyond the column's range (a socket's path)
    # finds none instead of raising OverflowError.
    return Membership.objects.filter(campaign__pk=campaign_id, user=user).first()


def has_role(membership: Membership | None, role: str) -> bool:
    """Does the membership satisfy `role` ("member", "player": GMs and players, "gm")?"""
    return membership is not None and membership.role in ALLOWED[role]


# --- Control of a character -------------------------------------------------------------


def can_control(membership: Membership, character: Character) -> bool:
    """Owner and GMs act for a character (roll, edit); observers never do."""
    if membership.role == Membership.Role.GM:
        return True
    return membership.role == Membership.Role.PLAYER and character.owner_id == membership.user_id


def require_control(
    membership: Membership | None,
    character: Character,
    refusal: str = "",
) -> None:
    """can_control, or PermissionDenied with `refusal` (worded for the reader; by default
    "That character is not yours.")."""
    if membership is None or not can_control(membership, character):
        # The 403 page shows it as it is: in the reader's language, never a bare msgid.
        raise PermissionDenied(refusal or gettext("That character is not yours."))


def controllable(
    campaign: Campaign, membership: Membership, everyone: list[Character] | None = None
) -> list[Character]:
    """The characters this member may roll for: GMs any, players their own, observers none.
    Player characters first, then NPCs, each by name. `everyone`: the campaign's
    characters, if the caller read them already."""
    if everyone is None:
        everyone = campaign.characters.select_related("owner")
    ordered = sorted(everyone, key=lambda c: (c.is_npc, c.name))
    return [c for c in ordered if can_control(membership, c)]


def default_character(characters, membership: Membership) -> Character | None:
    """The character a composer shows first: a player's own first PC; a GM's first
    NPC (else the first character). `characters`: those the member may roll for."""
    characters = list(characters)
    acting = acting_character_of(membership, characters)
    if acting is not None:
        return acting
    if membership.is_gm:
        npcs = [c for c in characters if c.is_npc]
        return (npcs or characters or [None])[0]
    own = [c for c in characters if c.owner_id == membership.user_id and not c.is_npc]
    return (own or characters or [None])[0]


def acting_character_of(membership: Membership, characters) -> Character | None:
    """Issue 24: the character acting in the running conflict, when it is this member's
    (a player's own PC; an NPC for a GM), so their composer shows it first."""
    acting = (
        Participant.objects.filter(
            conflict__campaign_id=membership.campaign_id,
            conflict__ended_at__isnull=True,
            acting=True,
        )
        .values_list("character_id", flat=True)
        .first()
    )
    for character in characters:
        if character.pk != acting:
            continue
        if character.is_npc if membership.is_gm else character.owner_id == membership.user_id:
            return character
    return None


# --- Secrecy (TB-03) ----------------------------------------------------------------------
# A secret roll not yet revealed is visible only to the GM. The records that can be
# secret (D20Test, MomentaRoll) share tables.models.secret.SecretRecord, whose
# `hidden` property is the same condition as HIDDEN, for one record.

HIDDEN = Q(secret=True, revealed=False)


def seen_by(membership: Membership, records: QuerySet) -> QuerySet:
    """The secret-capable records of `records` this member may see: GMs all, others
    none still hidden. Every read of a test or roll for a person goes through here."""
    return records if membership.is_gm else records.exclude(HIDDEN)


def still_secret(records: QuerySet) -> QuerySet:
    """The records still hidden: what the GM panel offers to reveal."""
    return records.filter(HIDDEN)


def audience_of(record) -> str:
    """Who may see an event about `record`: GMs only while it is hidden."""
    return TableEvent.Audience.GM if record.hidden else TableEvent.Audience.ALL


# --- Who sees an event: per role, and one person for a PRIVATE kind --------------------------
# Events for everyone reach everyone; GM-audience events reach GMs; a PRIVATE kind (a
# message to the GM, tables/events.py) is stored with the GM audience and reaches its
# actor too; a WHISPER kind reaches its actor and its recipient, and the GMs only if
# stored with the GM audience (NAMED: kept from them, issue 37). Every path that shows an
# event to a person (live push, replay, the log and its pages, a command's answer) asks
# here or uses events_seen_q, with the viewer's id.

PRIVATE_KINDS = frozenset(k.name for k in events.REGISTRY.values() if k.audience == events.PRIVATE)
# Issue 37: a whisper names two people, its actor and payload["recipient_id"].
WHISPER_KINDS = frozenset(k.name for k in events.REGISTRY.values() if k.audience == events.WHISPER)
NAMED_KINDS = PRIVATE_KINDS | WHISPER_KINDS


def private_viewers(event: TableEvent) -> frozenset[int]:
    """The people besides the GMs who see `event` (a private kind's actor, a whisper's
    sender and recipient); empty for every other kind."""
    if event.kind in PRIVATE_KINDS:
        return frozenset({event.actor_id} - {None})
    if event.kind in WHISPER_KINDS:
        return frozenset({event.actor_id, (event.payload or {}).get("recipient_id")} - {None})
    return frozenset()


def private_viewer(event: TableEvent) -> int | None:
    """The one person besides the GMs who sees a PRIVATE kind's `event` (its actor), or None."""
    return event.actor_id if event.kind in PRIVATE_KINDS else None


def sees_event(event: TableEvent, is_gm: bool, viewer_id: int | None) -> bool:
    """May this viewer (GM or not; their user id, None if unknown) see `event`?

    GMs see what is for everyone or for the GMs; a NAMED event (a whisper kept from the
    GMs) only those it names, GMs or not."""
    if event.audience == TableEvent.Audience.ALL:
        return True
    if is_gm and event.audience == TableEvent.Audience.GM:
        return True
    return viewer_id is not None and viewer_id in private_viewers(event)


def events_seen_q(viewer_id: int | None, *, is_gm: bool) -> Q:
    """sees_event as a filter on TableEvent rows."""
    audiences = (
        [TableEvent.Audience.ALL, TableEvent.Audience.GM] if is_gm else [TableEvent.Audience.ALL]
    )
    seen = Q(audience__in=audiences)
    if viewer_id is not None:
        seen |= Q(kind__in=PRIVATE_KINDS, actor_id=viewer_id, audience=TableEvent.Audience.GM)
        seen |= Q(kind__in=WHISPER_KINDS) & (
            Q(actor_id=viewer_id) | Q(payload__recipient_id=viewer_id)
        )
    return seen

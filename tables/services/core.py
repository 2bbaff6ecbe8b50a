"""The write path every command shares: lock, change a pool, append an event, check a role."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F

from tables.models import (
    GROUP_POOL_MAX,
    PERSONAL_MOMENTUM_MAX,
    Campaign,
    Character,
    Membership,
    PoolChange,
    TableEvent,
)
from tables.services.access import membership_of


class ServiceError(Exception):
    """A command that the rules or the state refuse; the message is for a player."""


class StaleState(ServiceError):
    """The pool changed since the page was drawn."""


@dataclass(frozen=True)
class Change:
    """A pool change applied inside the lock, to be written to the ledger."""

    pool: str
    delta: int
    after: int
    reason: str
    character: Character | None = None
    lost: int = 0


def lock_campaign(campaign_id: int) -> Campaign:
    """Lock the campaign row for the rest of the transaction.

    Two players spending the last point at once serialise here (PostgreSQL);
    on SQLite, IMMEDIATE transactions serialise every writer instead.
    """
    return Campaign.objects.select_for_update().get(pk=campaign_id)


CAMPAIGN_POOLS = {"group_momentum": GROUP_POOL_MAX, "threat": None}
CHARACTER_POOLS = {"momentum": PERSONAL_MOMENTUM_MAX, "resolve": None, "determination": None}


def change_pool(
    campaign: Campaign,
    pool: str,
    delta: int,
    reason: str,
    *,
    character: Character | None = None,
    expected: int | None = None,
) -> Change:
    """Add delta to a pool inside the caller's transaction.

    Gains beyond the cap are lost and reported (PM-04, MO-04); a spend below 0
    raises and changes nothing. `expected` is the value the person saw; if the
    pool moved since, StaleState is raised.
    """
    if character is None:
        if pool not in CAMPAIGN_POOLS:
            raise ValueError(f"unknown campaign pool {pool!r}")
        model, pk, cap = Campaign, campaign.pk, CAMPAIGN_POOLS[pool]
    else:
        if pool not in CHARACTER_POOLS:
            raise ValueError(f"unknown character pool {pool!r}")
        model, pk, cap = Character, character.pk, CHARACTER_POOLS[pool]
        if pool == "resolve":
            cap = model.objects.values_list("resolve_max", flat=True).get(pk=pk)
    current = model.objects.values_list(pool, flat=True).get(pk=pk)
    if expected is not None and expected != current:
        raise StaleState(
            f"{_pool_label(pool, character)} changed to {current} since your page was drawn; "
            "check the new value and try again."
        )
    target = current + delta
    if target < 0:
        raise ServiceError(
            f"Not enough {_pool_label(pool, character)}: {current} available, {-delta} needed."
        )
    lost = 0
    if cap is not None and target > cap:
        lost, target = target - cap, cap
    # Conditional update: a concurrent writer that slipped past the lock
    # (select_for_update is a no-op on SQLite) makes this match 0 rows.
    updated = model.objects.filter(pk=pk, **{pool: current}).update(
        **{pool: F(pool) + (target - current)}
    )
    if updated != 1:
        raise StaleState(f"{_pool_label(pool, character)} changed meanwhile; try again.")
    obj = character if character is not None else campaign
    setattr(obj, pool, target)
    return Change(
        pool=pool,
        delta=target - current,
        after=target,
        reason=reason,
        character=character,
        lost=lost,
    )


def players_see(campaign: Campaign, pool: str) -> bool:
    """Every member sees every pool (PM-13) but Threat, the GM's, unless shown (MO-13)."""
    return pool != "threat" or campaign.threat_visible


def _pool_label(pool: str, character: Character | None) -> str:
    label = PoolChange.Pool(pool).label
    return f"{character.name}'s {label}" if character is not None else label


def append_event(
    campaign: Campaign,
    kind: str,
    actor,
    payload: dict | None = None,
    *,
    audience: str = TableEvent.Audience.ALL,
    changes: list[Change] | tuple[Change, ...] = (),
) -> TableEvent:
    """Append the campaign's next event (and its ledger lines); the caller holds the lock."""
    Campaign.objects.filter(pk=campaign.pk).update(last_seq=F("last_seq") + 1)
    seq = Campaign.objects.values_list("last_seq", flat=True).get(pk=campaign.pk)
    campaign.last_seq = seq
    payload = dict(payload or {})
    payload.setdefault(
        "changes",
        [
            {
                "pool": c.pool,
                "character": c.character.name if c.character else None,
                "character_id": c.character.pk if c.character else None,
                "delta": c.delta,
                "after": c.after,
                "lost": c.lost,
                "reason": c.reason,
            }
            for c in changes
        ],
    )
    event = TableEvent.objects.create(
        campaign=campaign,
        seq=seq,
        kind=kind,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        payload=payload,
        audience=audience,
    )
    PoolChange.objects.bulk_create(
        PoolChange(
            event=event,
            campaign=campaign,
            character=c.character,
            pool=c.pool,
            delta=c.delta,
            after=c.after,
            lost=c.lost,
            reason=c.reason,
        )
        for c in changes
    )
    transaction.on_commit(lambda: _announce(event))
    return event


def _announce(event: TableEvent) -> None:
    # Imported late: the live layer depends on Channels, services must not
    # need it to change state.
    from tables.live.broadcast import announce

    announce(event)


_GM_ONLY = "Only the GM can do that."


def require_role(campaign: Campaign, actor, *roles: str) -> Membership:
    """The actor's membership if its role is one of `roles`, else PermissionDenied."""
    membership = membership_of(actor, campaign)
    if membership is None or membership.role not in roles:
        raise PermissionDenied(_GM_ONLY if roles == (Membership.Role.GM,) else "Not allowed.")
    return membership


def require_gm(campaign: Campaign, actor) -> Membership:
    return require_role(campaign, actor, Membership.Role.GM)


def require_playing(campaign: Campaign, actor) -> Membership:
    """GMs and players play (roll, spend, ask for help); observers only watch."""
    return require_role(campaign, actor, Membership.Role.GM, Membership.Role.PLAYER)


def character_in(campaign: Campaign, character_id) -> Character:
    """A character of this campaign, else a ServiceError a person can read."""
    character = Character.objects.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise ServiceError("That character is not in this campaign.")
    return character

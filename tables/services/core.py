"""The write path every command shares: lock, change a pool, append an event, check a role."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from rules import pools
from rules.errors import RulesError
from rules.sentences import Reason, english
from tables import events
from tables.errors import ServiceError, StaleState  # noqa: F401  (services import them here)
from tables.models import (
    Campaign,
    Character,
    Membership,
    PoolChange,
    TableEvent,
)
from tables.policy.access import has_role, membership_of
from tables.services import idempotency
from tables.services.publish import publish


@dataclass(frozen=True)
class Change:
    """A pool change applied inside the lock, to be written to the ledger."""

    pool: str
    delta: int
    after: int
    reason: str
    character: Character | None = None
    lost: int = 0
    # The reason as a sentence (tables/words/said.py) where the code worded it, for each reader.
    reason_words: dict | None = None


def lock_campaign(campaign_id: int) -> Campaign:
    """Lock the campaign row for the rest of the transaction.

    Two players spending the last point at once serialise here (PostgreSQL);
    on SQLite, IMMEDIATE transactions serialise every writer instead.
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    # Under the lock: a retry whose first submission landed is refused here (issue 27).
    idempotency.refuse_repeat(campaign.pk)
    return campaign


# Which pools change_pool accepts, and where each lives; their caps are rules.pools'.
CAMPAIGN_POOLS = pools.CAMPAIGN_POOLS
CHARACTER_POOLS = pools.CHARACTER_POOLS


def change_pool(
    campaign: Campaign,
    pool: str,
    delta: int,
    reason: Reason,
    *,
    character: Character | None = None,
    expected: int | None = None,
    fresh: bool = False,
    reason_words: dict | None = None,
) -> Change:
    """Add delta to a pool inside the caller's transaction.

    rules.pools.change decides (PM-04, MO-04, MO-06, RS-01): gains beyond the
    cap are lost and reported; a spend below 0 raises and changes nothing.
    This only reads the pool and writes what the rules say. `expected` is the
    value the person saw; if the pool moved since in a way that matters to this
    change (check_seen), StaleState is raised. `fresh`: the caller read the row
    after taking the lock, so its value is used instead of reading it again (the
    conditional update below still refuses if it was not current). A `reason` made
    with rules.sentences.words is stored as English and worded per reader when drawn.
    """
    if isinstance(reason, dict):
        reason, reason_words = english(reason), reason
    model, pk, current, own_cap = _read_pool(campaign, pool, character, fresh)
    label = pool_label(pool, character)
    check_seen(pool, current, expected, delta, own_cap=own_cap, label=label)
    step = _rules_step(pool, current, delta, own_cap, label)
    # Conditional update: a concurrent writer that slipped past the lock
    # (select_for_update is a no-op on SQLite) makes this match 0 rows.
    updated = model.objects.filter(pk=pk, **{pool: current}).update(**{pool: F(pool) + step.delta})
    if updated != 1:
        raise StaleState(gettext("%(label)s changed meanwhile; try again.") % {"label": label})
    obj = character if character is not None else campaign
    setattr(obj, pool, step.after)
    return Change(
        pool=pool,
        delta=step.delta,
        after=step.after,
        reason=reason,
        character=character,
        lost=step.lost,
        reason_words=reason_words,
    )


def _read_pool(campaign: Campaign, pool: str, character: Character | None, fresh: bool):
    """(model, pk, current value, own cap) of the pool change_pool changes."""
    if character is None:
        if pool not in CAMPAIGN_POOLS:
            raise ValueError(f"unknown campaign pool {pool!r}")
        model, pk = Campaign, campaign.pk
    else:
        if pool not in CHARACTER_POOLS:
            raise ValueError(f"unknown character pool {pool!r}")
        model, pk = Character, character.pk
    own_cap = None
    per_character = pools.CAPS[pool] == pools.PER_CHARACTER  # Resolve: the sheet's cap (RS-01)
    if fresh:
        row = character if character is not None else campaign
        current, own_cap = getattr(row, pool), (row.resolve_max if per_character else None)
    elif per_character:
        current, own_cap = model.objects.values_list(pool, "resolve_max").get(pk=pk)
    else:
        current = model.objects.values_list(pool, flat=True).get(pk=pk)
    if pool in pools.LINE_CAPPED:
        own_cap = campaign.group_cap  # the game line's (GL-01); None: MO-06
    elif pool in pools.LINE_CAPPED_PERSONAL:
        own_cap = personal_bounds(campaign, character)[0]
        if own_cap is not None:
            # A pool filled before its line had a cap (or above a lowered LCK) still
            # spends; it just gains nothing until it is back under the cap.
            own_cap = max(own_cap, current)
    return model, pk, current, own_cap


def personal_bounds(campaign: Campaign, character: Character) -> tuple[int | None, int | None]:
    """(cap, starting amount) of `character`'s Determination/Fortune/Luck in `campaign`'s
    line (GL-02): the line's numbers, or the sheet attribute it names (Fallout: LCK)."""
    line = campaign.line
    value = None
    if line.personal_attribute:
        names = [n.casefold() for n in line.personal_attribute]
        value = next(
            (a.value for a in character.attributes.all() if a.name.strip().casefold() in names),
            None,
        )
    return line.personal_bounds(value)


def _rules_step(pool: str, current: int, delta: int, own_cap: int | None, label: str):
    """rules.pools.change's verdict, its refusals in a player's words."""
    try:
        return pools.change(pool, current, delta, own_cap=own_cap, title=label)
    except pools.NotEnoughInPool as error:
        raise ServiceError(
            gettext("Not enough %(label)s: %(available)s available, %(needed)s needed.")
            % {"label": label, "available": error.available, "needed": error.needed}
        ) from error
    except pools.PoolOutOfBounds as error:
        raise ServiceError(str(error)) from error


def check_seen(
    pool: str,
    current: int,
    expected: int | None,
    delta: int,
    *,
    own_cap: int | None = None,
    label: str = "",
) -> None:
    """The person's page showed `expected`; the pool holds `current` now.

    Any move is not enough to refuse: other people act at the table all the time
    and live pages lag. It matters only if this change now fares worse than it
    would have at the value seen: a spend the pool no longer covers, or a gain
    of which more is lost beyond the cap. Then StaleState, saying why.
    """
    if expected is None or expected == current:
        return
    label = label or str(PoolChange.Pool(pool).label)
    try:
        seen = pools.change(pool, expected, delta, own_cap=own_cap, title=label)
    except RulesError:
        return  # refused at the value seen too: the current value decides below
    try:
        now = pools.change(pool, current, delta, own_cap=own_cap, title=label)
    except pools.NotEnoughInPool as error:
        raise StaleState(
            gettext(
                "%(label)s is now %(current)s (your page showed %(expected)s): not enough for "
                "this spend, %(needed)s needed. Check the new value and try again."
            )
            % {"label": label, "current": current, "expected": expected, "needed": error.needed}
        ) from error
    except RulesError:
        return  # change_pool words the refusal
    if now.lost > seen.lost:
        raise StaleState(
            gettext(
                "%(label)s is now %(current)s (your page showed %(expected)s): %(lost)s of this "
                "gain would be lost beyond the cap. Check the new value and try again."
            )
            % {"label": label, "current": current, "expected": expected, "lost": now.lost}
        )


def players_see(campaign: Campaign, pool: str) -> bool:
    """Every member sees every pool (PM-13) but Threat, the GM's, unless shown (MO-13)."""
    return pool != "threat" or campaign.threat_visible


def pool_label(pool: str, character: Character | None) -> str:
    label = str(PoolChange.Pool(pool).label)
    return f"{character.name}'s {label}" if character is not None else label


def _check_audience(kind: events.EventKind, actor, audience: str) -> None:
    if kind.audience == events.GM_ONLY and audience != TableEvent.Audience.GM:
        raise ValueError(f"{kind.name} events are for the GM only")
    if kind.audience == events.PRIVATE and (
        audience != TableEvent.Audience.GM or not getattr(actor, "is_authenticated", False)
    ):
        raise ValueError(f"{kind.name} events are for the GMs and their actor only")
    # A whisper is never for the whole table; NAMED only for the GMs it leaves out.
    if kind.audience == events.WHISPER and (
        audience == TableEvent.Audience.ALL or not getattr(actor, "is_authenticated", False)
    ):
        raise ValueError(f"{kind.name} events are for their actor and recipient only")
    if kind.audience != events.WHISPER and audience == TableEvent.Audience.NAMED:
        raise ValueError(f"{kind.name} events name nobody to read them")


def _next_seq(campaign: Campaign) -> int:
    """Take the campaign's next seq (gap-free under the caller's lock)."""
    # The caller's locked row knows the head: one conditional update takes the next seq.
    # A campaign object read before the lock misses and reads the head instead.
    seq = campaign.last_seq + 1
    bumped = Campaign.objects.filter(pk=campaign.pk, last_seq=campaign.last_seq)
    if bumped.update(last_seq=seq) != 1:
        Campaign.objects.filter(pk=campaign.pk).update(last_seq=F("last_seq") + 1)
        seq = Campaign.objects.values_list("last_seq", flat=True).get(pk=campaign.pk)
    campaign.last_seq = seq
    return seq


def _ledger_line(c: Change) -> dict:
    """A pool change as the payload's `changes` lists it (payloads.PoolLine)."""
    return {
        "pool": c.pool,
        "character": c.character.name if c.character else None,
        "character_id": c.character.pk if c.character else None,
        "delta": c.delta,
        "after": c.after,
        "lost": c.lost,
        "reason": c.reason,
        **({"reason_words": c.reason_words} if c.reason_words else {}),
    }


def _ledger_row(event: TableEvent, campaign: Campaign, c: Change) -> PoolChange:
    return PoolChange(
        event=event,
        campaign=campaign,
        character=c.character,
        pool=c.pool,
        delta=c.delta,
        after=c.after,
        lost=c.lost,
        reason=c.reason,
        reason_words=c.reason_words,
    )


def append_event(
    campaign: Campaign,
    kind: events.EventKind,
    actor,
    payload: dict | None = None,
    *,
    audience: str = TableEvent.Audience.ALL,
    changes: list[Change] | tuple[Change, ...] = (),
) -> TableEvent:
    """Append the campaign's next event (and its ledger lines); the caller holds the lock.

    `kind` is an entry of tables.events; a string or an unregistered entry raises
    before anything is written, so no event of an unknown kind can reach the log.
    The payload, with the `changes` added here, is checked against the kind's model
    (tables/payloads.py) before anything is written too: a key the model does not
    name, or a value of the wrong type, raises pydantic.ValidationError.
    """
    kind = events.registered(kind)
    _check_audience(kind, actor, audience)
    payload = dict(payload or {})
    payload.setdefault("changes", [_ledger_line(c) for c in changes])
    stored = kind.stored_payload(payload)
    event = TableEvent.objects.create(
        campaign=campaign,
        seq=_next_seq(campaign),
        kind=kind.name,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        payload=stored,
        audience=audience,
        idempotency_key=idempotency.take(),
    )
    PoolChange.objects.bulk_create(_ledger_row(event, campaign, c) for c in changes)
    # The characters as this command wrote them (their new pools), for after-commit hooks
    # that draw the event (live/frames.py) without reading them again.
    written = {c.character.pk: c.character for c in changes if c.character is not None}
    event.written_characters = tuple(written.values())
    transaction.on_commit(lambda: publish(event))
    return event


_GM_ONLY = "Only the GM can do that."


def require_role(campaign: Campaign, actor, role: str) -> Membership:
    """The actor's membership if it has `role` ("member", "player" or "gm", as
    access.has_role and the views' campaign_for read it), else PermissionDenied."""
    membership = membership_of(actor, campaign)
    if not has_role(membership, role):
        raise PermissionDenied(_GM_ONLY if role == "gm" else "Not allowed.")
    return membership


def require_gm(campaign: Campaign, actor) -> Membership:
    return require_role(campaign, actor, "gm")


def require_playing(campaign: Campaign, actor) -> Membership:
    """GMs and players play (roll, spend, ask for help); observers only watch."""
    return require_role(campaign, actor, "player")


def playing_member(campaign: Campaign, actor, held: Membership | None) -> Membership:
    """require_playing, unless the caller read the actor's membership for this command:
    that one is kept (a role change committing meanwhile is as if it came just after)."""
    if held is None or (held.campaign_id, held.user_id) != (campaign.pk, actor.pk):
        return require_playing(campaign, actor)
    if not has_role(held, "player"):
        raise PermissionDenied(gettext("Not allowed."))
    return held


def character_in(campaign: Campaign, character_id) -> Character:
    """A character of this campaign, else a ServiceError a person can read."""
    if not isinstance(character_id, int):  # posted text: "²" passes isdigit(), not int()
        raw = str(character_id or "")
        character_id = int(raw) if raw.isascii() and raw.isdigit() else None
    character = None
    if character_id is not None:
        character = Character.objects.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise ServiceError(gettext("That character is not in this campaign."))
    return character

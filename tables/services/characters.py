"""Character sheets: create or edit one, with its rows, under the campaign lock."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext

from tables import events
from tables.errors import ServiceError, StaleState
from tables.models import Character, PoolChange
from tables.policy.access import has_role, membership_of, require_control
from tables.policy.characters import BACK_INTO_CREATION, POOLS_REFUSAL, SHEET_MAXIMA, SHEET_POOLS
from tables.services import harm_tracks
from tables.services.core import Change, append_event, lock_campaign

# Pools change through the rules and the GM (PM-13, MO-13): a player's sheet never sets
# them. A player's new character starts as the rules say: Momentum 3 (PM-01), Resolve
# full, Determination as the model's default, for the GM to adjust. The limits and their
# words are tables/policy/characters.py (the form shows them too).
# The sheet's rows, by the character's related name.
ROW_KINDS = ("attributes", "skills", "traits", "assets")
GM_FIELDS = ("minor_foe",)  # SC-06: only a GM flags a foe minor (the form offers it to GMs)


@dataclass(frozen=True)
class SheetRows:
    """Changes to one kind of row: `save` holds (row id or None for a new row, its
    field values); `delete` the ids of rows to remove. Rows not named stay as they are."""

    kind: str  # one of ROW_KINDS
    save: tuple[tuple[int | None, dict], ...] = ()
    delete: tuple[int, ...] = ()


@dataclass(frozen=True)
class Sheet:
    """A validated sheet as plain values.

    `fields`: the character's own fields (name, notes, pools…) as the page sent them.
    `touched`: the pools the person changed, each with the value their page showed
    (None if not sent); a pool not touched keeps its current value.
    """

    fields: dict
    touched: dict[str, int | None] = field(default_factory=dict)
    rows: tuple[SheetRows, ...] = ()


def save_character(campaign_id: int, actor, sheet: Sheet, character_id: int | None = None):
    """Create (character_id None) or edit a character sheet, under the campaign lock.

    Pool values the person did not touch keep their current value (a spend at
    the table meanwhile is not overwritten); a pool they did change must
    still hold what their page showed (StaleState otherwise). Each pool change
    is a ledger line (PM-13). Players own their characters; GMs may edit any,
    and a character a GM creates is an NPC. Only a GM sets pools on a sheet: a
    player's change to one is refused, and a player's new character starts as the
    rules say whatever the sheet carries (POOLS_REFUSAL).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = membership_of(actor, campaign)
        creating = character_id is None
        character, before = _sheet_character(campaign, membership, actor, sheet, character_id)
        old_name = character.name
        gm = membership.is_gm
        held = {name: getattr(character, name) for name in sheet.fields}
        if not gm and not creating:
            _refuse_pool_changes(character, sheet)
            if sheet.fields.get("in_creation") and not character.in_creation:
                raise ServiceError(BACK_INTO_CREATION)
        _apply_fields(character, sheet, gm=gm, creating=creating)
        if not creating and _unchanged(character, held, sheet.rows):
            # A save of the sheet as it stands (a second press too) writes no event.
            raise ServiceError(
                gettext("Nothing to save: %(character)s's sheet is as it was.")
                % {"character": character.name}
            )
        _check_sheet(campaign, character)
        character.save()
        for rows in sheet.rows:
            _save_rows(character, rows)
        payload = {"character_id": character.pk, "name": character.name, "is_npc": character.is_npc}
        if creating:
            # Harm in two clicks (SC-02): the sheet starts with its line's tracks.
            payload["tracks"] = harm_tracks.give_line_tracks(campaign, character)
        if not creating and character.name != old_name:
            # Other people's Assist panels name it (live/render.py _assists_sync).
            payload["renamed_from"] = old_name
        append_event(
            campaign,
            events.CHARACTER_CREATED if creating else events.CHARACTER_UPDATED,
            actor,
            payload,
            changes=_pool_changes(character, before),
        )
    return character


def _apply_fields(character, sheet: Sheet, *, gm: bool, creating: bool) -> None:
    """Set the sheet's fields the person may set; a pool not touched keeps its value."""
    for name, value in sheet.fields.items():
        # RS-01: a maximum is the GM's like the pool (the form refuses a change).
        if not gm and (name in GM_FIELDS or name in SHEET_POOLS):
            continue
        if not gm and name in SHEET_MAXIMA and not creating:
            continue
        if creating or name not in SHEET_POOLS or name in sheet.touched:
            setattr(character, name, value)
    if creating and not gm:
        character.resolve = character.resolve_max  # a new character's Resolve is full


def _sheet_character(campaign, membership, actor, sheet: Sheet, character_id: int | None):
    """(the character to save, its pools before): a new one (players and GMs only; a
    GM's is an NPC), or the campaign's one the actor controls, whose touched pools
    still hold what the page showed."""
    if character_id is None:
        if not has_role(membership, "player"):
            raise PermissionDenied(gettext("Observers cannot create characters."))
        return Character(campaign=campaign, owner=actor, is_npc=membership.is_gm), {}
    character = Character.objects.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise PermissionDenied(gettext("That character is not in this campaign."))
    require_control(membership, character)
    before = {pool: getattr(character, pool) for pool in SHEET_POOLS}
    _check_touched(character, sheet.touched)
    return character, before


def _pool_changes(character: Character, before: dict) -> list[Change]:
    """A ledger line for each pool the sheet changed (PM-13); none for a new character."""
    return [
        Change(
            pool=pool,
            delta=getattr(character, pool) - before[pool],
            after=getattr(character, pool),
            reason="Sheet edited",
            character=character,
        )
        for pool in SHEET_POOLS
        if before and getattr(character, pool) != before[pool]
    ]


def _refuse_pool_changes(character: Character, sheet: Sheet) -> None:
    """A player's sheet that would change a pool is refused, with the reason."""
    for pool in SHEET_POOLS:
        if pool in sheet.touched and sheet.fields.get(pool, getattr(character, pool)) != getattr(
            character, pool
        ):
            label = str(PoolChange.Pool(pool).label)
            raise ServiceError(POOLS_REFUSAL.format(character=character.name, pool=label))


def _check_touched(character: Character, touched: dict[str, int | None]) -> None:
    """A pool the person changed must still hold what their page showed."""
    for pool, seen in touched.items():
        current = getattr(character, pool)
        if seen is not None and seen != current:
            raise StaleState(
                gettext(
                    "%(character)s's %(pool)s changed to %(current)s since your page was drawn; "
                    "check it and save again."
                )
                % {
                    "character": character.name,
                    "pool": str(PoolChange.Pool(pool).label),
                    "current": current,
                }
            )


def _check_sheet(campaign, character: Character) -> None:
    """RS-01: Resolve stays within its maximum; names are unique in a campaign."""
    if character.resolve > character.resolve_max:
        raise ServiceError(
            gettext("Resolve (%(resolve)s) cannot be above its maximum (%(resolve_max)s).")
            % {"resolve": character.resolve, "resolve_max": character.resolve_max}
        )
    clash = Character.objects.filter(campaign=campaign, name__iexact=character.name)
    if clash.exclude(pk=character.pk).exists():
        raise ServiceError(
            gettext("This campaign already has a character named %(character)s.")
            % {"character": character.name}
        )


def _unchanged(character: Character, held: dict, rows: tuple[SheetRows, ...]) -> bool:
    """The sheet's fields still hold what they `held`, and no row would be added,
    removed or given other values."""
    if any(getattr(character, name) != value for name, value in held.items()):
        return False
    for kind in rows:
        if kind.kind not in ROW_KINDS:
            return False  # _save_rows refuses it
        own = getattr(character, kind.kind)
        if kind.delete and own.filter(pk__in=kind.delete).exists():
            return False
        for row_id, values in kind.save:
            if row_id is None:
                return False
            stored = own.filter(pk=row_id).values(*values).first()
            if stored is not None and stored != values:
                return False
    return True


def _save_rows(character: Character, rows: SheetRows) -> None:
    if rows.kind not in ROW_KINDS:
        raise ValueError(f"unknown sheet rows {rows.kind!r}")
    # Only this character's rows: an id from another sheet matches nothing.
    own = getattr(character, rows.kind)
    own.filter(pk__in=rows.delete).delete()
    for row_id, values in rows.save:
        if row_id is None:
            own.create(**values)
        else:
            own.filter(pk=row_id).update(**values)

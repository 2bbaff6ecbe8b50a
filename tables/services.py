"""The only module that changes game state.

Every command a person can give is one function here. Each opens a
transaction, locks the campaign row, asks rules/ for the outcome, writes the
result and its pool changes, and appends one TableEvent with the campaign's
next sequence number. The event is announced to live sockets after commit.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from .access import can_control, membership_of
from .models import (
    GROUP_POOL_MAX,
    PERSONAL_MOMENTUM_MAX,
    Asset,
    Campaign,
    Character,
    Membership,
    PlaySession,
    PoolChange,
    Scene,
    TableEvent,
    new_invite_token,
)


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


_CAMPAIGN_POOLS = {"group_momentum": GROUP_POOL_MAX, "threat": None}
_CHARACTER_POOLS = {"momentum": PERSONAL_MOMENTUM_MAX, "resolve": None, "determination": None}


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
        if pool not in _CAMPAIGN_POOLS:
            raise ValueError(f"unknown campaign pool {pool!r}")
        model, pk, cap = Campaign, campaign.pk, _CAMPAIGN_POOLS[pool]
    else:
        if pool not in _CHARACTER_POOLS:
            raise ValueError(f"unknown character pool {pool!r}")
        model, pk, cap = Character, character.pk, _CHARACTER_POOLS[pool]
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
    from .broadcast import announce

    announce(event)


# --- People, campaigns and sheets (issue 4) ----------------------------------

_GM_ONLY = "Only the GM can do that."


def _require_role(campaign: Campaign, actor, *roles: str) -> Membership:
    """The actor's membership if its role is one of `roles`, else PermissionDenied."""
    membership = membership_of(actor, campaign)
    if membership is None or membership.role not in roles:
        raise PermissionDenied(_GM_ONLY if roles == (Membership.Role.GM,) else "Not allowed.")
    return membership


def _require_gm(campaign: Campaign, actor) -> Membership:
    return _require_role(campaign, actor, Membership.Role.GM)


def _require_playing(campaign: Campaign, actor) -> Membership:
    """GMs and players play (roll, spend, ask for help); observers only watch."""
    return _require_role(campaign, actor, Membership.Role.GM, Membership.Role.PLAYER)


def character_in(campaign: Campaign, character_id) -> Character:
    """A character of this campaign, else a ServiceError a person can read."""
    character = Character.objects.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise ServiceError("That character is not in this campaign.")
    return character


def require_hidden(record) -> None:
    """TB-03: only a secret roll not yet revealed can be revealed (D20Test, MomentaRoll)."""
    if not record.secret:
        raise ServiceError("That roll was never secret.")
    if record.revealed:
        raise ServiceError("That roll is already revealed.")


PRESETS = {
    Campaign.Preset.MOMENTA: (Campaign.DiceSystem.D6, Campaign.Economy.PERSONAL),
    Campaign.Preset.D20: (Campaign.DiceSystem.D20, Campaign.Economy.GROUP),
}


def create_campaign(owner, name: str, preset: str) -> Campaign:
    """A new campaign whose creator is its GM; the preset fills dice and economy."""
    if preset not in PRESETS:
        raise ServiceError("Choose a ruleset preset.")
    dice_system, economy = PRESETS[preset]
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name.strip(),
            owner=owner,
            preset=preset,
            dice_system=dice_system,
            economy=economy,
        )
        Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.GM)
        campaign = lock_campaign(campaign.pk)
        append_event(campaign, "campaign_created", owner, {"name": campaign.name})
    return campaign


# Fields the GM may change on the settings page: the choices behind the
# preset and every ruling (RULES.md clauses ending in R…, and T-03).
SETTINGS_FIELDS = (
    "name",
    "dice_system",
    "economy",
    "threat_visible",
    "extra_success_stacks",
    "band_label_0",
    "band_label_1",
    "band_label_2",
    "band_label_3",
    "advantage_dice",
    "disadvantage_dice",
    "complication_range",
    "assistance_needs_leader_success",
    "gm_momentum_to_threat",
)


def update_campaign_settings(campaign_id: int, actor, values: dict) -> TableEvent | None:
    """Change campaign settings and rulings (PAT-R1, PAT-R2, PM-R1, T-R1, T-03, CT-R1).

    Returns the event, or None when nothing changed.
    """
    unknown = set(values) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"not a campaign setting: {sorted(unknown)}")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        changed = {}
        for field, value in values.items():
            old = getattr(campaign, field)
            if old != value:
                changed[field] = [old, value]
                setattr(campaign, field, value)
        if not changed:
            return None
        # update_fields: never write the pools or last_seq from this stale copy.
        campaign.save(update_fields=list(changed))
        return append_event(campaign, "settings_changed", actor, {"fields": changed})


# --- Membership ---------------------------------------------------------------


class InviteInvalid(ServiceError):
    """The invite token matches no campaign (never issued, or regenerated since)."""


def join_campaign(token: str, user, role: str) -> Membership:
    """A signed-in person joins through the invite link as player or observer."""
    if role not in (Membership.Role.PLAYER, Membership.Role.OBSERVER):
        raise ServiceError("Join as a player or as an observer.")
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("Log in to join a campaign.")
    campaign_id = Campaign.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    if campaign_id is None:
        raise InviteInvalid(_INVITE_INVALID)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        # Re-checked under the lock: a regeneration that committed between the
        # lookup and the lock must still turn this old link away.
        if campaign.invite_token != token:
            raise InviteInvalid(_INVITE_INVALID)
        existing = membership_of(user, campaign)
        if existing is not None:
            raise ServiceError(
                f"You are already in {campaign.name} as {existing.get_role_display()}."
            )
        membership = Membership.objects.create(campaign=campaign, user=user, role=role)
        append_event(
            campaign,
            "member_joined",
            user,
            {"user": user.get_username(), "user_id": user.pk, "role": role},
        )
    return membership


_INVITE_INVALID = (
    "This invite link is not valid. It may have been replaced by a new one: "
    "ask your GM for the current link."
)


def regenerate_invite(campaign_id: int, actor) -> str:
    """A new invite token; the old link stops working at once."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        campaign.invite_token = new_invite_token()
        campaign.save(update_fields=["invite_token"])
        # The token itself stays out of the log: the log outlives the link.
        append_event(campaign, "invite_regenerated", actor, audience=TableEvent.Audience.GM)
    return campaign.invite_token


def _member_of(campaign: Campaign, membership_id: int) -> Membership:
    membership = (
        Membership.objects.select_related("user")
        .filter(campaign=campaign, pk=membership_id)
        .first()
    )
    if membership is None:
        raise ServiceError("That person is not a member of this campaign.")
    return membership


def remove_member(campaign_id: int, actor, membership_id: int) -> TableEvent:
    """The GM removes a member; the owner cannot be removed. Their characters stay."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        membership = _member_of(campaign, membership_id)
        if membership.user_id == campaign.owner_id:
            raise ServiceError("The campaign's owner cannot be removed.")
        payload = {
            "user": membership.user.get_username(),
            "user_id": membership.user_id,
            "role": membership.role,
        }
        membership.delete()
        return append_event(campaign, "member_removed", actor, payload)


def promote_member(campaign_id: int, actor, membership_id: int) -> TableEvent:
    """The GM makes a player a co-GM (role gm)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        membership = _member_of(campaign, membership_id)
        if membership.role != Membership.Role.PLAYER:
            raise ServiceError(
                f"Only players can be made co-GM; {membership.user} is "
                f"{membership.get_role_display()}."
            )
        membership.role = Membership.Role.GM
        membership.save(update_fields=["role"])
        return append_event(
            campaign,
            "member_promoted",
            actor,
            {"user": membership.user.get_username(), "user_id": membership.user_id, "role": "gm"},
        )


# --- Sessions, scenes, pools -------------------------------------------------

SESSION_START_MOMENTUM = 3  # PM-01


def start_session(campaign_id: int, actor) -> PlaySession:
    """Start a play session: every character's Momentum resets to 3 (PM-01).

    Unspent Momentum does not carry over. The reset applies in the personal
    economy only; each character gets a ledger line, even when already at 3,
    so the log shows the reset happened (PM-13).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        now = timezone.now()
        PlaySession.objects.filter(campaign=campaign, ended_at__isnull=True).update(ended_at=now)
        last = PlaySession.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"]
        session = PlaySession.objects.create(campaign=campaign, number=(last or 0) + 1)
        changes = []
        if campaign.economy == Campaign.Economy.PERSONAL:
            for character in campaign.characters.order_by("name"):
                delta = SESSION_START_MOMENTUM - character.momentum
                changes.append(
                    change_pool(
                        campaign,
                        "momentum",
                        delta,
                        "New session: Momentum resets to 3 (PM-01)",
                        character=character,
                    )
                )
        append_event(
            campaign, "session_started", actor, {"number": session.number}, changes=changes
        )
    return session


def _current_session(campaign: Campaign) -> PlaySession | None:
    return campaign.play_sessions.filter(ended_at__isnull=True).order_by("-number").first()


def current_scene(campaign: Campaign) -> Scene | None:
    return campaign.scenes.filter(ended_at__isnull=True).order_by("-number").first()


def _new_scene(campaign: Campaign, title: str = "") -> Scene:
    last = Scene.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"]
    return Scene.objects.create(
        campaign=campaign,
        play_session=_current_session(campaign),
        number=(last or 0) + 1,
        title=title.strip(),
    )


def start_scene(campaign_id: int, actor, title: str = "") -> Scene:
    """Open the next scene (one at a time)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        running = current_scene(campaign)
        if running is not None:
            raise ServiceError(f"{running} is still running; end it first.")
        scene = _new_scene(campaign, title)
        append_event(
            campaign, "scene_started", actor, {"number": scene.number, "title": scene.title}
        )
    return scene


def end_scene(campaign_id: int, actor) -> TableEvent:
    """End the current scene: the group pool loses 1 (MO-07), temporary assets expire (MO-10).

    With no scene open, one is created and ended at once, so scenes need not
    be started by hand.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        scene = current_scene(campaign) or _new_scene(campaign)
        scene.ended_at = timezone.now()
        scene.save(update_fields=["ended_at"])
        changes = []
        if campaign.group_momentum > 0:
            changes.append(
                change_pool(campaign, "group_momentum", -1, f"End of {scene}: pool loses 1 (MO-07)")
            )
        expiring = Asset.objects.filter(character__campaign=campaign, permanent=False)
        expired = [
            {"asset": a.name, "character": a.character.name}
            for a in expiring.select_related("character").order_by("character__name", "name")
        ]
        expiring.delete()
        return append_event(
            campaign,
            "scene_ended",
            actor,
            {"number": scene.number, "title": scene.title, "expired_assets": expired},
            changes=changes,
        )


def pools_for(campaign: Campaign) -> dict[str, list[str]]:
    """Which pools this campaign's dice and economy use: campaign pools and character pools."""
    campaign_pools, character_pools = [], []
    if campaign.economy == Campaign.Economy.GROUP:
        campaign_pools += ["group_momentum", "threat"]
    else:
        character_pools.append("momentum")
    if campaign.dice_system == Campaign.DiceSystem.D6:
        character_pools.append("resolve")
    else:
        character_pools.append("determination")
    return {"campaign": campaign_pools, "character": character_pools}


def adjust_pool(
    campaign_id: int,
    actor,
    pool: str,
    delta: int,
    reason: str,
    character_id: int | None = None,
    expected: int | None = None,
) -> TableEvent:
    """The GM changes a pool by hand, with a reason for the log (PM-13).

    Caps still apply and what overflows is logged as lost (PM-04, MO-06);
    a spend below 0 is refused. Threat changes reach only the GM unless
    Threat is shown to players (MO-13).
    """
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("Give a reason: every pool change is logged with one.")
    if delta == 0:
        raise ServiceError("A change of 0 changes nothing.")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        _require_gm(campaign, actor)
        character = None if character_id is None else character_in(campaign, character_id)
        valid = _CHARACTER_POOLS if character is not None else _CAMPAIGN_POOLS
        if pool not in valid:
            whose = "a character's" if character is not None else "the campaign's"
            raise ServiceError(f"{pool!r} is not one of {whose} pools.")
        change = change_pool(campaign, pool, delta, reason, character=character, expected=expected)
        secret = pool == "threat" and not campaign.threat_visible
        return append_event(
            campaign,
            "pool_adjusted",
            actor,
            {"pool": pool, "character_id": character_id},
            audience=TableEvent.Audience.GM if secret else TableEvent.Audience.ALL,
            changes=[change],
        )


# --- Character sheets ---------------------------------------------------------

SHEET_POOLS = ("momentum", "resolve", "determination")


def save_character(campaign_id: int, actor, form, formsets=()) -> Character:
    """Create or edit a character sheet from validated forms, under the campaign lock.

    Pool values the person did not touch keep their current value (a spend at
    the table meanwhile is not overwritten); a pool they did change must
    still hold what their page showed (StaleState otherwise). Each pool change
    is a ledger line (PM-13). Players own their characters; GMs may edit any.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = membership_of(actor, campaign)
        character = form.instance
        creating = character.pk is None
        if creating:
            if membership is None or membership.role not in (
                Membership.Role.GM,
                Membership.Role.PLAYER,
            ):
                raise PermissionDenied("Observers cannot create characters.")
            character.campaign = campaign
            before = {}
        else:
            if character.campaign_id != campaign.pk:
                raise PermissionDenied("That character is not in this campaign.")
            if membership is None or not can_control(membership, character):
                raise PermissionDenied("That character is not yours.")
            before = Character.objects.values(*SHEET_POOLS).get(pk=character.pk)
            for pool in SHEET_POOLS:
                if pool not in form.changed_data:
                    setattr(character, pool, before[pool])
                    continue
                seen = _seen_value(form, pool)
                if seen is not None and seen != before[pool]:
                    raise StaleState(
                        f"{character.name}'s {PoolChange.Pool(pool).label} changed to "
                        f"{before[pool]} since your page was drawn; check it and save again."
                    )
        if character.resolve > character.resolve_max:
            raise ServiceError(
                f"Resolve ({character.resolve}) cannot be above its maximum "
                f"({character.resolve_max})."
            )
        clash = Character.objects.filter(campaign=campaign, name__iexact=character.name)
        if clash.exclude(pk=character.pk).exists():
            raise ServiceError(f"This campaign already has a character named {character.name}.")
        character.save()
        for formset in formsets:
            formset.instance = character
            formset.save()
        changes = [
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
        append_event(
            campaign,
            "character_created" if creating else "character_updated",
            actor,
            {"character_id": character.pk, "name": character.name, "is_npc": character.is_npc},
            changes=changes,
        )
    return character


def _seen_value(form, field: str) -> int | None:
    """The value the person's page showed (Django's hidden initial input), if sent."""
    raw = form.data.get(form.add_initial_prefix(field))
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


# --- Table notes (issue 6: live push) ------------------------------------------

NOTE_MAX_LENGTH = 500


def post_note(campaign_id: int, actor, text: str) -> TableEvent:
    """The GM posts a short note to the table log; it reaches every screen live (TB-01)."""
    text = (text or "").strip()
    if not text:
        raise ServiceError("Write the note first.")
    if len(text) > NOTE_MAX_LENGTH:
        raise ServiceError(f"A note holds at most {NOTE_MAX_LENGTH} characters.")
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = membership_of(actor, campaign)
        if membership is None or membership.role != Membership.Role.GM:
            raise PermissionDenied("Only the GM can post table notes.")
        return append_event(campaign, "note", actor, {"text": text})

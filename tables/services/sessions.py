"""Sessions, scenes, hand-made pool changes and table notes."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from rules import game_lines
from rules.pools import SESSION_START_MOMENTUM  # PM-01
from rules.sentences import english
from tables import events
from tables.models import (
    Asset,
    Campaign,
    PlaySession,
    Scene,
    TableEvent,
)
from tables.policy.access import has_role, membership_of
from tables.policy.play import current_scene
from tables.services.conflicts import turns
from tables.services.core import (
    CAMPAIGN_POOLS,
    CHARACTER_POOLS,
    Change,
    ServiceError,
    append_event,
    change_pool,
    character_in,
    lock_campaign,
    pool_label,
    require_gm,
)
from tables.services.d20 import contests
from tables.services.d20.refills import refill_personal_pools
from tables.services.d20.resolution import close_open_tests
from tables.services.d20.starts import log_threat, session_start_changes
from tables.services.scenes import new_scene
from tables.words.said import said, words

# --- Sessions, scenes, pools -------------------------------------------------


_NEW_SESSION = words(gettext_noop("New session"))
_RESET = words(gettext_noop("New session: Momentum resets to 3 (PM-01)"))


def start_session(campaign_id: int, actor) -> PlaySession:
    """Start a play session: every character's Momentum resets to 3 (PM-01); on a 2d20
    line that says so (STA 1e, Conan, Achtung!), the personal pool goes back to its
    starting amount (GL-02); Conan then sets group Momentum to 0 and Doom to the player
    characters' Fortune (GL-07, a setting), in an event of Threat's audience (MO-13).

    Unspent Momentum does not carry over. The reset applies in the personal
    economy only; each character gets a ledger line, even when already at 3,
    so the log shows the reset happened (PM-13).
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        now = timezone.now()
        PlaySession.objects.filter(campaign=campaign, ended_at__isnull=True).update(ended_at=now)
        last = PlaySession.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"]
        session = PlaySession.objects.create(campaign=campaign, number=(last or 0) + 1)
        changes = []
        if campaign.economy == Campaign.Economy.PERSONAL:
            for character in campaign.characters.order_by("name"):
                delta = SESSION_START_MOMENTUM - character.momentum
                changes.append(
                    change_pool(campaign, "momentum", delta, _RESET, character=character)
                )
        elif not campaign.uses_d6:
            if campaign.line.refill_at == game_lines.SESSION:
                changes += refill_personal_pools(campaign, _NEW_SESSION)  # GL-02
            changes += session_start_changes(campaign, _NEW_SESSION)  # GL-07, after GL-02
        public = [c for c in changes if c.pool != "threat"]
        append_event(
            campaign, events.SESSION_STARTED, actor, {"number": session.number}, changes=public
        )
        log_threat(
            campaign,
            actor,
            changes,
            said(
                gettext_noop("New session: %(pool)s set (GL-07)."),
                pool=words(campaign.book_line.gm_pool),
            ),
        )
    return session


def start_scene(campaign_id: int, actor, title: str = "") -> Scene:
    """Open the next scene (one at a time)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        running = current_scene(campaign)
        if running is not None:
            raise ServiceError(
                gettext("%(running)s is still running; end it first.") % {"running": running}
            )
        scene = new_scene(campaign, title)
        append_event(
            campaign, events.SCENE_STARTED, actor, {"number": scene.number, "title": scene.title}
        )
    return scene


def _scene_end_loss(campaign: Campaign, scene: Scene) -> Change:
    """MO-07: the group pool loses 1 when a scene ends."""
    named_scene = scene.title or words(gettext_noop("Scene %(n)s"), n=scene.number)
    loses = words(gettext_noop("End of %(scene)s: pool loses 1 (MO-07)"), scene=named_scene)
    return change_pool(campaign, "group_momentum", -1, english(loses)[:200], reason_words=loses)


def end_scene(campaign_id: int, actor, *, keep_traits=(), keep_assets=()) -> TableEvent:
    """End the current scene: 2d20 tests still open are closed first, saved to the group
    pool up to its cap (MO-04: the scene's end is the latest they resolve), then the group
    pool loses 1 (MO-07), contests still waiting are called off (CT-R2), temporary
    assets expire (MO-10), and the board's traits end
    with it (MO-09b), all but those the GM keeps: marked lasting, or named in
    `keep_traits` / `keep_assets` (ids) in this one step.

    With no scene open, one is created and ended at once, so scenes need not
    be started by hand.
    """
    from tables.services import scene_board  # it reads this module's scenes

    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        close_open_tests(campaign, actor)  # before MO-07, so the loss follows the saving
        contests.close_with_scene(campaign, actor)  # CT-R2
        scene = current_scene(campaign) or new_scene(campaign)
        scene.ended_at = timezone.now()
        scene.save(update_fields=["ended_at"])
        if campaign.scene_complication_range is not None:  # GL-05: it lasts the scene only
            campaign.scene_complication_range = None
            campaign.save(update_fields=["scene_complication_range"])
        changes = [_scene_end_loss(campaign, scene)] if campaign.group_momentum > 0 else []
        temporary = Asset.objects.filter(character__campaign=campaign, permanent=False)
        keep_ids = {int(k) for k in keep_assets}
        if keep_ids:
            temporary.filter(pk__in=keep_ids).update(lasting=True)
        expiring = temporary.filter(lasting=False)
        expired = [
            {"asset": a.name, "character": a.character.name}
            for a in expiring.select_related("character").order_by("character__name", "name")
        ]
        kept_assets = [
            {"asset": a.name, "character": a.character.name}
            for a in temporary.filter(lasting=True).select_related("character")
        ]
        expiring.delete()
        ended, kept = scene_board.end_with_scene(campaign, scene, keep_traits)
        turns.end_with_scene(campaign, scene)  # issue 24
        payload = {"number": scene.number, "title": scene.title, "expired_assets": expired}
        if ended or kept or kept_assets:
            payload.update(ended_traits=ended, kept_traits=kept, kept_assets=kept_assets)
        return append_event(campaign, events.SCENE_ENDED, actor, payload, changes=changes)


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
        raise ServiceError(gettext("Give a reason: every pool change is logged with one."))
    if delta == 0:
        raise ServiceError(gettext("A change of 0 changes nothing."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        character = None if character_id is None else character_in(campaign, character_id)
        valid = CHARACTER_POOLS if character is not None else CAMPAIGN_POOLS
        if pool not in valid:
            whose = "a character's" if character is not None else "the campaign's"
            raise ServiceError(
                gettext("%(pool)r is not one of %(whose)s pools.") % {"pool": pool, "whose": whose}
            )
        change = change_pool(campaign, pool, delta, reason, character=character, expected=expected)
        if change.delta == 0:
            # A gain the cap takes whole changes nothing (raising rolls the +0 back): the
            # ledger records what a rule's gain lost, not a hand change that did nothing.
            raise ServiceError(
                gettext("%(label)s is already at its cap of %(after)s. Nothing was changed.")
                % {"label": pool_label(pool, character), "after": change.after}
            )
        secret = pool == "threat" and not campaign.threat_visible
        return append_event(
            campaign,
            events.POOL_ADJUSTED,
            actor,
            {"pool": pool, "character_id": character_id},
            audience=TableEvent.Audience.GM if secret else TableEvent.Audience.ALL,
            changes=[change],
        )


# --- Table notes (issue 6: live push) ------------------------------------------

NOTE_MAX_LENGTH = 500


def post_note(campaign_id: int, actor, text: str) -> TableEvent:
    """The GM posts a short note to the table log; it reaches every screen live (TB-01)."""
    text = (text or "").strip()
    if not text:
        raise ServiceError(gettext("Write the note first."))
    if len(text) > NOTE_MAX_LENGTH:
        raise ServiceError(
            gettext("A note holds at most %(note_max_length)s characters.")
            % {"note_max_length": NOTE_MAX_LENGTH}
        )
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = membership_of(actor, campaign)
        if not has_role(membership, "gm"):
            raise PermissionDenied(gettext("Only the GM can post table notes."))
        return append_event(campaign, events.NOTE, actor, {"text": text})

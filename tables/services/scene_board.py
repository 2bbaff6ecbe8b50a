"""The scene board (issue 23, MO-09, MO-09b): traits, complications and Threads of the
running scene, each change an ordered TableEvent.

The GM adds, edits, removes, hides and reveals entries; players may note their own
where the campaign allows it (`players_note_traits`) and edit or remove only those.
A Create Trait spend (tables/services/d20/spends.py) changes the board through
`apply_spend` / `undo_spend`, inside the spend's own transaction.

A hidden entry's events are stored with the GM audience: its text never reaches a
player's socket, page, log or export. Hiding a standing trait tells players only that
a trait left the board.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import events
from tables.models import Campaign, Membership, Scene, SceneTrait, TableEvent
from tables.models.scene import TRAIT_TEXT_MAX
from tables.policy.access import has_role
from tables.policy.board_traits import standing_trait
from tables.services import board_lines as lines
from tables.services.core import (
    ServiceError,
    append_event,
    character_in,
    lock_campaign,
    require_role,
)
from tables.services.scenes import scene_for_play
from tables.words.said import said

KINDS = {k.value for k in SceneTrait.Kind}


def clean_text(text) -> str:
    """The trait's text, or a ServiceError a person can read (nothing changed)."""
    text = " ".join(str(text or "").split())
    if not text:
        raise ServiceError(_("Write the trait's text first."))
    if len(text) > TRAIT_TEXT_MAX:
        raise ServiceError(
            _("A trait holds at most %(max)d characters (this one has %(n)d).")
            % {"max": TRAIT_TEXT_MAX, "n": len(text)}
        )
    return text


def _append(campaign, actor, trait: SceneTrait, action: str, summary: dict, **extra) -> TableEvent:
    payload = {
        "trait_id": trait.pk,
        "action": action,
        "trait_kind": trait.kind,
        **summary,
        **extra,
    }
    if "text" not in extra:
        payload["text"] = trait.text
    audience = TableEvent.Audience.GM if trait.hidden else TableEvent.Audience.ALL
    return append_event(campaign, events.BOARD_TRAIT, actor, payload, audience=audience)


def _may_note(campaign: Campaign, membership: Membership) -> None:
    if membership.is_gm:
        return
    if membership.role != Membership.Role.PLAYER or not campaign.players_note_traits:
        raise PermissionDenied(_("Only the GM puts traits on the scene board."))


def _may_change(membership: Membership, trait: SceneTrait) -> None:
    """The GM changes any entry; a player only one they noted themselves."""
    if membership.is_gm:
        return
    if membership.role != Membership.Role.PLAYER or trait.made_by_id != membership.user_id:
        raise PermissionDenied(_("Only the GM can change a trait someone else put on the board."))


# --- Commands -------------------------------------------------------------------------------


def add_trait(
    campaign_id: int,
    actor,
    text: str,
    *,
    kind: str = SceneTrait.Kind.TRAIT,
    hidden: bool = False,
    lasting: bool = False,
) -> TableEvent:
    """Put a trait, a complication or a Thread on the running scene's board (MO-09b).
    Only the GM hides one; a complication the GM records after a roll is one of these."""
    text = clean_text(text)
    if kind not in KINDS:
        raise ServiceError(_("Choose a trait, a complication or a Thread."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        _may_note(campaign, membership)
        if (hidden or lasting) and not membership.is_gm:
            raise PermissionDenied(_("Only the GM hides a trait or keeps it past the scene."))
        trait = SceneTrait.objects.create(
            campaign=campaign,
            scene=scene_for_play(campaign),
            kind=kind,
            text=text,
            origin=_("noted by %(who)s") % {"who": lines.now(lines.who(actor))},
            made_by=actor,
            hidden=hidden,
            lasting=lasting,
        )
        summary = lines.line(lines.ADDED, trait, lines.who(actor))
        return _append(campaign, actor, trait, "added", summary, origin=trait.origin)


def edit_trait(campaign_id: int, actor, trait_id, text: str) -> TableEvent:
    """Give a standing trait new text."""
    text = clean_text(text)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        trait = standing_trait(campaign, trait_id, gm=membership.is_gm)
        _may_change(membership, trait)
        if trait.text == text:
            raise ServiceError(_("The trait already reads “%(text)s”.") % {"text": text})
        before, trait.text = trait.text, text
        trait.save(update_fields=["text"])
        summary = said(
            lines.CHANGED,
            who=lines.who(actor),
            before=before,
            text=text,
        )
        return _append(campaign, actor, trait, "changed", summary, before=before)


def remove_trait(campaign_id: int, actor, trait_id) -> TableEvent:
    """Take a trait off the board (its row stays, for the history and a veto)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_role(campaign, actor, "player")
        trait = standing_trait(campaign, trait_id, gm=membership.is_gm)
        _may_change(membership, trait)
        trait.removed_at = timezone.now()
        trait.save(update_fields=["removed_at"])
        return _append(
            campaign,
            actor,
            trait,
            "removed",
            lines.line(lines.REMOVED, trait, lines.who(actor)),
        )


def hide_trait(campaign_id: int, actor, trait_id) -> TableEvent:
    """The GM makes a standing trait secret: players are told only that one left."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        trait = standing_trait(campaign, trait_id, gm=True)  # the GM's command
        if trait.hidden:
            raise ServiceError(_("That trait is already hidden."))
        trait.hidden = True
        trait.save(update_fields=["hidden"])
        # For everyone (their boards must drop it), so it names nothing of the trait.
        payload = {
            "trait_id": trait.pk,
            "action": "hidden",
            "trait_kind": trait.kind,
            **said(lines.HIDDEN),
        }
        return append_event(campaign, events.BOARD_TRAIT, actor, payload)


def reveal_trait(campaign_id: int, actor, trait_id) -> TableEvent:
    """The GM shows a hidden trait to everyone, in one action."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        trait = standing_trait(campaign, trait_id, gm=True)  # the GM's command
        if not trait.hidden:
            raise ServiceError(_("That trait is already on everyone's board."))
        trait.hidden = False
        trait.save(update_fields=["hidden"])
        return _append(
            campaign,
            actor,
            trait,
            "revealed",
            lines.line(lines.REVEALED, trait, lines.GM),
        )


def set_lasting(campaign_id: int, actor, trait_id, lasting: bool) -> TableEvent:
    """The GM keeps a trait past the end of the scene (MO-09b), or lets it go with it."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        trait = standing_trait(campaign, trait_id, gm=True)  # the GM's command
        if trait.lasting == bool(lasting):
            raise ServiceError(
                (
                    _("“%(text)s” is already kept past the scene.")
                    if trait.lasting
                    else _("“%(text)s” already ends with the scene.")
                )
                % {"text": trait.text}
            )
        trait.lasting = bool(lasting)
        trait.save(update_fields=["lasting"])
        sentence = lines.KEPT if trait.lasting else lines.LET_GO
        return _append(campaign, actor, trait, "kept", lines.line(sentence, trait, lines.GM))


VERDICTS = ("impossible", "unnecessary")


def settle_test(
    campaign_id: int, actor, trait_id, character_id, verdict: str, what: str = ""
) -> TableEvent:
    """MO-09b, 2d20: the GM rules that a trait makes a character's test impossible (it
    fails) or unnecessary (it passes), so no dice are rolled and nothing is spent or
    gained. `what`: the test in words ("Power + Athletics")."""
    if verdict not in VERDICTS:
        raise ServiceError(_("A trait makes a test impossible or unnecessary."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        if campaign.uses_d6:
            raise ServiceError(_("In Momenta a trait is one die more or less, never the verdict."))
        trait = standing_trait(campaign, trait_id, gm=True)  # the GM's command
        character = character_in(campaign, character_id)
        sentence = {
            "impossible": lines.IMPOSSIBLE,
            "unnecessary": lines.UNNECESSARY,
        }[verdict]
        what = " ".join(str(what or "").split())[:80] or lines.TEST_WORD
        summary = said(sentence, who=character.name, what=what, text=trait.text)
        return _append(
            campaign,
            actor,
            trait,
            "settled",
            summary,
            verdict=verdict,
            character_id=character.pk,
            character=character.name,
        )


def refuse_for_rolls(campaign_id: int, actor, trait_id, refused: bool = True) -> TableEvent:
    """The GM rules that a trait does not count for rolls (MO-09b: the GM's call): a roll
    that marks it is then refused, nothing spent; `refused=False` lets it count again."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_role(campaign, actor, "gm")
        trait = standing_trait(campaign, trait_id, gm=True)  # the GM's command
        if trait.refused == bool(refused):
            raise ServiceError(
                (
                    _("“%(text)s” already does not count for rolls.")
                    if trait.refused
                    else _("“%(text)s” already counts for rolls.")
                )
                % {"text": trait.text}
            )
        trait.refused = bool(refused)
        trait.save(update_fields=["refused"])
        sentence = lines.REFUSED if trait.refused else lines.ALLOWED
        return _append(
            campaign, actor, trait, "refused" if trait.refused else "allowed",
            lines.line(sentence, trait, lines.GM),
        )  # fmt: skip


# --- Inside other commands (their transaction, their lock) -------------------------------


def apply_spend(
    campaign: Campaign,
    actor,
    *,
    record,
    spend_index: int,
    holder,
    text: str,
    trait_id=None,
    remove: bool = False,
) -> dict | None:
    """MO-09: what a paid Create Trait spend does to the board; the payload's `trait`.

    A new trait (text), a standing one changed (trait_id and text) or removed
    (trait_id, remove). No text and no trait: the spend is paid and the board left
    alone (the GM narrates it). A refusal raises, and the caller's transaction
    undoes the payment too."""
    gm = has_role(_membership(campaign, actor), "gm")
    index = {"spend_index": spend_index}
    if trait_id in (None, ""):
        if remove:
            raise ServiceError(_("Choose the trait to remove."))
        if not text:
            return None
        trait = SceneTrait.objects.create(
            campaign=campaign,
            scene=scene_for_play(campaign),
            text=clean_text(text),
            origin=_("%(who)s's Create Trait spend") % {"who": holder.name},
            made_by=actor,
            character=holder,
            test=record,
            spend_index=spend_index,
            hidden=record.hidden,  # a secret test's trait is as secret (TB-03)
        )
        return {"trait_id": trait.pk, "action": "create", "text": trait.text, **index}
    trait = standing_trait(campaign, trait_id, gm=gm)
    if remove:
        trait.removed_at = timezone.now()
        trait.save(update_fields=["removed_at"])
        return {"trait_id": trait.pk, "action": "remove", "text": trait.text, **index}
    text = clean_text(text)
    before, trait.text = trait.text, text
    trait.save(update_fields=["text"])
    return {"trait_id": trait.pk, "action": "change", "text": text, "before": before, **index}


def undo_spend(campaign: Campaign, done: dict | None) -> dict | None:
    """MO-12 for MO-09: a veto undoes exactly what the spend did to the board."""
    if not done:
        return None
    trait = SceneTrait.objects.filter(campaign=campaign, pk=done["trait_id"]).first()
    if trait is None:
        return None
    if done["action"] == "create":
        trait.removed_at = trait.removed_at or timezone.now()
        trait.save(update_fields=["removed_at"])
    elif done["action"] == "remove":
        trait.removed_at = None
        trait.save(update_fields=["removed_at"])
    elif done["action"] == "change":
        trait.text = done.get("before") or trait.text
        trait.save(update_fields=["text"])
    return done


def spend_trait_done(campaign: Campaign, test_id: int, spend_index: int) -> dict | None:
    """The board change a test's spend made (the `trait` of its d20_spend event)."""
    found = (
        TableEvent.objects.filter(
            campaign=campaign,
            kind=events.D20_SPEND.name,
            payload__test_id=test_id,
            payload__trait__spend_index=spend_index,
        )
        .values_list("payload", flat=True)
        .first()
    )
    return (found or {}).get("trait")


def end_with_scene(campaign: Campaign, scene: Scene, keep=()) -> tuple[list[str], list[str]]:
    """Scene end (MO-09b): the traits not kept leave the board; ([ended], [kept]) texts.
    `keep`: trait ids the GM keeps in the end-scene step, besides those marked lasting."""
    keep = {int(k) for k in keep}
    standing = SceneTrait.objects.filter(campaign=campaign, removed_at__isnull=True)
    ended, kept = [], []
    now = timezone.now()
    for trait in standing:
        if trait.lasting or trait.pk in keep:
            if not trait.lasting:
                trait.lasting = True
                trait.save(update_fields=["lasting"])
            kept.append(trait)
        else:
            trait.removed_at = now
            trait.save(update_fields=["removed_at"])
            ended.append(trait)
    # Players' copies never name a hidden one (the scene_ended event is for everyone).
    return [t.text for t in ended if not t.hidden], [t.text for t in kept if not t.hidden]


def _membership(campaign: Campaign, actor) -> Membership | None:
    return Membership.objects.filter(campaign=campaign, user=actor).first()

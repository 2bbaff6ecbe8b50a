"""Spending a test's Momentum (MO-02 … MO-14, CT-03, CT-04): one use of a spend, the
GM's refunds and vetoes, the assets spends make; closing the ledger is resolution.py's."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from rules.ledger import GM
from rules.momentum import (
    BONUS_DAMAGE,
    CREATE_ASSET,
    CREATE_TRAIT,
    MAKE_ASSET_PERMANENT,
    PLAYERS_SIDE,
    Spend,
    SpendKind,
    SpendOutcome,
    Threat,
)
from tables import events
from tables.errors import refused_by_rules
from tables.models import Asset, Campaign, Character, D20Test, Membership, TableEvent
from tables.policy.access import audience_of, require_control
from tables.policy.d20_records import holder_of, ledger_json, ledger_of, ledger_view, spend_json
from tables.policy.game_lines import catalogue
from tables.services import scene_board
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    lock_campaign,
    require_gm,
    require_playing,
)
from tables.services.d20.checks import NOTE_MAX, visible_test_record
from tables.services.d20.pools import apply_entries, group_pool, keep_secret
from tables.words.said import named, said
from tables.words.said import words as said_words
from tables.words.wording import refund_back_words, spend_name_words, spend_paid_words

ASSET_DEFAULT_NAME = "Scene asset"


def open_for_spending(campaign: Campaign, membership: Membership, test_id) -> D20Test:
    """A test the member sees whose Momentum is still to be spent."""
    record = visible_test_record(campaign, membership, test_id)
    if record.role == D20Test.Role.OPPOSER:
        raise ServiceError(
            gettext("The opposer's roll only sets the Difficulty; it has no Momentum.")
        )
    if record.state == D20Test.State.RESOLVED:
        raise ServiceError(gettext("This test's Momentum has already been resolved."))
    return record


def spend_momentum(
    campaign_id: int,
    actor,
    test_id: int,
    kind_key: str,
    *,
    from_pool: int | None = None,
    to_threat: int = 0,
    note: str = "",
    expected_momentum: int | None = None,
    trait_id: int | None = None,
    remove_trait: bool = False,
) -> TableEvent:
    """Make one use of a Momentum spend after the GM has narrated (MO-02, MO-03, MO-05,
    MO-09, MO-10, MO-11, MO-13, MO-14, CT-03, CT-04).

    Nothing is declared in advance: each call is one use, paid from the roll's
    Momentum (bonus first where allowed), `from_pool` points from the group
    pool (None: whatever the roll does not cover) and `to_threat` points added
    to Threat. A once-per-test spend cannot repeat. The group pool must still
    hold `expected_momentum` if given (else StaleState, nothing changed).

    Create Trait (MO-09, MO-09b): the note is the new trait's text, or with `trait_id`
    the standing trait's new text; `remove_trait` removes that trait instead. The board
    changes as the spend is paid; a refusal (bad text, a trait gone) changes nothing.
    """
    trait_text = _trait_text(kind_key, note, trait_id, remove_trait)
    note = (note or "").strip()[:NOTE_MAX]
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        record = open_for_spending(campaign, membership, test_id)
        holder = _controlled_holder(membership, record)
        kind = _kind_of(campaign, kind_key)
        # MO-10: the asset is named before any point moves; the note keeps its name.
        asset, note = _asset_for(holder, kind, note)
        outcome = _ledger_spend(campaign, record, kind, from_pool, to_threat, note)
        changes = _pay(campaign, record, holder, outcome, expected_momentum)
        asset = _place_asset(holder, kind, asset, note)
        trait = _board_change(
            campaign, actor, record, holder, kind, (trait_text, trait_id, remove_trait)
        )
        summary = _spend_summary(campaign.book_line, holder, outcome)
        payload = _spend_payload(record, holder, outcome.spend, summary)
        payload.update(_board_parts(trait, asset))
        return append_event(
            campaign, events.D20_SPEND, actor, payload, audience=audience_of(record),
            changes=changes,
        )  # fmt: skip


def _controlled_holder(membership: Membership, record: D20Test) -> Character:
    """Who holds the test's Momentum, if the member plays them (the GM, an NPC's)."""
    holder = holder_of(record)
    not_yours = gettext("%(holder)s is not yours to play.") % {"holder": holder.name}
    require_control(membership, holder, not_yours)
    return holder


def _ledger_spend(campaign, record, kind, from_pool, to_threat, note) -> SpendOutcome:
    """The rules' one use of the spend, from the roll's Momentum and the side's pools."""
    ledger = ledger_of(record)
    pool = group_pool(campaign) if ledger.side == PLAYERS_SIDE else None
    with refused_by_rules():
        return ledger.spend(
            kind, pool, from_pool=from_pool, to_threat=to_threat,
            threat=Threat(campaign.threat), note=note,
            gm_pool=campaign.book_line.gm_pool,  # GL-01, worded when drawn
        )  # fmt: skip


def _board_change(campaign, actor, record, holder, kind, change):
    """MO-09: a Create Trait spend changes the board as it is paid; other spends don't."""
    if kind.key != CREATE_TRAIT.key:
        return None
    text, trait_id, remove = change
    return scene_board.apply_spend(
        campaign, actor, record=record, spend_index=len(record.ledger["spends"]) - 1,
        holder=holder, text=text, trait_id=trait_id, remove=remove,
    )  # fmt: skip


def _pay(
    campaign: Campaign,
    record: D20Test,
    holder: Character,
    outcome: SpendOutcome,
    expected_momentum: int | None,
) -> list[Change]:
    """Write one spend's pool changes and its ledger (TB-03: a hidden test's only its own)."""
    changes = apply_entries(
        campaign, outcome.entries, who=holder.name, expected_momentum=expected_momentum
    )
    keep_secret(
        campaign,
        record.hidden,
        changes,
        gettext("Pay from the roll's own Momentum, or reveal the test first."),
    )
    record.ledger = ledger_json(outcome.ledger, record.ledger)
    record.state = D20Test.State.SPENDING
    record.save(update_fields=["ledger", "state"])
    return changes


def _kind_of(campaign, kind_key: str):
    kind = catalogue(campaign).get(kind_key)
    if kind is None:
        raise ServiceError(_("Choose a spend from the list."))
    return kind


def _trait_text(kind_key: str, note: str, trait_id, remove: bool) -> str:
    """Create Trait's new text, checked before anything is read or paid (MO-09)."""
    text = " ".join((note or "").split())
    if kind_key == CREATE_TRAIT.key and (text or trait_id) and not remove:
        text = scene_board.clean_text(text)
    return text


def _board_parts(trait, asset) -> dict:
    """What the spend put on the scene board, for its payload (MO-09, MO-10)."""
    parts = {}
    if trait is not None:
        parts["trait"] = trait
    if asset is not None:
        parts["asset"] = {"name": asset.name, "quality": asset.quality,
                          "permanent": asset.permanent}  # fmt: skip
    return parts


def _spend_summary(line, holder: Character, outcome: SpendOutcome) -> dict:
    """The log's sentence, by the line's names for the pools (GL-01; `line` in its books'
    words: worded for each reader when drawn)."""
    spend = outcome.spend
    return said(
        gettext_noop("{who} spends {n} {pool} on {spend}{note} ({paid})."),
        who=holder.name,
        n=spend.kind.cost,
        pool=named(line.group_pool),
        spend=spend_name_words(spend.kind),
        note=f": {spend.note}" if spend.note else "",
        paid=spend_paid_words(spend, line),
    )


def _spend_payload(record: D20Test, holder: Character, spend: Spend, summary: dict) -> dict:
    """The event of one spend, or of its refund or veto: the spend and what is left."""
    return {
        "test_id": record.pk,
        "character_id": holder.pk,
        "character": holder.name,
        "spend": spend_json(spend),
        "ledger": ledger_view(record),
        **summary,  # said()'s pair
    }


# --- assets (MO-10) ------------------------------------------------------------------------


def _asset_for(holder: Character, kind: SpendKind, note: str) -> tuple[Asset | None, str]:
    """MO-10, before anything is paid: (the scene's asset a Make-permanent spend keeps, or
    None; the spend's note, which names the asset so a veto finds it again)."""
    if kind.key == CREATE_ASSET.key:
        return None, note or ASSET_DEFAULT_NAME
    if kind.key != MAKE_ASSET_PERMANENT.key:
        return None, note
    scene_assets = Asset.objects.filter(character=holder, permanent=False)
    if note:
        scene_assets = scene_assets.filter(name__iexact=note)
    asset = scene_assets.order_by("-pk").first()
    if asset is None:
        named = f" named {note}" if note else ""
        raise ServiceError(
            gettext(
                "%(holder)s has no asset from this scene%(named)s to make permanent (MO-10). "
                "Nothing was spent."
            )
            % {"holder": holder.name, "named": named}
        )
    return asset, asset.name


def _place_asset(holder: Character, kind: SpendKind, asset: Asset | None, note: str):
    """MO-10, once paid: Create Asset puts a Quality 0 asset on the sheet until the scene
    ends (sessions.end_scene removes it); Make permanent keeps one for good."""
    if kind.key == CREATE_ASSET.key:
        return Asset.objects.create(character=holder, name=note, quality=0, permanent=False)
    if asset is not None:
        asset.permanent, asset.quality = True, 0
        asset.save(update_fields=["permanent", "quality"])
    return asset


def _take_back_asset(holder: Character, spend: Spend) -> None:
    """MO-12: a vetoed asset spend is undone on the sheet as its points are refunded."""
    if spend.kind.key == CREATE_ASSET.key:
        # Permanent or not (MO-10): a later Make permanent does not save it from the veto.
        made = Asset.objects.filter(character=holder, name=spend.note)
        made.filter(pk__in=made.order_by("permanent", "-pk").values("pk")[:1]).delete()
    elif spend.kind.key == MAKE_ASSET_PERMANENT.key:
        kept = Asset.objects.filter(character=holder, name=spend.note, permanent=True)
        kept = kept.order_by("-pk").first()
        if kept is not None:
            kept.permanent = False
            kept.save(update_fields=["permanent"])


# --- the GM's refunds and vetoes (MO-11, MO-12) ----------------------------------------------


def _gm_refund(campaign_id, actor, test_id, index, *, veto: bool, reason: str = "") -> TableEvent:
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        record = open_for_spending(campaign, membership, test_id)
        holder = holder_of(record)
        ledger = ledger_of(record)
        pool = group_pool(campaign) if ledger.side == PLAYERS_SIDE else None
        if veto:
            _refuse_veto_after_hit(record, index)
        with refused_by_rules():
            if veto:
                outcome = ledger.veto(
                    index, pool, actor=GM, threat=Threat(campaign.threat), reason=reason
                )
            else:
                outcome = ledger.refund_dont_know(
                    index, pool, actor=GM, threat=Threat(campaign.threat)
                )
        changes = apply_entries(campaign, outcome.entries, who=holder.name)
        keep_secret(campaign, record.hidden, changes, gettext("Reveal the test first."))
        record.ledger = ledger_json(outcome.ledger, record.ledger)
        record.save(update_fields=["ledger"])
        spend = outcome.spend
        undone = None
        if veto:
            _take_back_asset(holder, spend)
            if spend.kind.key == CREATE_TRAIT.key:
                done = scene_board.spend_trait_done(campaign, record.pk, index)
                undone = scene_board.undo_spend(campaign, done)
        summary = said(
            _VETO if veto else _DONT_KNOW,
            who=holder.name,
            spend=spend_name_words(spend.kind),
            back=refund_back_words(spend, changes, campaign.book_line)
            or said_words(gettext_noop("nothing to give back")),
            why=_refund_reason(veto, reason),
            board=_board_undone(undone) if undone is not None else "",
        )
        payload = _spend_payload(record, holder, spend, summary)
        if undone is not None:
            payload["trait"] = undone
        return append_event(
            campaign,
            events.D20_VETO if veto else events.D20_REFUND,
            actor,
            payload,
            audience=audience_of(record),
            changes=changes,
        )


def _refuse_veto_after_hit(record: D20Test, index) -> None:
    """SC-02: Bonus Damage already dealt to a target is not refunded by a veto (void the
    test instead, which takes the hit back too)."""
    spends = record.ledger.get("spends") or ()
    spend = spends[index] if isinstance(index, int) and 0 <= index < len(spends) else {}
    if spend.get("key") == BONUS_DAMAGE.key and record.spec.get("hit_seq"):
        raise ServiceError(
            _("That Bonus Damage has been dealt: void the test to take the hit back.")
        )


_VETO = gettext_noop("The GM vetoes %(who)s's %(spend)s (%(back)s): %(why)s.%(board)s")
_DONT_KNOW = gettext_noop(
    "The GM answers “you don't know” and refunds %(who)s's %(spend)s (%(back)s): %(why)s.%(board)s"
)


def _refund_reason(veto: bool, reason: str) -> dict:
    """The rules' refund reason (MO-11, MO-12), as a sentence worded per reader."""
    if not veto:
        return said_words(gettext_noop("the answer was “you don't know” (MO-11)"))
    if reason:
        return said_words(gettext_noop("vetoed by the GM: %(reason)s (MO-12)"), reason=reason)
    return said_words(gettext_noop("vetoed by the GM (MO-12)"))


def _board_undone(done: dict) -> dict:
    """MO-12 for MO-09: what the veto undid on the board, in words (with its space)."""
    sentences = {
        "create": gettext_noop(" “%(text)s” leaves the board."),
        "remove": gettext_noop(" “%(text)s” is back on the board."),
        "change": gettext_noop(" The trait reads “%(before)s” again."),
    }
    return said_words(sentences[done["action"]], text=done["text"], before=done.get("before", ""))


def refund_dont_know(campaign_id: int, actor, test_id: int, spend_index: int) -> TableEvent:
    """MO-11: the GM answered “you don't know”: that question's point comes back
    where it came from (the roll, the group pool, or Threat taken back)."""
    return _gm_refund(campaign_id, actor, test_id, spend_index, veto=False)


def veto_spend(
    campaign_id: int, actor, test_id: int, spend_index: int, reason: str = ""
) -> TableEvent:
    """MO-12: the GM vetoes a spend; every point goes back where it came from."""
    reason = (reason or "").strip()[:NOTE_MAX]
    return _gm_refund(campaign_id, actor, test_id, spend_index, veto=True, reason=reason)

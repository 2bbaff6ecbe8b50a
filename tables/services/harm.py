"""Harm tracks at the table (SC-02): the GM sets them, applies attacks' damage, and
records recovery; every move is an ordered TableEvent and HarmEntry ledger lines.

The arithmetic is rules.harm's; this module locks, checks who may, and writes. Only
GMs move tracks: a player's attack is proposed by its roll (the damage it computed)
and the GM confirms it, or adjusts it with a reason.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import harm
from rules.errors import RulesError
from tables import events
from tables.models import (
    Campaign,
    Character,
    D20Test,
    HarmEntry,
    HarmTrack,
    MomentaRoll,
    TableEvent,
)
from tables.policy.harm_rules import bonus_damage, line_key
from tables.services import attacks, harm_marks, harm_words
from tables.services import harm_tracks as tracks
from tables.services.core import ServiceError, append_event, lock_campaign, require_gm
from tables.words.said import said, words


def set_track(
    campaign_id: int, actor, character_id: int, track: str, maximum: int, *, hidden: bool = False
) -> TableEvent:
    """The GM sets a character's track maximum on the sheet (a new track starts at 0
    taken). A maximum below the harm already taken is refused: recover it first."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        kind = tracks.kind(campaign, track)
        character = tracks.target(campaign, character_id)
        try:
            harm.check_max(maximum)
        except RulesError as error:
            raise ServiceError(str(error)) from None
        hidden = bool(hidden) and character.is_npc
        row = _track_to_set(campaign, character, kind, maximum, hidden)
        row.maximum, row.hidden = maximum, hidden
        row.save()
        return append_event(
            campaign,
            events.HARM_TRACK_SET,
            actor,
            _track_set_payload(character, kind, row),
            audience=tracks.audience(row),
        )


def _track_to_set(
    campaign: Campaign, character: Character, kind: harm.TrackKind, maximum: int, hidden: bool
) -> HarmTrack:
    """The row the GM's setting lands on (new at 0 taken), refused when it would drop
    below the harm taken or would change nothing."""
    row = HarmTrack.objects.filter(character=character, track=kind.key).first()
    if row is None:
        return HarmTrack(campaign=campaign, character=character, track=kind.key, taken=0)
    if row.taken > maximum:
        raise ServiceError(
            _("%(who)s has taken %(taken)d %(track)s: recover it before lowering the track.")
            % {"who": character.name, "taken": row.taken, "track": kind.label}
        )
    if (row.maximum, row.hidden) == (maximum, hidden):
        # Under the lock: a second press of the same setting writes no event.
        raise ServiceError(
            _("%(who)s's %(track)s is already set to %(max)d. Nothing was changed.")
            % {"who": character.name, "track": kind.label, "max": maximum}
        )
    return row


def _track_set_payload(character: Character, kind: harm.TrackKind, row: HarmTrack) -> dict:
    return {
        "character_id": character.pk,
        "character": character.name,
        "track": kind.key,
        "label": kind.label,
        "taken": row.taken,
        "maximum": row.maximum,
        "hidden": row.hidden,
        **said(
            gettext_noop("%(who)s's %(track)s: %(taken)d of %(max)d."),
            who=character.name,
            track=words(kind.label),
            taken=row.taken,
            max=row.maximum,
        ),
    }


def _amount(computed: int, amount, reason: str) -> int:
    """The GM confirms the computed damage, or adjusts it with a reason."""
    if amount is None:
        return computed
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ServiceError(_("Damage is a whole number of 0 or more."))
    if amount != computed and not reason:
        raise ServiceError(_("Give a reason for changing the damage: the log shows it."))
    return amount


def apply_momenta_hit(
    campaign_id: int, actor, roll_id: int, target_id=None, *, amount=None, reason: str = ""
) -> TableEvent:
    """SC-02, D6-09, PAT-06: the GM applies a resolved Momenta attack's damage (its template's
    band damage, overflow and Solid Hit's +N included) to the target's harm or Strain track,
    as the template says; `amount` adjusts it (with a reason). The target is the one the
    roller named in the composer unless `target_id` says another. One application per roll;
    none for a voided roll."""
    reason = tracks.reason(reason, required=False)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        roll = MomentaRoll.objects.filter(campaign=campaign, pk=roll_id).first()
        if roll is None:
            raise ServiceError(_("That roll is not in this campaign."))
        if roll.spec.get("kind") != "attack" or roll.state != MomentaRoll.State.RESOLVED:
            raise ServiceError(_("Only a resolved attack roll deals damage."))
        computed = (roll.applied or {}).get("damage")
        if computed is None:
            raise ServiceError(_("This attack's template deals no damage."))
        attacks.refuse_if_voided(roll)
        target = tracks.target(campaign, _chosen(target_id, roll.card))
        tracks.refuse_second_hit(momenta_roll=roll)
        dealt = _amount(computed, amount, reason)
        # The template says what its damage counts (rules.templates.HARMS): harm or Strain.
        deals = (roll.spec.get("template") or {}).get("harm")
        kind = tracks.kind(campaign, "strain" if deals == "strain" else "harm")
        track = tracks.track(target, kind)
        step = tracks.move(track, dealt)
        values = {"who": target.name, "n": step.delta, "track": words(kind.label)}
        values.update(taken=step.after, max=track.maximum)
        event = tracks.write(
            campaign,
            actor,
            target,
            [(kind, track, step)],
            reason or words(gettext_noop("%(who)s's attack"), who=roll.character.name),
            audience=tracks.audience(track, secret=roll.hidden),
            extra={"source_roll_id": roll.pk, "dealt": dealt},
            summary=said(
                gettext_noop("%(who)s takes %(n)d %(track)s (%(taken)d of %(max)d)."), **values
            ),
            sources={"momenta_roll": roll},
        )
        attacks.mark_hit(roll, event)
        return event


def _chosen(target_id, kept: dict):
    """The GM's target, else the one the roller named with the roll (SC-02)."""
    chosen = target_id if target_id is not None else (kept or {}).get("target_id")
    if chosen is None:
        raise ServiceError(_("Choose the target: this roll names none."))
    return chosen


def apply_d20_hit(
    campaign_id: int,
    actor,
    test_id: int,
    target_id=None,
    *,
    track: str,
    total: int,
    bonus: int | None = None,
    soak: int = 0,
    reason: str = "",
    take_injury: bool = False,
) -> TableEvent:
    """SC-02 (2d20): the GM applies a passed attack's damage, dice `total` + `bonus` (None:
    the test's Bonus Damage spends) - `soak`, on `track`; the line's rule adds harms to the
    track it names (rules.harm; STA 2e: `take_injury` is the target's side's choice, SC-06);
    Dune defeats a minor foe (harm_marks). One hit per test, on the composer's target."""
    reason = tracks.reason(reason, required=False)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        if campaign.dice_system != Campaign.DiceSystem.D20:
            raise ServiceError(_("This is a Momenta campaign: apply the roll's damage."))
        test = _passed_attack(campaign, test_id)
        target = tracks.target(campaign, _chosen(target_id, test.spec))
        if harm.HARM_RULE[line_key(campaign)] == harm.MINOR_FOE:  # SC-06, Dune: no damage
            return harm_marks.defeat_minor_foe(campaign, actor, test, target, reason)
        kind = _stress_kind(campaign, track)
        tracks.refuse_second_hit(d20_test=test)
        dealt = _d20_dealt(test, total, bonus, soak)
        row, harms_kind = tracks.track(target, kind), tracks.kind(campaign, kind.harms)
        harms_row = tracks.track(target, harms_kind)
        hit, moves = _challenge_moves(
            campaign, dealt, (kind, row), (harms_kind, harms_row), take_injury
        )
        event = tracks.write(
            campaign,
            actor,
            target,
            moves,
            reason or words(gettext_noop("%(who)s's attack"), who=test.character.name),
            audience=tracks.audience(row, harms_row, secret=test.hidden),
            extra={"source_test_id": test.pk, "dealt": dealt, **hit.choice},
            summary=_hit_summary(target, moves[0][2], hit, kind, harms_kind),
            sources={"d20_test": test},
        )
        attacks.mark_hit(test, event)
        return event


def _d20_dealt(test: D20Test, total: int, bonus: int | None, soak: int) -> int:
    """The Challenge dice total + Bonus Damage (the test's spends unless given) - soak."""
    bonus = bonus_damage(test) if bonus is None else bonus
    try:
        return harm.hit_damage(total, bonus, soak)
    except RulesError as error:
        raise ServiceError(str(error)) from None


def _challenge_moves(campaign: Campaign, dealt: int, stress, harms, take_injury: bool):
    """The line's rule for a hit of `dealt`: the stress track's move (none if the target
    took the Injury instead, STA 2e), then the harms it adds to the track it names, which
    grows to hold them on a line that counts harms past the track (SC-R19)."""
    (kind, row), (harms_kind, harms_row), line = stress, harms, line_key(campaign)
    both = campaign.double_harm
    try:
        hit = harm.challenge_hit(
            harm.HARM_RULE[line], row.taken, row.maximum, dealt, both=both, take_injury=take_injury
        )
        size = harm.harms_track_size(line, harms_row.taken, harms_row.maximum, hit.harms)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    moves = [(kind, row, tracks.move(row, hit.marked))]
    if size != harms_row.maximum:  # the box first: a track never holds more than its size
        HarmTrack.objects.filter(pk=harms_row.pk).update(maximum=size)
        harms_row.maximum = size
    if hit.harms:
        moves.append((harms_kind, harms_row, tracks.move(harms_row, hit.harms)))
    return hit, moves


def _hit_summary(target: Character, step: harm.Step, hit, kind, harms_kind) -> dict:
    values = {"who": target.name, "n": step.delta, "track": words(kind.label)}
    values.update(harms=hit.harms, harm=words(harms_kind.label), dealt=hit.dealt)
    return harm_words.choice_summary(hit, values) or said(
        gettext_noop("%(who)s takes %(n)d %(track)s and %(harms)d %(harm)s."), **values
    )


def _passed_attack(campaign: Campaign, test_id: int) -> D20Test:
    test = D20Test.objects.filter(campaign=campaign, pk=test_id).first()
    if test is None:
        raise ServiceError(_("That test is not in this campaign."))
    if not (test.result or {}).get("passed"):
        raise ServiceError(_("Only a passed attack deals damage."))
    attacks.refuse_if_voided(test)
    return test


def _stress_kind(campaign: Campaign, track: str):
    """The track a 2d20 hit's damage goes on: one whose line names its harms."""
    kind = tracks.kind(campaign, track)
    if not kind.harms:
        raise ServiceError(
            _("Damage goes on a stress-like track, not on %(track)s.") % {"track": kind.label}
        )
    return kind


def recover(
    campaign_id: int, actor, character_id: int, track: str, amount: int, reason: str
) -> TableEvent:
    """Healing / recovery: the GM takes `amount` off a track, with a reason (never below 0)."""
    reason = tracks.reason(reason, required=True)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise ServiceError(_("Recover a whole number of 1 or more."))
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        kind = tracks.kind(campaign, track)
        target = tracks.target(campaign, character_id)
        row = tracks.track(target, kind)
        if row.taken == 0:
            # Read under the lock: of many presses at once, only those that heal write.
            raise ServiceError(
                _("%(who)s has taken no %(track)s: there is nothing to recover.")
                % {"who": target.name, "track": kind.label}
            )
        step = tracks.move(row, -amount)
        return tracks.write(
            campaign,
            actor,
            target,
            [(kind, row, step)],
            reason,
            audience=tracks.audience(row),
            extra={},
            summary=said(
                gettext_noop("%(who)s recovers %(n)d %(track)s (%(taken)d of %(max)d)."),
                who=target.name,
                n=-step.delta,
                track=words(kind.label),
                taken=step.after,
                max=row.maximum,
            ),
            sources={},
        )


def reverse_hit(campaign, actor, hit_event: TableEvent, lines, seq: int, reason: str):
    """A voided roll's hit taken back (SC-02): each of its ledger lines reversed exactly,
    as secret as the hit; a track that cannot give it back exactly refuses the void."""
    first = lines[0].track.character
    moves = []
    for line in lines:
        row = HarmTrack.objects.get(pk=line.track_id)
        if row.taken < line.delta:
            raise ServiceError(
                _("#%(seq)d cannot be voided: %(who)s has recovered since its hit. Nothing "
                  "was changed.") % {"seq": seq, "who": first.name}
            )  # fmt: skip
        moves.append((tracks.kind(campaign, row.track), row, tracks.move(row, -line.delta)))
    why = words(gettext_noop("Voided #%(seq)d: %(why)s"), seq=seq, why=reason)
    return tracks.write(
        campaign,
        actor,
        first,
        moves,
        why,
        audience=hit_event.audience,
        extra={},
        summary=said(
            gettext_noop("%(who)s's harm from #%(seq)d is taken back."), who=first.name, seq=seq
        ),
        sources={},
    )


def record_of(event: TableEvent):
    """The roll `event` announced (a Momenta roll or a 2d20 test), else None."""
    if event.kind == events.MOMENTA_ROLL.name:
        return MomentaRoll.objects.filter(event=event).first()
    if event.kind == events.D20_TEST.name:
        return D20Test.objects.filter(event=event).first()
    return None


def undo_hit(campaign, actor, voided: TableEvent, reason: str) -> TableEvent | None:
    """Voiding a roll takes its hit back off the target's tracks (SC-02), in a harm event
    of its own, as secret as the hit was. A track that has since recovered below what the
    hit added cannot give it back exactly: refused, and the void with it (nothing changes)."""
    record = record_of(voided)
    if record is None:
        return None
    source = {"momenta_roll": record} if isinstance(record, MomentaRoll) else {"d20_test": record}
    hit = HarmEntry.objects.filter(hit=True, **source).select_related("event").first()
    if hit is None:
        return None
    lines = HarmEntry.objects.filter(event=hit.event).select_related("track", "track__character")
    return reverse_hit(campaign, actor, hit.event, list(lines), voided.seq, reason)

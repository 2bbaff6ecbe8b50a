"""The harm tracks' shared steps (SC-02): find a track, move it under the conditional
update, and write the move as one event with its ledger lines. The GM's commands
(harm.py) and the minor foes' defeat (harm_marks.py) both build on these."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import harm
from rules.errors import RulesError
from rules.sentences import english
from tables import events
from tables.models import Campaign, Character, HarmEntry, HarmTrack, TableEvent
from tables.models.limits import NOTE_MAX
from tables.policy.harm_rules import line_key
from tables.services.core import ServiceError, append_event

GM = TableEvent.Audience.GM


ALL = TableEvent.Audience.ALL


def kind(campaign: Campaign, track: str) -> harm.TrackKind:
    try:
        return harm.track_kind(line_key(campaign), track)
    except RulesError as error:
        raise ServiceError(str(error)) from None


def reason(reason, *, required: bool) -> str:
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if required and not reason:
        raise ServiceError(_("Give a reason: the log shows it."))
    if len(reason) > NOTE_MAX:
        raise ServiceError(_("A reason holds at most %(n)d characters.") % {"n": NOTE_MAX})
    return reason


def target(campaign: Campaign, character_id) -> Character:
    character = Character.objects.filter(campaign=campaign, pk=character_id).first()
    if character is None:
        raise ServiceError(_("That character is not in this campaign."))
    return character


def track(character: Character, kind: harm.TrackKind) -> HarmTrack:
    track = HarmTrack.objects.filter(character=character, track=kind.key).first()
    if track is None:
        raise ServiceError(
            _("Set %(who)s's %(track)s on the sheet first.")
            % {"who": character.name, "track": kind.label}
        )
    return track


def give_line_tracks(campaign: Campaign, character: Character) -> list[dict]:
    """SC-02: a new character's tracks, as its line's sheets carry them, sized by the
    book's formula from the sheet's rows where it has one (rules.harm.starting_max),
    else the line's default (ruling SC-R21), for the GM to adjust. A track the
    character already has is left as it is. Returns what was made, for the event."""
    key = line_key(campaign)
    sheet = {row.name: row.value for row in character.attributes.all()}
    for row in character.skills.all():
        sheet.setdefault(row.name, row.value)
    have = set(HarmTrack.objects.filter(character=character).values_list("track", flat=True))
    made = [
        HarmTrack(
            campaign=campaign,
            character=character,
            track=kind.key,
            maximum=harm.starting_max(key, kind, sheet),
        )
        for kind in harm.tracks_of(key)
        if kind.key not in have
    ]
    HarmTrack.objects.bulk_create(made)
    return [{"track": row.track, "maximum": row.maximum} for row in made]


def audience(*tracks: HarmTrack, secret: bool = False) -> str:
    # A hidden NPC track, or a roll still secret (TB-03), keeps the move from players.
    return GM if secret or any(t.hidden for t in tracks) else ALL


def move(track: HarmTrack, delta: int) -> harm.Step:
    step = harm.move(track.taken, track.maximum, delta)
    # Conditional update: a writer that slipped past the lock (SQLite) matches 0 rows.
    if HarmTrack.objects.filter(pk=track.pk, taken=track.taken).update(taken=step.after) != 1:
        raise ServiceError(_("The track changed meanwhile; try again."))
    track.taken = step.after
    return step


def line(kind: harm.TrackKind, track: HarmTrack, step: harm.Step) -> dict:
    return {
        "track": kind.key,
        "label": kind.label,
        "delta": step.delta,
        "after": step.after,
        "maximum": track.maximum,
        "lost": step.lost,
    }


def write(
    campaign, actor, character, moves, reason, *, audience, extra, summary, sources
) -> TableEvent:
    """The event, then its ledger lines (the first one is the hit, when it comes from a roll).
    `reason`: what the GM typed, or a sentence (tables/words/said.py) the site wrote."""
    sentence = reason if isinstance(reason, dict) else None
    reason = english(reason)
    event = append_event(
        campaign,
        events.HARM_APPLIED,
        actor,
        {
            "target_id": character.pk,
            "target": character.name,
            "moves": [line(kind, track, step) for kind, track, step in moves],
            "reason": reason,
            **({"reason_words": sentence} if sentence else {}),
            **extra,
            **summary,  # said()'s pair: worded for each reader
        },
        audience=audience,
    )
    HarmEntry.objects.bulk_create(
        HarmEntry(
            event=event,
            campaign=campaign,
            track=track,
            delta=step.delta,
            after=step.after,
            lost=step.lost,
            reason=reason[:200],
            hit=index == 0 and bool(sources),
            **sources,
        )
        for index, (_, track, step) in enumerate(moves)
    )
    return event


def refuse_second_hit(**source) -> None:
    if HarmEntry.objects.filter(hit=True, **source).exists():
        raise ServiceError(_("That roll's damage has already been applied."))

"""Where a session and its scenes sit in the event log: a stretch of sequence numbers.

A session runs from its `session_started` event to the next one's (or the log's end);
a scene from its `scene_started` event (or the session's start, for a scene opened by
play) to its `scene_ended`. Only these markers are read: one small query.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables import events
from tables.models import Campaign, TableEvent

MARKERS = (events.SESSION_STARTED.name, events.SCENE_STARTED.name, events.SCENE_ENDED.name)


@dataclass(frozen=True)
class Span:
    """Events first … last (both included) of session `session`, or of its scene `scene`."""

    session: int
    scene: int | None
    first: int
    last: int
    title: str = ""


@dataclass(frozen=True)
class Outline:
    """A campaign's sessions, each with its scenes, oldest first."""

    sessions: tuple[Span, ...]
    scenes: tuple[Span, ...]

    def session(self, number: int | None) -> Span | None:
        """Session `number`; None: the latest. None if there is no such session."""
        if number is None:
            return self.sessions[-1] if self.sessions else None
        return next((s for s in self.sessions if s.session == number), None)

    def scenes_of(self, session: Span) -> tuple[Span, ...]:
        return tuple(s for s in self.scenes if s.session == session.session)

    def scene(self, number: int) -> Span | None:
        return next((s for s in self.scenes if s.scene == number), None)


def outline(campaign: Campaign) -> Outline:
    """The sessions and scenes of `campaign`, from its marker events (all public)."""
    rows = (
        TableEvent.objects.filter(campaign=campaign, kind__in=MARKERS)
        .order_by("seq")
        .values_list("seq", "kind", "payload")
    )
    sessions: list[Span] = []
    scenes: list[Span] = []
    opened: dict[int, tuple[int, str]] = {}  # scene number -> (first seq, title)
    for seq, kind, payload in rows:
        number = payload.get("number")
        if kind == events.SESSION_STARTED.name:
            sessions.append(Span(number, None, seq, campaign.last_seq))
            if len(sessions) > 1:
                before = sessions[-2]
                sessions[-2] = Span(before.session, None, before.first, seq - 1)
        elif not sessions:
            continue  # play before any session: no session's recap holds it
        elif kind == events.SCENE_STARTED.name:
            opened[number] = (seq, payload.get("title", ""))
        else:
            start = scenes[-1].last + 1 if scenes else sessions[-1].first
            first, title = opened.pop(number, (max(start, sessions[-1].first), ""))
            scenes.append(
                Span(sessions[-1].session, number, first, seq, payload.get("title") or title)
            )
    for number, (first, title) in opened.items():  # still running
        last = sessions[-1].last if sessions else campaign.last_seq
        scenes.append(Span(sessions[-1].session, number, first, last, title))
    return Outline(tuple(sessions), tuple(scenes))

"""Who sees the § marks that name a rule's clause (issue 37).

A person's own setting (PersonSettings.rule_marks): "" lets the table decide, shown to
a campaign's GMs and hidden from players and observers; "on" and "off" say always and
never. A template draws a mark only when its context's `rule_marks` is true
(templatetags/rule_refs.py), so a page that says nothing shows none.

The preference travels like the language: kept in the session at login and on save,
active for a request (views/locale.py) and inside `reading_as` for pushed fragments
(policy/locale.py), whose memo key, the Reader, holds it.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from tables.models import PersonSettings, TableEvent

AUTO, ON, OFF = "", "on", "off"
SESSION_KEY = "momenta_rule_marks"
GM = TableEvent.Audience.GM.value

# The reader's preference now. AUTO outside a request or a reader: the defaults.
_preference: ContextVar[str] = ContextVar("rule_marks", default=AUTO)


def shown(preference: str, audience: str) -> bool:
    """Marks for this reader: asked for, or left to the table and reading as a GM."""
    return preference == ON or (preference == AUTO and audience == GM)


def known(preference) -> str:
    return preference if preference in (AUTO, ON, OFF) else AUTO


def chosen(session, user) -> str:
    """The person's preference: from the session, else (a session from before the key)
    from their settings; AUTO for someone not logged in."""
    if not getattr(user, "is_authenticated", False):
        return AUTO
    kept = session.get(SESSION_KEY) if session is not None else None
    if kept is not None:
        return known(kept)
    return known(PersonSettings.of(user).rule_marks)


def active() -> str:
    return _preference.get()


@contextmanager
def preferring(preference: str):
    """`preference` active inside, the one before after."""
    token = _preference.set(known(preference))
    try:
        yield
    finally:
        _preference.reset(token)

"""The scene board's log lines (issue 35): each stored as its English sentence and its
values (tables/words/said.py), so every reader reads it in their own language, whoever wrote
it. The English line stays in the payload for Discord and exports."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from tables.words.said import said, worded, words

ADDED = gettext_noop("%(who)s puts on the board: “%(text)s”.")
CHANGED = gettext_noop("%(who)s changes “%(before)s” to “%(text)s”.")
REMOVED = gettext_noop("%(who)s removes: “%(text)s”.")
HIDDEN = gettext_noop("The GM takes a trait off the players' board.")
REVEALED = gettext_noop("%(who)s reveals: “%(text)s”.")
KEPT = gettext_noop("%(who)s keeps past the scene: “%(text)s”.")
LET_GO = gettext_noop("%(who)s lets end with the scene: “%(text)s”.")
IMPOSSIBLE = gettext_noop("%(who)s's %(what)s is impossible: “%(text)s” (it fails, no roll).")
UNNECESSARY = gettext_noop(
    "%(who)s's %(what)s is unnecessary: “%(text)s” (it passes, no roll, no Momentum)."
)
REFUSED = gettext_noop("%(who)s does not let count for rolls: “%(text)s”.")
ALLOWED = gettext_noop("%(who)s lets count for rolls: “%(text)s”.")
TEST = gettext_noop("test")

GM = words(gettext_noop("GM"))
TEST_WORD = words(TEST)


def line(sentence: str, trait, who) -> dict:
    """`summary` and `summary_words` for a trait's event."""
    return said(sentence, who=who, text=trait.text)


def who(actor):
    """Who did it: their name, or "The table" (worded per reader) for no one signed in."""
    if getattr(actor, "is_authenticated", False):
        return actor.get_username()
    return words(gettext_noop("The table"))


def now(who) -> str:
    """`who` in the active language, for text stored as written (a trait's origin)."""
    return who if isinstance(who, str) else worded({"summary_words": who})

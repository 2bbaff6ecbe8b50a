"""What the table log's filters keep: the filters by name, and which an entry passes.

The first page and older pages filter in the query (log_page.py); live pushes, drawn
once per audience and never per filter, carry their topics as classes the page hides
with CSS (`LogEntry.topics`, render.py).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from tables import events as kinds

# Keys in the URL (?show=), words for the reader, drawn lazily.
SHOWS = {
    "all": gettext_lazy("Everything"),
    "rolls": gettext_lazy("Rolls"),
    "pools": gettext_lazy("Pool changes"),
    "talk": pgettext_lazy("log filter: table talk", "Talk"),
}
DEFAULT_SHOW = "all"

# Kinds that are a roll of dice, or its immediate outcome.
ROLL_KINDS = frozenset(
    {
        kinds.MOMENTA_ROLL.name,
        kinds.MOMENTA_PATTERNS.name,
        kinds.SECRET_ROLL.name,
        kinds.ROLL_REVEALED.name,
        kinds.D20_TEST.name,
        kinds.D20_REROLL.name,
        kinds.CONTEST_OPENED.name,
        kinds.CONTEST_RESOLVED.name,
    }
)


# Words at the table: the GM's notes and table talk (a message to the GM, a whisper included).
TALK_KINDS = frozenset(
    {kinds.NOTE.name, kinds.TALK.name, kinds.TALK_PRIVATE.name, kinds.TALK_WHISPER.name}
)


def topics(kind: str, changes) -> tuple[str, ...]:
    """The filters that keep an entry (besides "all"): the same test as log_page's query."""
    found = []
    if kind in ROLL_KINDS:
        found.append("rolls")
    if changes:
        found.append("pools")
    if kind in TALK_KINDS:
        found.append("talk")
    return tuple(found)


def parse_show(raw: str | None) -> str | None:
    """The filter named by `raw` ("" or absent: everything), or None if it names none."""
    if not raw:
        return DEFAULT_SHOW
    return raw if raw in SHOWS else None

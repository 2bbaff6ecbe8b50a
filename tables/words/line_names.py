"""A game line's names in the reader's language (issue 28), and the labels that name
its pools.

rules/game_lines.py names the pools in English, as its books do; a campaign's
`line` (tables/models/core.py) is that line with its names worded in the active
language, so every page, odds line and spend panel says "Bedrohung" or "Menace"
where the line says "Threat". Keys and behaviour are the rules' own.

The names are listed here for the catalogue: a line whose name is missing here
fails tests/tables/test_line_words.py.

A fixed label that names a pool ("Threat added", tables/events.py) takes the names as
placeholders ("%(gm_pool)s added"), filled by `labelled` from the campaign's line
(GL-01): "Doom added" at a Conan table, "Verderben hinzugefügt" for a German reader."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from django.utils.translation import get_language, gettext

from rules import game_lines
from rules.errors import gettext_noop  # needs no settings: the export schema imports this

# The fields of a line that are words, not keys.
NAMED = ("title", "group_pool", "gm_pool", "personal_pool", "challenge_dice")
# Those a label may name by placeholder, "%(gm_pool)s".
PLACEHOLDERS = ("group_pool", "gm_pool", "personal_pool", "challenge_dice")

NAMES = frozenset(
    {
        gettext_noop("Momentum"),
        gettext_noop("Threat"),
        gettext_noop("Determination"),
        gettext_noop("Doom"),
        gettext_noop("Fortune"),
        gettext_noop("Action Points"),
        gettext_noop("GM's AP"),
        gettext_noop("Luck"),
        gettext_noop("Challenge dice"),
        gettext_noop("Combat dice"),
        gettext_noop("2d20 (core rules)"),
        gettext_noop("Star Trek Adventures, 1st edition"),
        gettext_noop("Star Trek Adventures, 2nd edition"),
        gettext_noop("Robert E. Howard's Conan"),
        gettext_noop("Fallout"),
        gettext_noop("Dune: Adventures in the Imperium"),
        gettext_noop("Achtung! Cthulhu"),
    }
)


def worded_line(line: game_lines.GameLine) -> game_lines.GameLine:
    """`line` with its names in the active language (the same object in English)."""
    return _worded(line, get_language() or "")


@lru_cache(maxsize=256)
def _worded(line: game_lines.GameLine, language: str) -> game_lines.GameLine:
    # One copy per line and language: a page asks for the line many times. Keyed by
    # the line itself (a frozen dataclass), so a changed line is never served stale.
    words = {field: gettext(value) for field in NAMED if (value := getattr(line, field))}
    if all(words[field] == getattr(line, field) for field in words):
        return line
    return replace(line, **words)


def labelled(label, line=None) -> str:
    """`label` ("%(gm_pool)s added", lazy) in the active language with `line`'s names:
    `line` is a campaign's `line` (already worded); None, the seeds' (2d20 core)."""
    line = line if line is not None else worded_line(game_lines.LINES[game_lines.DEFAULT])
    names = {field: getattr(line, field) for field in PLACEHOLDERS}
    names["challenge_dice"] = names["challenge_dice"] or gettext("Challenge dice")
    return str(label) % names

"""Rule clause IDs in sentences: how to find them, and a sentence without them (issue 14).

The code names the clause of RULES.md it follows ("No Assists during character
creation (PM-12)."), which helps its reader; players read words. Templates move
an ID behind a marker (templatetags/rule_refs); a refusal (ServiceError) simply
leaves it out, keeping the plain-language reason.
"""

from __future__ import annotations

import re

# PM-05, PM-05/06, D6-07, CT-R1, T-R1, PAT-06..PAT-08
CLAUSE = r"[A-Z][A-Z0-9]{0,3}-R?\d+(?:/\d+)*(?:\.\.[A-Z][A-Z0-9]{0,3}-R?\d+)?"
ONE_CLAUSE = re.compile(rf"^{CLAUSE}$")
ANY_CLAUSE = re.compile(rf"\b{CLAUSE}\b")
# A parenthesis holding at least one clause ID, with the space before it.
PAREN = re.compile(rf"(\s?)\(([^()]*?\b{CLAUSE}\b[^()]*)\)")
ITEM_SPLIT = re.compile(r",\s*|\s+and\s+")


def split_paren(inner: str) -> tuple[list[str], list[str]] | None:
    """The words and the IDs of a parenthesis ("at the cap, PM-04"), or None when an
    item mixes both ("see PM-04 first"), which is left as written."""
    items = [item.strip() for item in ITEM_SPLIT.split(inner) if item.strip()]
    ids = [item for item in items if ONE_CLAUSE.match(item)]
    words = [item for item in items if not ONE_CLAUSE.match(item)]
    if not ids or any(ANY_CLAUSE.search(word) for word in words):
        return None
    return words, ids


def _drop(match: re.Match) -> str:
    parts = split_paren(match.group(2))
    if parts is None:
        return match.group(0)
    words, _ = parts
    return f"{match.group(1)}({', '.join(words)})" if words else ""


def without_ids(text: str) -> str:
    """`text` with each parenthesised clause ID left out; the words around it stay."""
    return PAREN.sub(_drop, text)

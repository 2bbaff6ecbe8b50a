"""Sentences the rules say about a change (a ledger entry's reason), kept as their English
message id and values so the site can word them for each reader when it draws them
(tables/words/said.py reads the same shape). `english` is the text logs and exports keep."""

from __future__ import annotations

from typing import Any

Reason = str | dict  # what a person typed, or a sentence made here


def words(msgid: str, **values: Any) -> dict[str, Any]:
    """A sentence: its English message id (marked with gettext_noop at the call) and its
    values (names, numbers, or other sentences)."""
    return {"msgid": msgid, "values": values}


def counted(n: int, singular: str, plural: str) -> dict[str, Any]:
    """A count worded by the reader's plural rule ("%(n)s die" / "%(n)s dice")."""
    return {"msgid": singular, "plural": plural, "values": {"n": n}}


def english(reason: Reason) -> str:
    """The reason in English: a typed one as it is, a sentence with its values put in."""
    if not isinstance(reason, dict):
        return reason
    values = {k: english(v) if isinstance(v, dict) else v for k, v in reason["values"].items()}
    text = reason["msgid"]
    if reason.get("plural") is not None and values.get("n") != 1:
        text = reason["plural"]
    return fill(text, values)


def fill(text: str, values: dict) -> str:
    """`text` with its values put in; older message ids use str.format's "{who}"."""
    if not values:
        return text
    return text.format(**values) if "%(" not in text and "{" in text else text % values

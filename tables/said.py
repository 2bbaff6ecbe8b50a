"""Sentences a service stores in an event, worded again in each reader's language.

A service writes `**said(gettext_noop("%(who)s rolls …"), who=…)` into a payload: the
English `summary` (what Discord, exports and older readers use) and `summary_words`,
the message id and its values. The log, rendered once per audience and language
(tables/live/render.py), words the summary from those in the active language: a German
GM and a French player read the same event each in their own (issue 28). A value is
a name or a number, or another sentence (`words(...)`), worded the same way."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, ngettext_lazy


def words(msgid: str, **values: Any) -> dict[str, Any]:
    """A sentence to store: its English message id and its values."""
    return {"msgid": msgid, "values": values}


# makemessages reads the pair from this call; successes() stores it to be worded per reader.
_SUCCESSES = ngettext_lazy("%(n)s success", "%(n)s successes", "n")


def successes(n: int) -> dict[str, Any]:
    """'1 success' / '2 successes' as a value of a stored sentence."""
    return {"msgid": "%(n)s success", "plural": "%(n)s successes", "values": {"n": n}}


def said(msgid: str, **values: Any) -> dict[str, Any]:
    """`summary` and `summary_words` for a payload. `msgid` is English, marked with
    gettext_noop at the call so makemessages finds it."""
    sentence = words(msgid, **values)
    return {"summary": _worded(sentence, translated=False), "summary_words": sentence}


def _worded(sentence: dict, *, translated: bool = True) -> str:
    values = {
        key: _worded(value, translated=translated) if isinstance(value, dict) else value
        for key, value in (sentence.get("values") or {}).items()
    }
    msgid, plural = sentence["msgid"], sentence.get("plural")
    if plural is not None:
        n = values.get("n", 0)
        text = ngettext(msgid, plural, n) if translated else (msgid if n == 1 else plural)
    else:
        text = gettext(msgid) if translated else msgid
    return text % values if values else text


def worded(payload: dict | None) -> str:
    """The payload's summary in the active language ('' when it has none)."""
    payload = payload or {}
    sentence = payload.get("summary_words")
    if sentence:
        try:
            return _worded(sentence)
        except (KeyError, TypeError, ValueError):
            pass  # a catalogue entry whose placeholders differ: the stored English
    return str(payload.get("summary") or "")


def localized(payload: dict | None) -> dict:
    """The payload with its summary in the active language, for templates that read
    `payload.summary`; the stored dict itself is never changed."""
    payload = payload or {}
    if "summary_words" not in payload:
        return payload
    return {**payload, "summary": worded(payload)}

"""Sentences a service stores in an event, worded again in each reader's language.

A service writes `**said(gettext_noop("%(who)s rolls …"), who=…)` into a payload: the
English `summary` (what Discord, exports and older readers use) and `summary_words`,
the message id and its values. The log, rendered once per audience and language
(tables/live/render.py), words the summary from those in the active language: a German
GM and a French player read the same event each in their own (issue 28). A value is
a name or a number, or another sentence (`words(...)`, `joined(...)`), worded the same
way."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext, ngettext_lazy

# One shape of stored sentence for the rules' reasons and the site's summaries.
from rules.sentences import counted, english, fill, words

# makemessages reads the pair from this call; successes() stores it to be worded per reader.
_SUCCESSES = ngettext_lazy("%(n)s success", "%(n)s successes", "n")


def joined(parts: list, separator: str = ", ") -> dict | str:
    """Sentences one after another as one value ("" for none); the separator is
    punctuation, so the pattern needs no catalogue entry."""
    result: dict | str = ""
    for part in parts:
        result = part if result == "" else words(f"%(a)s{separator}%(b)s", a=result, b=part)
    return result


def named(label) -> dict[str, Any]:
    """A label marked for translation (a lazy one too) as a stored value: its message
    id, worded per reader when drawn."""
    with translation.override(None):  # no catalogue: the message id itself
        return words(str(label))


def successes(n: int) -> dict[str, Any]:
    """'1 success' / '2 successes' as a value of a stored sentence."""
    return counted(n, "%(n)s success", "%(n)s successes")


# makemessages reads these pairs here; counted() (and rules/sentences.py's) stores one.
_COUNTED = (
    ngettext_lazy("%(n)s die", "%(n)s dice", "n"),
    ngettext_lazy("%(n)s breakthrough", "%(n)s breakthroughs", "n"),
    ngettext_lazy("Buy %(n)s bonus d20 (MO-08)", "Buy %(n)s bonus d20s (MO-08)", "n"),
    ngettext_lazy(
        "%(n)s assistant after the first (GL-06)", "%(n)s assistants after the first (GL-06)", "n"
    ),
    ngettext_lazy(
        "Suffered %(n)s trauma point (PM-03)", "Suffered %(n)s trauma points (PM-03)", "n"
    ),
)


def said(msgid: str, **values: Any) -> dict[str, Any]:
    """`summary` and `summary_words` for a payload. `msgid` is English, marked with
    gettext_noop at the call so makemessages finds it."""
    return stored(words(msgid, **values))


def stored(sentence: dict) -> dict[str, Any]:
    """`summary` and `summary_words` for a sentence made with words()."""
    return {"summary": english(sentence), "summary_words": sentence}


def _worded(sentence: dict) -> str:
    """The sentence in the active language (rules.sentences.english is its English)."""
    values = {
        key: _worded(value) if isinstance(value, dict) else value
        for key, value in (sentence.get("values") or {}).items()
    }
    msgid, plural = sentence["msgid"], sentence.get("plural")
    text = gettext(msgid) if plural is None else ngettext(msgid, plural, values.get("n", 0))
    return fill(text, values)


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


def reason_worded(payload: dict) -> str:
    """An event's `reason`: the site's own sentence (`reason_words`) in the reader's
    words, a typed one (or an older event's) as stored."""
    return worded(
        {"summary": payload.get("reason", ""), "summary_words": payload.get("reason_words")}
    )


def localized(payload: dict | None) -> dict:
    """The payload with its summary in the active language, for templates that read
    `payload.summary`; the stored dict itself is never changed."""
    payload = payload or {}
    if "summary_words" not in payload:
        return payload
    return {**payload, "summary": worded(payload)}


def resolution_words(side_is_gm: bool, saved: int, lost: tuple[int, int, int], line) -> dict:
    """MO-04, MO-05, CT-R1: where a test's unspent Momentum went, as a sentence to store:
    `lost` is (pool full, bonus, not saved); `line` names its pools in English
    (Campaign.book_line). The rules' resolution_summary() is its English twin."""
    overflow, bonus, unsaved = lost
    where = line.gm_pool if side_is_gm else gettext_noop("the group pool")
    parts = [
        words(gettext_noop("%(n)s saved to %(where)s"), n=saved, where=words(where)),
        words(gettext_noop("%(n)s lost (pool full)"), n=overflow),
        words(gettext_noop("%(n)s bonus %(pool)s lost"), n=bonus, pool=words(line.group_pool)),
        words(gettext_noop("%(n)s lost"), n=unsaved),
    ]
    kept = [part for part, n in zip(parts, (saved, overflow, bonus, unsaved), strict=True) if n]
    return joined(kept, "; ") if kept else words(gettext_noop("nothing left to save"))

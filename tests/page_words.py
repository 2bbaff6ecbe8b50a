"""The words a reader meets on a page, and which of them are English.

A page's words: its visible text (not scripts, styles, templates or `hidden` elements)
and the attributes read aloud or shown on hover (`title`, `aria-label`, `placeholder`,
`alt`, and a `value` on a button). English words: the words of our catalogue's msgids
and of a short list of everyday English, less every word the reader's language uses
too (its translations in our catalogue and in Django's), so "Momentum" or "Name" is no
English leak in German.
"""

from __future__ import annotations

import gettext
import re
import zoneinfo
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
UNSEEN = {"script", "style", "template", "head"}
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
# Everyday English a page might show unmarked, though our msgids spell few of them alone.
EVERYDAY = set(
    "the and of to in on for with by from at is are was were be been it this that these "
    "those you your yours their there here what which who when where why how not no yes "
    "all any each every some more most less none nothing something open close save cancel "
    "delete edit add remove show hide back next previous new old send roll spend".split()
)


class PageWords(HTMLParser):
    """The texts a reader sees or hears: text nodes outside UNSEEN or hidden elements,
    and READ_ATTRIBUTES (a rule marker's title too: it is read aloud)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def _hidden(self) -> bool:
        return bool(self.stack and self.stack[-1][1])

    def _attributes(self, tag, attrs):
        if self._hidden() or "hidden" in attrs or attrs.get("aria-hidden") == "true":
            return
        for name in READ_ATTRIBUTES:
            if attrs.get(name):
                self.texts.append(attrs[name])
        if tag == "input" and attrs.get("type") in {"submit", "button"} and attrs.get("value"):
            self.texts.append(attrs["value"])

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._attributes(tag, attrs)
        if tag in VOID:
            return
        unseen = (
            self._hidden()
            or tag in UNSEEN
            or "hidden" in attrs
            or attrs.get("aria-hidden") == "true"  # neither shown as text nor read aloud
        )
        self.stack.append((tag, unseen))

    def handle_startendtag(self, tag, attrs):
        self._attributes(tag, dict(attrs))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if data.strip() and not self._hidden():
            self.texts.append(data.strip())


def texts_in_sight(html: str) -> list[str]:
    parser = PageWords()
    parser.feed(html)
    return parser.texts


def words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


def _catalogue(path: Path) -> dict:
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)._catalog


def _messages(catalogue: dict, index: int) -> set[str]:
    """Words of the msgids (index 0) or the msgstrs (index 1), plural forms too."""
    found = set()
    for key, value in catalogue.items():
        text = key[0] if index == 0 and isinstance(key, tuple) else key
        if index == 1:
            text = value
        if isinstance(text, str) and text:
            found |= words(re.sub(r"%\(\w+\)[sd]|\{\w+\}", " ", text))
    return found


@cache
def english_words() -> frozenset[str]:
    ours = _catalogue(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.mo")
    return frozenset(_messages(ours, 0) | EVERYDAY)


@cache
def words_of(language: str) -> frozenset[str]:
    """Every word the language's translations use: ours and Django's (its forms, auth)."""
    found = _messages(_catalogue(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"), 1)
    django_locale = Path(django.__file__).parent
    for mo in django_locale.glob(f"**/locale/{language}/LC_MESSAGES/django.mo"):
        found |= _messages(_catalogue(mo), 1)
    return frozenset(found)


def english_in(
    html: str, language: str, names: set[str] = frozenset(), typed: tuple[str, ...] = ()
) -> list[str]:
    """The English words on the page the `language` reader reads, with their texts:
    not `names` (proper names, words), nor what people `typed` (whole phrases)."""
    english = english_words() - words_of(language) - {w.casefold() for w in names}
    longest_first = sorted(typed, key=len, reverse=True)
    leaks = []
    zones = zoneinfo.available_timezones()  # "America/New_York": a name, not words
    for text in texts_in_sight(html):
        if text in zones:
            continue
        rest = text
        for phrase in longest_first:
            rest = rest.replace(phrase, " ")
        found = sorted(words(rest) & english)
        if found:
            leaks.append(f"{', '.join(found)}  <-  {text[:90]!r}")
    return leaks

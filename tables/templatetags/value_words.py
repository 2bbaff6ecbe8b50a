"""Stored keys worded for the reader (tables/value_words.py)."""

from django import template
from django.utils.translation import gettext

from tables import value_words, wording
from tables.said import worded

register = template.Library()


@register.filter
def play_in_sentence(key: str):
    """'narrative' -> the reader's word for it inside a sentence; an unknown key as is."""
    return value_words.PLAY_IN_SENTENCE.get(key, key)


@register.filter
def in_words(stored: dict | None) -> str:
    """A stored sentence (`summary_words`, else its `summary`) in the reader's words."""
    return worded(stored)


@register.filter
def template_words(name: str) -> str:
    """A roll template's name: a seeded one in the reader's words (wording.template_words)."""
    return wording.template_words(name)


@register.filter
def harm_words(key: str):
    """'damage' -> the reader's word for a template's harm kind; an unknown key as is."""
    return value_words.HARM.get(key, key)


@register.filter
def stored_spend_name(spend: dict) -> str:
    """A spend as a test's ledger stored it: a standard one's name (stored in English) in
    the reader's words, a GM's own (key "custom:…") as the GM typed it (MO-14)."""
    name = spend.get("name", "")
    return name if str(spend.get("key", "")).startswith("custom:") or not name else gettext(name)


@register.filter
def stored_reason(reason: str) -> str:
    """A reason the rules stored in English (a refund's, MO-11, MO-12): worded for the
    reader where it is one of the catalogue's sentences, else as stored."""
    return gettext(reason) if reason else reason


@register.filter
def harm_reason(payload: dict) -> str:
    """A harm event's reason: the site's own sentence in the reader's words, a typed one
    (or an older event's) as stored."""
    return worded(
        {"summary": payload.get("reason", ""), "summary_words": payload.get("reason_words")}
    )

"""Stored keys and sentences worded for the reader: thin filters over tables/words/."""

from django import template

from tables.words import said, values, wording

register = template.Library()


@register.filter
def play_in_sentence(key: str):
    """'narrative' -> the reader's word for it inside a sentence; an unknown key as is."""
    return values.play_in_sentence(key)


@register.filter
def in_words(stored: dict | None) -> str:
    """A stored sentence (`summary_words`, else its `summary`) in the reader's words."""
    return said.worded(stored)


@register.filter
def template_words(name: str) -> str:
    """A roll template's name: a seeded one in the reader's words."""
    return wording.template_words(name)


@register.filter
def harm_words(key: str):
    """'damage' -> the reader's word for a template's harm kind; an unknown key as is."""
    return values.harm(key)


@register.filter
def stored_spend_name(spend: dict) -> str:
    """A spend as a test's ledger stored it, in the reader's words (MO-14)."""
    return wording.stored_spend_name(spend)


@register.filter
def stored_reason(reason: str) -> str:
    """A reason the rules stored in English (MO-11, MO-12), worded for the reader."""
    return wording.stored_reason(reason)


@register.filter
def harm_reason(payload: dict) -> str:
    """A harm event's reason: the site's own sentence in the reader's words."""
    return said.reason_worded(payload)

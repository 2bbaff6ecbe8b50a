"""Stored keys worded for the reader (tables/value_words.py)."""

from django import template

from tables import value_words
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

"""Words for the keys the rules store (play modes, harm kinds, roundings, pattern kinds and
effects, roll kinds): the keys stay in the data, the reader's words are drawn from here.

Lazy, so a form's choices built at import are worded for each reader when drawn.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

PLAY = {"narrative": gettext_lazy("Narrative"), "structured": gettext_lazy("Structured")}
# Inside a sentence (", narrative play"): lower case where the language wants it.
PLAY_IN_SENTENCE = {
    "narrative": pgettext_lazy("play mode inside a sentence", "narrative"),
    "structured": pgettext_lazy("play mode inside a sentence", "structured"),
}
HARM = {"damage": gettext_lazy("Damage"), "strain": gettext_lazy("Strain")}
ROUNDING = {
    "down": pgettext_lazy("rounding", "Down"),
    "up": pgettext_lazy("rounding", "Up"),
    "nearest": pgettext_lazy("rounding", "Nearest"),
}
PATTERN_KIND = {
    "double": pgettext_lazy("dice pattern", "Double"),
    "triple": pgettext_lazy("dice pattern", "Triple"),
    "quad": pgettext_lazy("dice pattern", "Quad"),
}
EFFECT = {
    "damage_per_face": gettext_lazy("Damage per face"),
    "damage": pgettext_lazy("pattern effect", "Damage"),
    "outcome_upgrade": gettext_lazy("Outcome upgrade"),
    "resolve_refund": gettext_lazy("Resolve refund"),
    "text": gettext_lazy("Narrated only"),
}
ROLL_KIND = {
    "action": gettext_lazy("Action"),
    "attack": gettext_lazy("Attack"),
    "luck": gettext_lazy("Luck"),
}


def choices(words: dict, keys) -> list[tuple[str, object]]:
    """(key, lazy words) for a form field, in the rules' own order."""
    return [(key, words[key]) for key in keys]


def play_in_sentence(key: str):
    """'narrative' -> the reader's word for it inside a sentence; an unknown key as is."""
    return PLAY_IN_SENTENCE.get(key, key)


def harm(key: str):
    """'damage' -> the reader's word for a harm kind; an unknown key as is."""
    return HARM.get(key, key)

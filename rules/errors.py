"""Exceptions the engine raises; each message is written for a player to read.

A message is English with `%(name)s` placeholders and its values apart
(`InvalidTest(gettext_noop("At most %(n)s dice."), n=5)`), so a site that
translates (the Django app sets `translate` at start-up) words it in the reader's
language when it is shown: str(error) asks `translate` each time. rules/ itself
stays plain Python: without a translator the English is the text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for the translators' catalogue (makemessages finds the name)."""
    return message


# The site's translation function (tables/apps.py); English as written until one is set.
translate: Callable[[str], str] = gettext_noop


class RulesError(Exception):
    """Base for every refusal by the rules. str(error) is shown to the player."""

    def __init__(self, message: object = "", *args: Any, **values: Any) -> None:
        super().__init__(message, *args)
        self.msgid = str(message)
        self.values = values

    def __str__(self) -> str:
        try:
            text = translate(self.msgid)
            # A value a line names in its books' words ("Determination") reads as the
            # reader's; names no catalogue holds (a character's) stay as they are.
            values = {k: translate(v) if isinstance(v, str) else v for k, v in self.values.items()}
            return text % values if values else text
        except (KeyError, TypeError, ValueError):  # a catalogue entry out of step: English
            return self.msgid % self.values if self.values else self.msgid

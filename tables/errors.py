"""The refusals a command can give, in a module of their own.

Services raise them; presenters and views catch them. Kept apart from
tables/services/ so a reader of errors need not import a writer
(tables/services/core.py re-exports both). refused_by_rules passes a refusal by
rules/ on in the same words."""

from __future__ import annotations

from contextlib import contextmanager

from rules.errors import RulesError
from tables.clause_ids import without_ids


class ServiceError(Exception):
    """A command that the rules or the state refuse; the message is for a player.

    Players read the reason in words: a clause ID written into the message (by a
    service, or by rules/ whose refusal is passed on) is left out (issue 14)."""

    def __init__(self, message: object = "", *args) -> None:
        super().__init__(without_ids(str(message)), *args)


class StaleState(ServiceError):
    """The pool changed since the page was drawn."""


@contextmanager
def refused_by_rules():
    """Turn a refusal by the rules into a ServiceError with the same message."""
    try:
        yield
    except RulesError as error:
        raise ServiceError(str(error)) from error

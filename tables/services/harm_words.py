"""The log's words for what STA 2e's harm choice made of a hit (SC-06): a complication
where the Stress track could only partly absorb it, or the Injury the target took
instead of the Stress. Words only: services/harm.py computes and writes the hit."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from tables.words.said import said


def choice_summary(hit, values: dict) -> dict | None:
    """The summary (said()'s pair) of a hit that STA 2e's choice shaped, None for any
    other (its harms there are Injuries: the words name them so)."""
    if hit.complication:
        return said(
            gettext_noop(
                "%(who)s takes %(n)d %(track)s, filling the track: the rest of the hit becomes a "
                "complication instead of an Injury."
            ),
            **values,
        )
    if hit.took_injury:
        return said(
            gettext_noop("%(who)s takes an Injury instead of %(dealt)d %(track)s."), **values
        )
    return None

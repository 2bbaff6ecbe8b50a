"""The GM's called tests as they read, read only (issue 15): what a call asks, in
words, and the open calls a member may answer. The call commands are
tables/services/calls.py; the players' panel and the GM's list read here."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from tables.models import CalledTest, Campaign
from tables.words.said import worded, words


def _edges(call: CalledTest) -> dict | str:
    """ ", with Disadvantage, with a GM-called edge" as the call has them ("" for none)."""
    found = [gettext_noop("with Disadvantage")] if call.disadvantage else []
    if call.edge:
        found.append(gettext_noop("with a GM-called edge"))
    value = ""
    for edge in found:  # punctuation only: no catalogue entry
        value = words("%(before)s, %(edge)s", before=value, edge=words(edge))
    return value


def edges_words(call: CalledTest) -> str:
    """ ", with Disadvantage, with a GM-called edge" in the reader's words (its terms)."""
    edges = _edges(call)
    return worded({"summary_words": edges}) if edges else ""


def open_calls(campaign: Campaign):
    return CalledTest.objects.filter(campaign=campaign, state=CalledTest.State.OPEN).select_related(
        "character"
    )


def terms(call: CalledTest, *, reveal: bool) -> str:
    """What is asked, in the reader's words; the Difficulty (or opposition) only if
    `reveal`."""
    return worded({"summary_words": term_words(call, reveal=reveal)})


def term_words(call: CalledTest, *, reveal: bool) -> dict:
    """What is asked, as a sentence to store (tables/words/said.py), worded per reader."""
    if call.system == CalledTest.System.D20:
        return _d20_terms(call, reveal)
    if call.kind == CalledTest.Kind.LUCK:
        return words(gettext_noop("a luck roll"))
    edges = {"attribute": call.attribute, "edges": _edges(call)}
    if call.hidden and not reveal:
        return words(gettext_noop("%(attribute)s, opposition hidden%(edges)s"), **edges)
    if call.opposition_pool:
        return words(
            gettext_noop("%(attribute)s against %(n)s opposition dice%(edges)s"),
            n=call.opposition_pool,
            **edges,
        )
    return words(gettext_noop("%(attribute)s, unopposed%(edges)s"), **edges)


def _d20_terms(call: CalledTest, reveal: bool) -> dict:
    test = {"attribute": call.attribute, "skill": call.skill}
    shown = reveal or not call.hidden
    if call.focus:
        test["skill"] = words(gettext_noop("%(skill)s (focus %(focus)s)"), skill=call.skill,
                              focus=call.focus)  # fmt: skip
    difficulty = (
        words(gettext_noop("Difficulty %(n)s"), n=call.difficulty)
        if shown
        else words(gettext_noop("Difficulty hidden"))
    )
    rest = difficulty
    if call.complication_range and call.complication_range > 1:
        low = 21 - call.complication_range
        rest = words(gettext_noop("%(difficulty)s, complications on %(low)s–20"),
                     difficulty=difficulty, low=low)  # fmt: skip
    return words("%(attribute)s + %(skill)s, %(rest)s", rest=rest, **test)

"""The GM's called tests as they read, read only (issue 15): what a call asks, in
words, and the open calls a member may answer. The call commands are
tables/services/calls.py; the players' panel and the GM's list read here."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import CalledTest, Campaign


def edges_words(call: CalledTest) -> str:
    """ ", with Disadvantage, with a GM-called edge" as the call has them (its terms)."""
    words = [_("with Disadvantage")] if call.disadvantage else []
    if call.edge:
        words.append(_("with a GM-called edge"))
    return "".join(", " + w for w in words)


def open_calls(campaign: Campaign):
    return CalledTest.objects.filter(campaign=campaign, state=CalledTest.State.OPEN).select_related(
        "character"
    )


def terms(call: CalledTest, *, reveal: bool) -> str:
    """What is asked, in words; the Difficulty (or opposition) only if `reveal`."""
    if call.system == CalledTest.System.D20:
        text = f"{call.attribute} + {call.skill}"
        if call.focus:
            text += f" (focus {call.focus})"
        shown = reveal or not call.hidden
        text += f", Difficulty {call.difficulty if shown else 'hidden'}"
        if call.complication_range and call.complication_range > 1:
            text += f", complications on {21 - call.complication_range}–20"
        return text
    if call.kind == CalledTest.Kind.LUCK:
        return "a luck roll"
    edges = edges_words(call)
    if call.hidden and not reveal:
        return f"{call.attribute}, opposition hidden{edges}"
    if call.opposition_pool:
        return f"{call.attribute} against {call.opposition_pool} opposition dice{edges}"
    return f"{call.attribute}, unopposed{edges}"

"""Issue 28: a sentence stored in an event, or a refusal by the rules, is worded in
the reader's language when it is shown, not in the language of whoever acted.

The catalogues are stood in for by a small German dictionary: these tests are about
the mechanism (message id and values kept apart, worded at read time)."""

from __future__ import annotations

import pytest

import rules.errors
from rules.d20 import InvalidTest
from tables.words import said as said_module
from tables.words.said import localized, said, worded

GERMAN = {
    "%(who)s spends %(n)s Momentum.": "%(who)s gibt %(n)s Momentum aus.",
    "Roll %(most)s dice at most.": "Würfle höchstens %(most)s Würfel.",
    "Broken %(nothing)s.": "Kaputt %(other)s.",  # a catalogue entry out of step
}


@pytest.fixture
def german(monkeypatch):
    monkeypatch.setattr(said_module, "gettext", lambda text: GERMAN.get(text, text))
    monkeypatch.setattr(rules.errors, "translate", lambda text: GERMAN.get(text, text))


def test_a_stored_summary_keeps_the_english_and_what_it_needs_to_be_worded_again():
    parts = said("%(who)s spends %(n)s Momentum.", who="Alice", n=2)
    assert parts["summary"] == "Alice spends 2 Momentum."
    assert parts["summary_words"] == {
        "msgid": "%(who)s spends %(n)s Momentum.",
        "values": {"who": "Alice", "n": 2},
    }


def test_the_reader_reads_the_summary_in_their_own_language(german):
    payload = {"test_id": 1, **said("%(who)s spends %(n)s Momentum.", who="Alice", n=2)}
    assert worded(payload) == "Alice gibt 2 Momentum aus."
    shown = localized(payload)
    assert shown["summary"] == "Alice gibt 2 Momentum aus."
    assert payload["summary"] == "Alice spends 2 Momentum."  # the stored event is untouched


def test_an_older_event_without_words_shows_its_stored_summary(german):
    assert worded({"summary": "Alice spends 2 Momentum."}) == "Alice spends 2 Momentum."
    assert localized({"summary": "x"}) == {"summary": "x"}


def test_a_translation_whose_placeholders_differ_falls_back_to_the_english(german):
    payload = said("Broken %(nothing)s.", nothing="glass")
    assert worded(payload) == "Broken glass."


def test_a_refusal_by_the_rules_is_worded_when_shown(german):
    error = InvalidTest("Roll %(most)s dice at most.", most=5)
    assert str(error) == "Würfle höchstens 5 Würfel."


def test_a_refusal_by_the_rules_reads_as_english_without_a_translator(monkeypatch):
    monkeypatch.setattr(rules.errors, "translate", rules.errors.gettext_noop)
    assert str(InvalidTest("Roll %(most)s dice at most.", most=5)) == "Roll 5 dice at most."


def test_the_site_wires_its_translation_into_the_rules():
    from django.utils.translation import gettext

    assert rules.errors.translate is gettext

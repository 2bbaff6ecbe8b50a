"""SC-08: every ruling the books leave open is a campaign setting, worded for a GM, with
its default and its source in the product's rules document (docs/rules.md). GL-07's
starts are among them. That docs/rules.md names every clause the code names, at an anchor,
is tests/test_rules_doc.py's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from tables.clause_ids import ANY_CLAUSE
from tables.models import SETTINGS_FIELDS, Campaign

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"

# The settings of the GL and SC rulings (issue 36), each with a clause its entry names.
RULING_SETTINGS = {
    "double_harm": "SC-R1",
    "keep_initiative_cost": "SC-05",
    "keep_once_in_a_row": "SC-01a",
    "players_open_each_round": "SC-01b",
    "session_start_from_fortune": "GL-07",
    "mission_sets_threat": "GL-R2",
    "borrowed_extended_tasks": "SC-R16",
    "contest_at_scene_end": "CT-R2",
}


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
@pytest.mark.parametrize("name", sorted(RULING_SETTINGS))
def test_sc_08_a_ruling_setting_is_worded_for_a_gm_without_clause_ids(name, language):
    """The settings page shows the field's label and help in the GM's language: words,
    never an ID such as "SC-R1:"."""
    assert name in SETTINGS_FIELDS
    field = Campaign._meta.get_field(name)
    with translation.override(language):
        words = f"{field.verbose_name} {field.help_text}"
    assert words.strip() and not ANY_CLAUSE.search(words), words


@pytest.mark.parametrize("name", sorted(RULING_SETTINGS))
def test_sc_08_gl_07_docs_rules_give_each_ruling_setting_its_default_and_clause(name):
    """docs/rules.md names the setting's key beside its clause and its default."""
    text = RULES_DOC.read_text()
    entries = [p for p in text.split("\n- ") if f"(`{name}`)" in p]
    assert any("default" in p and "Setting **" in p for p in entries), name
    assert any(re.search(rf"\b{RULING_SETTINGS[name]}\b", p) for p in entries), name

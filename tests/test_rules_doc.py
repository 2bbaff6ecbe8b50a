"""SC-08 (issue 36): docs/rules.md explains every rule clause the code names, each at an
anchor (`<a id="PM-05"></a>`) that the table's § marks link to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables.clause_ids import CLAUSE
from tables.models import SETTINGS_FIELDS

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
SOURCES = (("rules", ".py"), ("tables", ".py"), ("templates", ".html"))

# A clause as the code writes it, with the letter of a sub-ruling ("SC-01a", "MO-09b").
NAMED = re.compile(rf"\b{CLAUSE}[a-z]?\b")
# Matches of the pattern that name no clause: clause_ids.py's own character class, and
# the live consumer's "events P+1..N-1".
NOT_CLAUSES = {"Z0-9", "N-1"}
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def expand(named: str) -> list[str]:
    """The clauses a reference covers: "PM-05/06" is PM-05 and PM-06, "D6-01..D6-03"
    D6-01, D6-02 and D6-03."""
    if ".." in named:
        first, last = named.split("..")
        family, low = first.rsplit("-", 1)
        high = last.rsplit("-", 1)[1]
        prefix = "R" if low.startswith("R") else ""
        width = len(low) - len(prefix)
        start, stop = int(low.removeprefix("R")), int(high.removeprefix("R"))
        return [f"{family}-{prefix}{n:0{width}d}" for n in range(start, stop + 1)]
    head, *more = named.split("/")
    family, number = head.rsplit("-", 1)
    return [head] + [f"{family}-{number[: len(number) - len(m)]}{m}" for m in more]


def code_clauses() -> set[str]:
    """Every clause ID named in rules/, tables/ and templates/ (migrations aside: they keep
    old wording for good)."""
    found: set[str] = set()
    for folder, suffix in SOURCES:
        for path in (ROOT / folder).rglob(f"*{suffix}"):
            if "migrations" not in path.parts:
                found |= set(NAMED.findall(path.read_text())) - NOT_CLAUSES
    return {clause for named in found for clause in expand(named)}


def anchors(text: str) -> set[str]:
    return set(ANCHOR.findall(text))


def test_expand_reads_lists_and_ranges():
    assert expand("PM-05/06") == ["PM-05", "PM-06"]
    assert expand("PAT-06..PAT-08") == ["PAT-06", "PAT-07", "PAT-08"]
    assert expand("SC-01a") == ["SC-01a"]


def test_the_code_names_the_clause_families_this_test_is_about():
    """What is checked: a scan that found nothing would pass the test below vacuously."""
    named = code_clauses()
    for clause in ("D6-07", "PAT-06", "RS-01", "PM-05", "T-R1", "MO-09b", "CT-R1", "TB-03"):
        assert clause in named, clause
    assert {"GL-07", "SC-01a", "SC-R20", "D6-R1", "MO-R1"} <= named


def test_sc_08_docs_rules_has_an_anchored_entry_for_every_clause_the_code_names():
    """Each clause ID in the code is in docs/rules.md, at its own anchor, and bold in its
    entry's text (its ID visible where the § mark's link lands)."""
    text = RULES_DOC.read_text()
    missing = sorted(code_clauses() - anchors(text))
    assert not missing, f"docs/rules.md has no <a id> for {missing}"
    unseen = sorted(c for c in anchors(text) if f"**{c}" not in text)
    assert not unseen, unseen


def test_sc_08_docs_rules_anchors_are_unique():
    found = ANCHOR.findall(RULES_DOC.read_text())
    assert len(found) == len(set(found))


@pytest.mark.parametrize(
    "clause", [f"SC-0{n}" for n in range(1, 9)] + [f"GL-0{n}" for n in range(1, 8)]
)
def test_sc_08_gl_07_docs_rules_names_every_gl_and_sc_clause(clause):
    """GL-01 … GL-07 and SC-01 … SC-08 each have their entry, named or not in the code."""
    assert clause in anchors(RULES_DOC.read_text())


def test_docs_rules_names_no_working_material():
    """The product's rules are in its own words: no path to the material they came from."""
    text = RULES_DOC.read_text()
    assert "shared/" not in text and "seed" not in text.lower()


# Campaign settings that are no rule of play: what the table is called, how it reads.
NOT_RULES = {"name", "dice_system", "economy", "language", "time_zone", "gm_reads_whispers"}


def test_sc_08_every_rule_setting_of_a_campaign_is_in_docs_rules_with_its_default():
    """A GM who wonders what a setting changes finds its key beside its default."""
    entries = RULES_DOC.read_text().split("\n- ")
    for key in sorted(set(SETTINGS_FIELDS) - NOT_RULES):
        assert any(f"`{key}`" in e and "default" in e for e in entries), key

"""Issue 14, words for players: clause IDs leave the visible text and stay one hover away."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

from tables.templatetags.rule_refs import rule_refs


def visible(html: str) -> str:
    """The text a sighted reader sees: tags and the marker's section sign dropped."""
    return re.sub(r"<[^>]+>", "", html).replace("§", "")


def titles(html: str) -> list[str]:
    return re.findall(r'title="([^"]*)"', html)


@pytest.mark.parametrize(
    ("text", "shown", "rules"),
    [
        ("2 unspent goes to Threat (CT-R1)", "2 unspent goes to Threat", ["Rule CT-R1"]),
        (
            "(one Advantage, cheapest cost, PM-05/06)",
            "(one Advantage, cheapest cost)",
            ["Rule PM-05/06"],
        ),
        ("Luck roll (D6-11): a straight roll", "Luck roll: a straight roll", ["Rule D6-11"]),
        (
            "+1 Momentum per trauma point (PM-03), at most 6 (PM-04).",
            "+1 Momentum per trauma point, at most 6.",
            ["Rule PM-03", "Rule PM-04"],
        ),
        ("solid hits (PAT-06..PAT-08)", "solid hits", ["Rule PAT-06..PAT-08"]),
        ("both (PM-03 and PM-04)", "both", ["Rule PM-03, PM-04"]),
    ],
)
def test_a_clause_id_moves_from_the_words_into_the_markers_title(text, shown, rules):
    html = str(rule_refs(text, True))
    assert visible(html) == shown
    assert titles(html) == rules
    assert not re.search(r"[A-Z]{1,3}\d?-R?\d", visible(html))


def test_parentheses_without_a_clause_id_are_left_alone():
    assert str(rule_refs("a pool (2d6 and 3d)", True)) == "a pool (2d6 and 3d)"


def test_the_text_is_escaped_before_markers_are_added():
    html = str(rule_refs("<b>bold</b> (PM-04)", True))
    assert html.startswith("&lt;b&gt;bold&lt;/b&gt;<a ")


def test_the_rule_tag_draws_the_marker_alone():
    html = Template('{% load rule_refs %}cost{% rule "PM-05/06" %}').render(
        Context({"rule_marks": True})
    )
    assert visible(html) == "cost"
    assert titles(html) == ["Rule PM-05/06"]
    assert 'aria-label="Rule PM-05/06"' in html
    assert 'href="/rules/#PM-05"' in html  # a list opens at its first clause


def test_without_rule_marks_in_the_context_the_ids_go_and_no_marker_is_drawn():
    """Issue 37, deny by default: a context that does not ask for marks gets none."""
    page = Template('{% load rule_refs %}cost{% rule "PM-05" %}; {% rule_words why %}')
    html = page.render(Context({"why": "at most 6 (PM-04)"}))
    assert html == "cost; at most 6"
    assert page.render(Context({"why": "x (PM-04)", "rule_marks": False})) == "cost; x"
    shown = page.render(Context({"why": "<i> (PM-04)", "rule_marks": True}))
    assert shown.startswith("cost<a class") and "; &lt;i&gt;<a class" in shown

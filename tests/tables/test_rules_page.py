"""The rules page (issue 36): docs/rules.md inside the app, so that a § mark opens it at
its clause (SC-08: each clause's entry, with its setting and source)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.templatetags.rule_refs import rule_refs

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ["anonymous", "player", "gm"])
def test_the_rules_page_answers_anyone_with_each_clause_at_its_anchor(client_for, role):
    response = client_for(role).get(reverse("rules"))
    html = response.content.decode()
    assert response.status_code == 200
    # Markdown drawn: the entry's ID bold, its anchor kept as written (not escaped).
    assert '<a id="PM-05"></a><strong>PM-05</strong>' in html
    assert '<a id="SC-01a"></a>' in html and "&lt;a id=" not in html
    assert "<h2>Momenta personal Momentum (PM)</h2>" in html


def test_the_rules_page_refuses_a_post(client_for):
    assert client_for("player").post(reverse("rules")).status_code == 405


def test_a_rule_marker_links_to_its_clause_on_the_rules_page(client_for):
    """The § mark's href is the rules page at the clause's anchor, which that page has."""
    href = re.search(r'href="([^"]+)"', str(rule_refs("at most 6 (PM-04)", True)))[1]
    page, anchor = href.split("#")
    assert page == reverse("rules")
    html = client_for("anonymous").get(page).content.decode()
    assert f'<a id="{anchor}"></a>' in html and anchor == "PM-04"

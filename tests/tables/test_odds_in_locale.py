"""Issue 35: every chance and expectation the odds show reads in the reader's figures,
the locale's decimal mark and the catalogue's percent pattern (German and French put a
(non-breaking) space before the sign): "91,0 %", "0,59", "12 %", "< 1 %"."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from tables.presenters.momenta import Chance
from tables.presenters.odds_chart import d20_chart, percent
from tables.words import wording
from tests.tables.d20_posts import roll_data

NBSP = "\u00a0"
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "91.0%"), ("de", f"91,0{NBSP}%"), ("fr", f"91,0{NBSP}%"), ("es", f"91,0{NBSP}%")],
)
def test_a_one_decimal_chance_reads_in_the_readers_figures(language, shown):
    with translation.override(language):
        assert wording.percent(1 - Fraction(3, 10) ** 2) == shown


@pytest.mark.parametrize(
    ("language", "shown"), [("en", "0.59"), ("de", "0,59"), ("fr", "0,59"), ("es", "0,59")]
)
def test_an_expectation_reads_with_the_locales_decimal_mark(language, shown):
    with translation.override(language):
        assert wording.expected(Fraction(59, 100)) == shown


WHOLE = {  # a whole-percent chance, its bounds never rounded to a false 0% or 100%
    "en": ["0%", "<1%", "12%", "58%", ">99%", "100%"],
    "de": [f"0{NBSP}%", f"<{NBSP}1{NBSP}%", f"12{NBSP}%", f"58{NBSP}%", f">{NBSP}99{NBSP}%"],
    "fr": [f"0{NBSP}%", f"<{NBSP}1{NBSP}%", f"12{NBSP}%", f"58{NBSP}%", f">{NBSP}99{NBSP}%"],
    "es": [f"0{NBSP}%", f"<{NBSP}1{NBSP}%", f"12{NBSP}%", f"58{NBSP}%", f">{NBSP}99{NBSP}%"],
}
# 0, 1/216, 49/400, 23/40 (57.5: a float reads 57.4999… and rounds down; exact, even: 58),
# 215/216, 1.
CHANCES = [Fraction(0), Fraction(1, 216), Fraction(49, 400), Fraction(23, 40)]
CHANCES += [Fraction(215, 216), Fraction(1)]


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_a_whole_percent_chance_reads_in_the_readers_figures(language):
    """The Momenta odds (Chance), the bar's titles and the task odds use one percent()."""
    with translation.override(language):
        shown = [percent(value) for value in CHANCES]
        chances = [Chance("", value).percent for value in CHANCES]
    expected = WHOLE[language] + ([] if language == "en" else [f"100{NBSP}%"])
    assert shown == expected
    assert chances == expected


def test_the_bars_titles_read_in_the_readers_figures():
    with translation.override("de"):
        chart = d20_chart(Fraction(351, 400), {0: Fraction(49, 400), 1: Fraction(351, 400)})
        fail = translation.gettext("Fail")
        assert chart.segments[0].title == f"{fail}: 12{NBSP}% (49/400)"


@pytest.mark.django_db
def test_the_momenta_odds_panel_reads_in_german(client_for, momenta_campaign, hero):
    """D6-12: WITS 4d in German: the bands' percentages with the sign spaced."""
    data = {"character": hero.pk, "attribute": "WITS", "kind": "action", "play": "narrative"}
    response = client_for("player").get(
        reverse("momenta_odds", args=[momenta_campaign.pk]),
        data,
        HTTP_ACCEPT_LANGUAGE="de",
        **HX,
    )
    html = unescape(response.content.decode())
    cells = re.findall(r'<td class="odds-pct">([^<]*)</td>', html)
    assert cells and all(re.fullmatch(r"[<>]?\u00a0?\d+\u00a0%", c) for c in cells), cells


@pytest.mark.django_db
def test_the_d20_odds_read_in_german(client_for, d20_campaign, kara):
    """T-05: Kara's target 13 on 2d20 at Difficulty 1 passes 1 − (7/20)² = 87,8 %."""
    response = client_for("player").get(
        reverse("d20_odds", args=[d20_campaign.pk]),
        roll_data(kara),
        HTTP_ACCEPT_LANGUAGE="de",
        **HX,
    )
    html = unescape(response.content.decode())
    figures = re.findall(r"<dd>([^<]*)</dd>", html)
    assert figures[0] == f"87,8{NBSP}%", figures
    assert re.fullmatch(r"\d+,\d\d", figures[1]), figures  # the expected Momentum
    assert re.fullmatch(r"\d+,\d\u00a0%", figures[2]), figures  # a complication

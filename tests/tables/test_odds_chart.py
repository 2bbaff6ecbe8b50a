"""Odds you can see (issue 14): the preview's chances drawn as one inline SVG bar, with
the exact fractions (D6-12 for Momenta's bands, T-05 for a 2d20 test) in hover titles,
in the chart's text alternative and in a details line."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape

import pytest
from django.urls import reverse

from rules.odds import band_distribution
from tables.presenters.momenta import Chance
from tables.presenters.odds_chart import WIDTH, band_chart, d20_chart
from tests.tables.d20_posts import roll_data

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def chart_of(html: str) -> str:
    start = html.index('<svg class="odds-chart"')
    return html[start : html.index("</svg>", start)]


def segments(svg: str) -> list[tuple[str, float, float]]:
    """(hover title, x, width) of each drawn segment."""
    found = re.findall(
        r'<g class="odds-seg[^"]*"><title>([^<]*)</title><rect x="([\d.]+)" y="0" '
        r'width="([\d.]+)"',
        svg,
    )
    return [(unescape(t), float(x), float(w)) for t, x, w in found]


def test_d6_12_band_chart_edges_sit_at_the_exact_cumulative_chances():
    """D6-12: 5d6's bands side by side; each edge is its cumulative chance of the bar."""
    values = list(band_distribution(5).values())
    chart = band_chart([Chance(f"{i}: band", v) for i, v in enumerate(values)])
    edge = Fraction(0)
    for segment, value in zip(chart.segments, values, strict=True):
        assert segment.x == round(float(edge * WIDTH), 2)
        edge += value
        assert segment.x + segment.width == pytest.approx(float(edge * WIDTH), abs=0.011)
        assert segment.fraction == f"{value.numerator}/{value.denominator}"
    assert chart.segments[-1].x + chart.segments[-1].width == pytest.approx(WIDTH)


def test_t_05_d20_chart_splits_the_pass_chance_by_momentum():
    """T-05: fail, then pass with 0, 1, 2, 3+ Momentum; the passes add up to the pass chance."""
    momentum = {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 8), 4: Fraction(1, 8)}
    chart = d20_chart(Fraction(3, 4), momentum)
    values = [s.value for s in chart.segments]
    assert values == [
        Fraction(1, 4),
        Fraction(1, 4),
        Fraction(1, 4),
        Fraction(1, 8),
        Fraction(1, 8),
    ]
    assert [s.short for s in chart.segments] == ["Fail", "Pass", "+1", "+2", "+3"]
    assert len({s.tone for s in chart.segments}) == 5  # five fills, and the labels besides


def test_d6_12_the_momenta_preview_draws_its_bands_with_exact_fractions(
    momenta_campaign, client_for, hero
):
    """The chart's segments hold the same exact fractions as the band table (D6-12)."""
    data = {
        "character": hero.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "expected_momentum": hero.momentum,
        "expected_resolve": hero.resolve,
    }
    response = client_for("player").get(
        reverse("momenta_odds", args=[momenta_campaign.pk]), data, **HX
    )
    html = response.content.decode()  # unescaped per title: "&lt;1%" is one
    svg = chart_of(html)
    assert 'role="img"' in svg and 'aria-labelledby="momenta-odds-chart-name"' in svg
    assert '<title id="momenta-odds-chart-name">Chance of each result band</title>' in svg
    expected = [f"{(v := f).numerator}/{v.denominator}" for f in band_distribution(4).values()]
    drawn = segments(svg)
    assert [re.search(r"\((\d+/\d+)\)$", t).group(1) for t, _, _ in drawn] == expected
    desc = unescape(re.search(r"<desc[^>]*>([^<]*)</desc>", svg).group(1))
    assert all(f"({fraction})" in desc for fraction in expected)
    assert sum(w for _, _, w in drawn) == pytest.approx(WIDTH, abs=0.05)
    assert " style=" not in html  # the Content-Security-Policy refuses inline styles


def test_t_05_the_d20_preview_draws_pass_and_momentum_with_exact_fractions(
    client_for, d20_campaign, kara
):
    """T-05: Kara's target 13 on 2d20 at Difficulty 1: pass 1 − (7/20)², complication
    1 − (19/20)², and the expected Momentum, each exact."""
    data = roll_data(kara)
    response = client_for("player").get(reverse("d20_odds", args=[d20_campaign.pk]), data, **HX)
    html = response.content.decode()
    svg = chart_of(html)
    assert '<title id="d20-odds-chart-name">Chance to pass, and Momentum generated</title>' in svg
    drawn = segments(svg)
    assert drawn[0][0] == "Fail: 12% (49/400)"
    passes = [Fraction(re.search(r"\((\d+/\d+)\)$", t).group(1)) for t, _, _ in drawn[1:]]
    assert sum(passes) == Fraction(351, 400)
    html = unescape(html)
    assert "Exact: pass 351/400 · expected Momentum " in html
    assert "complication 39/400" in html
    assert " style=" not in html


@pytest.mark.parametrize(
    ("short", "width", "labelled", "small"),
    [
        ("0", 22, True, False),
        ("0", 21, False, True),
        ("Misslungen", 48, False, True),  # German "Fail" in a 16% segment: left out
        ("Misslungen", 75, True, True),  # fits only in the smaller type
        ("Misslungen", 86, True, False),
    ],
)
def test_issue_35_a_label_is_drawn_only_where_its_words_fit(short, width, labelled, small):
    """Issue 35: a long word ("Misslungen") is set small or left out, never cut at the
    bar's edges (the hover title keeps it)."""
    from tables.presenters.odds_chart import Segment

    segment = Segment(short, short, Fraction(1, 2), 0, x=0, width=width)
    assert (segment.labelled, segment.small) == (labelled, small)

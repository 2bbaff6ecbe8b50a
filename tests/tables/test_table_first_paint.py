"""Issue 29: the table page is first painted as drawn, so it does not shift as it settles
(Lighthouse's layout shift was 0.18 on the GM's laptop page). Rendering waits for the
page's last element (rel=expect, blocking=render); the scripts that fold the composer and
draw the GM tabs run before it, not deferred."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.tables.test_play_momenta_views import table  # noqa: F401


def test_the_first_paint_waits_for_the_folds_and_the_gm_tabs(table, client_for):  # noqa: F811
    html = client_for("gm").get(reverse("table", args=[table.pk])).content.decode()
    assert '<link rel="expect" href="#table-drawn" blocking="render">' in html
    head = html.split("</head>", 1)[0]
    assert "folds" not in head and "gm_tabs" not in head
    tail = html.split('id="table"', 1)[1]
    folds = re.search(r'<script src="/static/tables/folds\.js"></script>', tail)
    tabs = re.search(r'<script src="/static/tables/gm_tabs\.js"></script>', tail)
    drawn = tail.index('<span id="table-drawn" hidden></span>')
    assert folds and tabs and folds.end() < drawn and tabs.end() < drawn
    # Nothing is drawn after it: rendering starts once it is parsed.
    assert re.fullmatch(r"\s*</body>\s*</html>\s*", tail[drawn:].split("</span>", 1)[1])


def test_a_player_gets_the_folds_without_the_gm_tabs(table, client_for):  # noqa: F811
    html = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert html.index("tables/folds.js") < html.index('id="table-drawn"')
    assert "gm_tabs" not in html

"""Issue 29: what the roll stage (static/tables/stage.js) needs from the server. The
table page carries the stage and its one polite announcer, outside the pushed
regions; the log is not a live region (a card would be read out whole); a roll's
card marks the parts said aloud (who rolled what, the outcome) with data-say."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.tables.test_play_momenta_views import HX, dice, roll_data, table  # noqa: F401


def test_the_table_page_has_the_stage_and_one_polite_announcer(table, client_for):  # noqa: F811
    html = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert '<div id="roll-stage" class="roll-stage" aria-hidden="true" inert hidden>' in html
    assert re.search(r'id="table-announce"[^>]*role="status" aria-live="polite"', html)
    # The log keeps its role, but is silent: stage.js says a short line instead.
    assert 'role="log" aria-live="off"' in html
    assert 'aria-live="polite" aria-relevant="additions"' not in html
    # "More options" is remembered per person: folds.js keys it by this id.
    assert re.search(r'id="table"[^>]*data-person="\d+"', html)


def test_a_roll_card_marks_who_rolled_what_and_the_outcome(table, client_for, hero, dice):  # noqa: F811
    dice([5, 5, 2, 3, 1])
    response = client_for("player").post(
        reverse("momenta_roll", args=[table.pk]), roll_data(hero), **HX
    )
    html = response.content.decode()
    said = re.findall(
        r"<p (?:class=\"roll-what\" data-say|data-say class=\"roll-result[^\"]*\")>(.*?)</p>",
        html,
        re.S,
    )
    assert len(said) == 2, said
    assert hero.name in said[0]
    assert "Success" in said[1]
    assert html.count("data-say") == 2  # a few bytes per card: nothing else is added


def test_a_person_who_turns_the_stage_off_gets_it_marked_off_for_them_only(
    table,  # noqa: F811
    client_for,
):
    """Their settings' "Show each roll large as it lands" (issue 29): stage.js then stages
    nothing on their screen; the announcer stays."""
    page = reverse("table", args=[table.pk])
    player = client_for("player")
    on = '<div id="roll-stage" class="roll-stage" aria-hidden="true" inert hidden>'
    assert on in player.get(page).content.decode()  # on until turned off
    player.post(reverse("person_settings"), {})  # the box unticked: not sent
    html = player.get(page).content.decode()
    assert "inert hidden data-off></div>" in html
    assert 'id="table-announce"' in html
    assert on in client_for("gm").get(page).content.decode()

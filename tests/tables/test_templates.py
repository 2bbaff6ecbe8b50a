"""Templates render what they mean to: no comment shows as text, every page has an icon,
and the table page's areas (characters, composer, log, GM tools) are where the CSS
expects them."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from rules.dice import FixedDice
from tables.services import d20 as services_d20

ROOT = Path(__file__).resolve().parents[2]


def template_files() -> list[Path]:
    folders = [Path(d) for t in settings.TEMPLATES for d in t["DIRS"]]
    folders += [p for p in (ROOT / "tables").glob("**/templates") if p.is_dir()]
    files = sorted({f for folder in folders for f in folder.glob("**/*.html")})
    assert len(files) > 50  # the scan saw the templates, not an empty folder
    return files


def unclosed_comments(text: str) -> list[int]:
    """Line numbers of `{#` whose `#}` is not on the same line: Django's {# #} is
    single-line only, so such a comment is rendered as text."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in re.finditer(r"\{#", line):
            if "#}" not in line[match.end() :]:
                found.append(number)
                break
    return found


def test_the_scan_finds_a_multi_line_comment():
    assert unclosed_comments("{# one line #}\n<p>{# two\nlines #}</p>") == [2]
    assert unclosed_comments("{# a #} {# b #}") == []


def test_no_template_has_a_multi_line_hash_comment():
    """Use {% comment %}…{% endcomment %} for comments of more than one line."""
    bad = {
        str(f.relative_to(ROOT)): lines
        for f in template_files()
        if (lines := unclosed_comments(f.read_text()))
    }
    assert bad == {}


@pytest.mark.django_db
def test_the_2d20_page_after_a_spend_shows_no_template_comment(
    client_for, d20_campaign, player, kara
):
    """The push after a spend (d20_test_push.html) once showed its comment as text."""
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=1
        ),
        rng=FixedDice([2, 5]),
    )
    response = client_for("player").post(
        reverse("d20_spend", args=[d20_campaign.pk, test.pk]),
        {"kind": "obtain_information", "note": "Who invited Marcus?"},
        HTTP_HX_REQUEST="true",
    )
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk]))
    for html in (response.content.decode(), page.content.decode()):
        assert 'data-kind="d20_spend"' in html or "Who invited Marcus?" in html
        assert "{#" not in html and "#}" not in html and "{% comment" not in html


@pytest.mark.django_db
def test_every_page_has_an_inline_icon(client_for, momenta_campaign):
    """No /favicon.ico request (a 404 on every page before): the icon is a data URI."""
    pages = [
        ("anonymous", reverse("login")),
        ("player", reverse("home")),
        ("player", reverse("table", args=[momenta_campaign.pk])),
    ]
    for role, url in pages:
        response = client_for(role).get(url)
        assert response.status_code == 200, url
        assert '<link rel="icon" href="data:image/svg+xml,' in response.content.decode(), url


@pytest.mark.django_db
def test_the_group_pool_reads_as_one_number(client_for, d20_campaign, kara):
    """'Momentum 1/6', not '1 /6': value and maximum sit in one box, with no gap."""
    html = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    pools = html[html.index('id="pools"') :]
    assert re.search(
        r'<span class="pool-amount"><span class="pool-value">\d+</span>'
        r'<span class="pool-max">/6</span></span>',
        pools,
    )


@pytest.mark.django_db
def test_the_table_page_has_its_four_areas_in_order(client_for, momenta_campaign, hero):
    """table.css places them: one column on phones, the log beside the composer wider."""
    url = reverse("table", args=[momenta_campaign.pk])
    for role, areas in (
        ("player", ["table-side", "table-main", "table-log", "table-tools"]),
        ("gm", ["table-side", "table-main", "table-log", "table-tools"]),
    ):
        html = client_for(role).get(url).content.decode()
        found = re.findall(r'class="(table-(?:side|main|log|tools))"', html)
        assert found == areas
        assert html.index('class="table-log"') < html.index('id="roll-log"')
        tools = html[html.index('class="table-tools"') :]
        assert ('id="gm-panel"' in tools) == (role == "gm")
    player = client_for("player").get(url).content.decode()
    assert '<div class="table-tools"></div>' in player  # empty: hidden by :empty

"""The table log's pages (issue 14): older entries on demand, and the log filter."""

import re

import pytest
from django.urls import reverse

from tables.live import log_page as pages
from tables.live import render as live
from tables.presenters.table import GM

from .conftest import commit_event

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def seqs(html: str) -> list[int]:
    return [
        int(s)
        for s in re.findall(r'<li class="log-entry[^"]*" id="event-\d+" data-seq="(\d+)"', html)
    ]


def older_link(html: str) -> str | None:
    found = re.search(r'hx-get="([^"]*\?before=[^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def walk(client, campaign, show: str = "all") -> list[list[int]]:
    """Every page a viewer gets by following "Older entries" from the table page."""
    html = client.get(reverse("table", args=[campaign.pk]), {"show": show}).content.decode()
    found = [seqs(html[html.index('id="roll-log"') :])]
    link = older_link(html)
    while link:
        response = client.get(link, **HX)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'hx-swap-oob="true"' in html  # the button is replaced with the next one
        found.append(seqs(html))
        link = older_link(html)
    return found


def make_events(campaign, gm, count: int, *, secret_every: int = 0, pool_every: int = 0):
    for n in range(1, count + 1):
        if secret_every and n % secret_every == 0:
            commit_event(
                campaign.pk, gm, "secret_roll", audience="gm", payload={"summary": f"s{n}"}
            )
        elif pool_every and n % pool_every == 0:
            commit_event(campaign.pk, gm, changes=[("group_momentum", 1, "test", None)])
        else:
            commit_event(campaign.pk, gm, "note", payload={"text": f"note {n}"})


def test_pages_cover_the_log_newest_first_without_duplicates(client, momenta_campaign, gm):
    make_events(momenta_campaign, gm, 2 * live.LOG_LIMIT + 5)
    client.force_login(gm)
    pages_seen = walk(client, momenta_campaign)
    assert [len(p) for p in pages_seen] == [live.LOG_LIMIT, pages.PAGE, 5]
    flat = [s for page in pages_seen for s in page]
    assert flat == list(range(2 * live.LOG_LIMIT + 5, 0, -1))


def test_tb_03_a_players_pages_never_include_gm_only_events(
    client, momenta_campaign, gm, player, observer
):
    make_events(momenta_campaign, gm, 80, secret_every=3)
    secret = set(range(3, 81, 3))
    for user in (player, observer):
        client.force_login(user)
        flat = [s for page in walk(client, momenta_campaign) for s in page]
        assert flat == [s for s in range(80, 0, -1) if s not in secret]
        # Asking directly, before a secret event's own number, shows none either.
        html = client.get(reverse("table_log", args=[momenta_campaign.pk]), {"before": 31}).content
        assert "GM only" not in html.decode() and not secret & set(seqs(html.decode()))
    client.force_login(gm)
    assert secret <= {s for page in walk(client, momenta_campaign) for s in page}


def test_filter_pools_shows_only_pool_changes_and_rolls_only_rolls(client, momenta_campaign, gm):
    make_events(momenta_campaign, gm, 70, secret_every=5, pool_every=2)
    client.force_login(gm)
    pools_only = [s for page in walk(client, momenta_campaign, "pools") for s in page]
    assert pools_only == [s for s in range(70, 0, -1) if s % 2 == 0 and s % 5 != 0]
    rolls_only = [s for page in walk(client, momenta_campaign, "rolls") for s in page]
    assert rolls_only == list(range(70, 0, -5))
    # The fragment the filter swaps in says what it shows: live pushes are hidden by CSS.
    html = client.get(
        reverse("table_log", args=[momenta_campaign.pk]), {"show": "rolls"}, **HX
    ).content.decode()
    assert 'id="log-view" class="log-view" data-show="rolls"' in html
    assert "log-topic--rolls" in html and "log-topic--pools" not in html


def test_entries_carry_the_class_the_filter_hides_live_pushes_by(momenta_campaign, gm):
    pool = commit_event(momenta_campaign.pk, gm, changes=[("group_momentum", 1, "x", None)])
    secret = commit_event(momenta_campaign.pk, gm, "secret_roll", audience="gm")
    assert 'class="log-entry log-entry--pool_adjusted log-topic--pools"' in (
        live.render_event_fragments(pool, GM)
    )
    assert "log-topic--rolls" in live.render_event_fragments(secret, GM)


@pytest.mark.parametrize(
    "query",
    [
        {"before": "x"},
        {"before": "²"},
        {"before": "١"},
        {"before": "-1"},
        {"before": "9" * 30},
        {"show": "gm"},
        {"show": "\x00"},
    ],
)
def test_bad_before_or_show_is_refused_with_400(client, momenta_campaign, gm, player, query):
    commit_event(momenta_campaign.pk, gm, "note", payload={"text": "hello"})
    client.force_login(player)
    response = client.get(reverse("table_log", args=[momenta_campaign.pk]), query, **HX)
    assert response.status_code == 400


def test_outsiders_and_anonymous_get_no_log(client, momenta_campaign, gm, outsider):
    commit_event(momenta_campaign.pk, gm, "note", payload={"text": "secret plans"})
    url = reverse("table_log", args=[momenta_campaign.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    response = client.get(url)
    assert response.status_code == 403 and b"secret plans" not in response.content


def test_the_table_page_ignores_an_unknown_show(client, momenta_campaign, gm):
    commit_event(momenta_campaign.pk, gm, "note", payload={"text": "hello"})
    client.force_login(gm)
    html = client.get(reverse("table", args=[momenta_campaign.pk]), {"show": "nope"}).content
    assert b'data-show="all"' in html and b"hello" in html

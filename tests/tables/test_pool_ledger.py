"""A pool's history (issue 5): who changed it, by how much, why, what the cap took.

GET /campaigns/<pk>/table/ledger/?pool=<pool>[&character=<id>] (views_table.pool_ledger),
opened from each pool on the table page. The lines come from real services
(PM-01, PM-03, PM-04, PM-13, MO-06, MO-13); players and observers never see a
GM-only event's line (TB-03), nor Threat unless the GM shows it (MO-13).
"""

import re
from html import unescape

import pytest
from django.db import transaction
from django.urls import reverse

from rules.dice import FixedDice
from tables import events
from tables.live import render as live
from tables.models import Campaign, Character, PersonSettings, PoolChange, TableEvent
from tables.services import core, momenta, sessions
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.views.table import LEDGER_LIMIT

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def readers_want_rule_marks(player, player2, observer):
    """The lines below read each rule's marker as its ID: their readers, players and an
    observer, ask for the marks (a personal setting, off for them by default, issue 37)."""
    for user in (player, player2, observer):
        PersonSettings.objects.update_or_create(user=user, defaults={"rule_marks": "on"})


def ledger_url(campaign, pool="", character=None) -> str:
    query = f"?pool={pool}" + (f"&character={character}" if character is not None else "")
    return reverse("pool_ledger", args=[campaign.pk]) + query


def get(client, campaign, pool="", character=None, **extra):
    return client.get(ledger_url(campaign, pool, character), **extra)


def ledger_lines(response) -> list[str]:
    """Each ledger line as the words it shows (tags dropped, spaces squeezed), newest first.
    A rule's marker reads as the clause ID its title holds, " (PM-03)" (issue 14)."""
    html = re.sub(
        r'<a class="rule-ref"[^>]*title="Rule ([^"]+)">§</a>',
        r" (\1)",
        response.content.decode(),
    )
    items = re.findall(r'<li class="ledger-line[^"]*" data-seq="\d+">(.*?)</li>', html, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


def seqs(response) -> list[int]:
    return [
        int(s)
        for s in re.findall(r'class="ledger-line[^"]*" data-seq="(\d+)"', response.content.decode())
    ]


def text(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", response.content.decode())).split())


# --- What a ledger shows -----------------------------------------------------------


def test_pm_04_pm_13_a_characters_momentum_ledger_shows_who_how_much_after_why_and_loss(
    client_for, momenta_campaign, gm, player, hero
):
    sessions.adjust_pool(
        momenta_campaign.pk, gm, "momentum", -2, "Spent in the fight", character_id=hero.pk
    )  # 3 -> 1
    sessions.start_session(momenta_campaign.pk, gm)  # PM-01: back to 3
    Campaign.objects.filter(pk=momenta_campaign.pk).update(players_declare_edges=True)
    momenta.record_trauma(momenta_campaign.pk, player, hero.pk, 4)  # PM-03: +4, only 3 fit

    for role in ("player", "player2", "observer", "gm"):
        response = get(client_for(role), momenta_campaign, "momentum", hero.pk, **HX)
        assert response.status_code == 200
        lines = ledger_lines(response)
        assert len(lines) == 3, lines
        newest, session, spent = lines
        # Newest first: seq, who acted, which character, signed delta, after, loss, reason.
        assert newest.startswith("#3 player Ash")
        assert re.search(r"\+3 → 6 1 lost to the cap \S", newest), newest
        assert session.startswith("#2 gm Ash")
        assert "+2 → 3 New session: Momentum resets to 3 (PM-01)" in session
        assert spent.startswith("#1 gm Ash") and spent.endswith("-2 → 1 Spent in the fight")
        assert "lost to the cap" not in session + spent
        # Out of the words, one hover away (issue 14).
        assert "(PM-01)" not in text(response)
        assert 'title="Rule PM-01"' in response.content.decode()
        assert "History: Ash's Momentum" in text(response) and "Now 6/6" in text(response)


def test_pm_04_the_trauma_line_is_the_services_own_reason(
    client_for, momenta_campaign, player, hero
):
    Campaign.objects.filter(pk=momenta_campaign.pk).update(players_declare_edges=True)
    event = momenta.record_trauma(momenta_campaign.pk, player, hero.pk, 4)
    line = PoolChange.objects.get(event=event)
    assert (line.delta, line.after, line.lost) == (3, 6, 1)
    shown = ledger_lines(get(client_for("player"), momenta_campaign, "momentum", hero.pk))
    assert shown[0].endswith(f"+3 → 6 1 lost to the cap {line.reason}")


def test_resolve_ledger_is_a_characters_own(client_for, momenta_campaign, gm, hero, sidekick):
    sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "Shaken", character_id=hero.pk)
    sessions.adjust_pool(
        momenta_campaign.pk, gm, "resolve", -1, "Bruised", character_id=sidekick.pk
    )
    response = get(client_for("player2"), momenta_campaign, "resolve", hero.pk)
    (line,) = ledger_lines(response)
    assert "Ash" in line and line.endswith("-1 → 2 Shaken") and "Bruised" not in text(response)
    assert "Now 2/4" in text(response)


def test_mo_06_the_group_pool_ledger_shows_the_overflow_lost(client_for, d20_campaign, gm):
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 8, "A great haul")
    sessions.end_scene(d20_campaign.pk, gm)  # MO-07: the pool loses 1
    response = get(client_for("observer"), d20_campaign, "group_momentum", **HX)
    assert response.status_code == 200
    assert ledger_lines(response)[0].endswith("-1 → 5 End of Scene 1: pool loses 1 (MO-07)")
    assert ledger_lines(response)[1].endswith("+6 → 6 2 lost to the cap A great haul")
    assert "History: Group Momentum" in text(response) and "Now 5/6" in text(response)


def test_an_untouched_pool_says_so(client_for, d20_campaign, kara):
    response = get(client_for("player"), d20_campaign, "determination", kara.pk)
    assert response.status_code == 200 and "No changes yet." in text(response)


def test_the_ledger_shows_the_latest_50_and_says_how_many_there_are(
    client_for, momenta_campaign, gm, hero
):
    for i in range(LEDGER_LIMIT + 5):
        sessions.adjust_pool(
            momenta_campaign.pk, gm, "momentum", 1 if i % 2 else -1, f"step {i}",
            character_id=hero.pk,
        )  # fmt: skip
    response = get(client_for("player"), momenta_campaign, "momentum", hero.pk, **HX)
    assert seqs(response) == list(range(LEDGER_LIMIT + 5, 5, -1))
    assert f"The latest {LEDGER_LIMIT} of {LEDGER_LIMIT + 5} changes" in text(response)


def test_a_longer_ledger_costs_no_more_queries(
    client_for, django_assert_max_num_queries, momenta_campaign, gm, hero
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for("player")

    def adjust(times):
        for _ in range(times):
            sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", 1, "r", character_id=hero.pk)
            sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "r", character_id=hero.pk)

    adjust(2)
    with CaptureQueriesContext(connection) as few:
        assert len(ledger_lines(get(client, momenta_campaign, "resolve", hero.pk, **HX))) == 4
    adjust(20)
    with django_assert_max_num_queries(len(few)):
        assert len(ledger_lines(get(client, momenta_campaign, "resolve", hero.pk, **HX))) == 44


# --- Who sees what -----------------------------------------------------------------


def gm_only_change(campaign, gm, character, delta, reason):
    """A GM-only event that moves a character's pool, made as services make events
    (no service does this today: a secret roll moves no pool)."""
    with transaction.atomic():
        locked = core.lock_campaign(campaign.pk)
        change = core.change_pool(locked, "momentum", delta, reason, character=character)
        return core.append_event(
            locked,
            events.POOL_ADJUSTED,
            gm,
            {"pool": "momentum", "character_id": character.pk},
            audience=TableEvent.Audience.GM,
            changes=[change],
        )


def test_tb_03_a_gm_only_change_is_hidden_from_players_and_shown_to_gms(
    client_for, momenta_campaign, gm, hero
):
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 1, "Open", character_id=hero.pk)
    gm_only_change(momenta_campaign, gm, hero, -2, "Behind the screen")
    for role in ("player", "player2", "observer"):
        response = get(client_for(role), momenta_campaign, "momentum", hero.pk, **HX)
        assert seqs(response) == [1] and "Behind the screen" not in text(response), role
    for role in ("gm", "cogm"):
        response = get(client_for(role), momenta_campaign, "momentum", hero.pk, **HX)
        assert seqs(response) == [2, 1], role
        hidden = ledger_lines(response)[0]
        assert "GM only" in hidden and hidden.endswith("-2 → 2 Behind the screen")


def test_mo_13_threat_added_in_secret_stays_with_the_gm_after_threat_is_shown(
    client_for, d20_campaign, gm
):
    services_gm.add_threat(d20_campaign.pk, gm, 2, "The ambush is set")  # hidden: GM only
    services_gm.set_threat_visible(d20_campaign.pk, gm, True)
    services_gm.add_threat(d20_campaign.pk, gm, 1, "The alarm sounds")  # shown: everyone
    player = get(client_for("player"), d20_campaign, "threat", **HX)
    assert player.status_code == 200
    (line,) = ledger_lines(player)
    assert line.endswith("+1 → 3 The alarm sounds") and "ambush" not in text(player)
    lines = ledger_lines(get(client_for("gm"), d20_campaign, "threat", **HX))
    assert (
        len(lines) == 2 and "GM only" in lines[1] and lines[1].endswith("+2 → 2 The ambush is set")
    )


def test_mo_13_the_threat_ledger_is_refused_to_players_while_threat_is_hidden(
    client_for, d20_campaign, gm
):
    services_gm.add_threat(d20_campaign.pk, gm, 3, "Reinforcements")
    assert not Campaign.objects.get(pk=d20_campaign.pk).threat_visible
    for role in ("player", "observer"):
        for extra in ({}, HX):
            response = get(client_for(role), d20_campaign, "threat", **extra)
            assert response.status_code == 403
            assert "Threat is the GM's pool" in text(response)
            assert "Reinforcements" not in text(response) and "ledger-line" not in text(response)
    gm_view = get(client_for("gm"), d20_campaign, "threat", **HX)
    assert gm_view.status_code == 200 and "Reinforcements" in text(gm_view)
    services_gm.set_threat_visible(d20_campaign.pk, gm, True)
    shown = get(client_for("player"), d20_campaign, "threat", **HX)
    assert shown.status_code == 200 and "Now 3" in text(shown)


def test_outsiders_are_forbidden_and_anonymous_visitors_sent_to_log_in(
    client_for, momenta_campaign, hero
):
    url = ledger_url(momenta_campaign, "momentum", hero.pk)
    assert client_for("outsider").get(url).status_code == 403
    response = client_for("anonymous").get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_the_ledger_is_read_only(client_for, momenta_campaign, hero):
    url = ledger_url(momenta_campaign, "momentum", hero.pk)
    assert client_for("gm").post(url).status_code == 405


# --- Bad links ----------------------------------------------------------------------


@pytest.fixture
def stranger(gm):
    """A character of another campaign."""
    other = Campaign.objects.create(owner=gm, name="Elsewhere")
    return Character.objects.create(campaign=other, owner=gm, name="Stranger")


@pytest.mark.parametrize(
    ("pool", "character", "status", "message"),
    [
        ("", None, 400, "There is no pool called"),
        ("gold", None, 400, "There is no pool called"),
        ("momentum", None, 400, "Whose Momentum? Name a character."),
        ("momentum", "abc", 400, "A character is named by its number."),
        ("momentum", "-1", 400, "A character is named by its number."),
        ("momentum", "²", 400, "A character is named by its number."),
        ("momentum", "9" * 30, 400, "A character is named by its number."),
        ("momentum", "stranger", 404, "That character is not in this campaign."),
        ("momentum", "999999", 404, "That character is not in this campaign."),
        ("threat", "hero", 400, "Threat is the table's, not a character's."),
    ],
)
def test_bad_ledger_links_are_refused_with_a_message_and_change_nothing(
    client_for, momenta_campaign, gm, hero, stranger, pool, character, status, message
):
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 1, "Open", character_id=hero.pk)
    character = {"hero": hero.pk, "stranger": stranger.pk}.get(character, character)
    before = (TableEvent.objects.count(), PoolChange.objects.count(), Character.objects.count())
    for extra in ({}, HX):
        response = get(client_for("player"), momenta_campaign, pool, character, **extra)
        assert response.status_code == status
        assert message in text(response) and "ledger-line" not in response.content.decode()
    after = (TableEvent.objects.count(), PoolChange.objects.count(), Character.objects.count())
    assert after == before


# --- Fragment and page ------------------------------------------------------------------


def test_htmx_gets_the_fragment_and_a_plain_get_the_page_around_it(
    client_for, momenta_campaign, gm, hero
):
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 2, "Good news", character_id=hero.pk)
    client = client_for("player")
    fragment = get(client, momenta_campaign, "momentum", hero.pk, **HX).content.decode()
    page = get(client, momenta_campaign, "momentum", hero.pk).content.decode()
    assert fragment.lstrip().startswith('<div class="pool-ledger" id="pool-ledger-content"')
    assert "<html" not in fragment and "<html" in page and '<header class="topbar">' in page
    # The same partial: the page holds the fragment as it is.
    assert fragment.strip() in page
    assert f'href="{reverse("table", args=[momenta_campaign.pk])}"' in page


# --- Opening it from the pools -----------------------------------------------------------


def pool_links(html: str) -> dict[str, str]:
    """{data-pool (and character id): the ledger link's hx-get} for each pool widget."""
    found = {}
    for match in re.finditer(
        r'data-character-id="(\d+)"|<div class="pool[^"]*" data-pool="(\w+)">(.*?)</div>',
        html,
        re.S,
    ):
        if match.group(1):
            who = match.group(1)
            continue
        pool, inner = match.group(2), match.group(3)
        link = re.search(
            r'<a class="pool-open" href="([^"]+)" hx-get="([^"]+)" hx-target="#pool-ledger-body"',
            inner,
        )
        assert link and link.group(1) == link.group(2), inner
        key = pool if pool in ("group_momentum", "threat") else f"{pool}:{who}"
        found[key] = unescape(link.group(2))
    return found


def test_every_pool_on_the_momenta_table_opens_its_ledger(
    client_for, momenta_campaign, hero, sidekick
):
    html = client_for("observer").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    base = reverse("pool_ledger", args=[momenta_campaign.pk])
    assert pool_links(html[: html.index('id="roll-log"')]) == {
        f"{pool}:{c.pk}": f"{base}?pool={pool}&character={c.pk}"
        for c in (hero, sidekick)
        for pool in ("momentum", "resolve")
    }
    assert html.count('<dialog id="pool-ledger"') == 1 and 'id="pool-ledger-body"' in html
    assert "tables/ledger.js" in html


def test_every_pool_on_the_2d20_table_opens_its_ledger_threat_only_where_shown(
    client_for, d20_campaign, kara
):
    url = reverse("table", args=[d20_campaign.pk])
    base = reverse("pool_ledger", args=[d20_campaign.pk])
    expected = {
        "group_momentum": f"{base}?pool=group_momentum",
        f"determination:{kara.pk}": f"{base}?pool=determination&character={kara.pk}",
    }
    player = client_for("player").get(url).content.decode()
    assert pool_links(player[: player.index('id="roll-log"')]) == expected
    gm = client_for("gm").get(url).content.decode()
    assert pool_links(gm[: gm.index('id="roll-log"')]) == expected | {
        "threat": f"{base}?pool=threat"
    }


def test_pushed_pools_and_cards_keep_their_ledger_links(momenta_campaign, gm, hero):
    event = sessions.adjust_pool(
        momenta_campaign.pk, gm, "momentum", 1, "Pushed", character_id=hero.pk
    )
    html = live.render_event_fragments(event, "all")
    card = html[html.index(f'id="character-{hero.pk}"') :]
    assert (
        f"?pool=momentum&amp;character={hero.pk}" in card
        and 'hx-target="#pool-ledger-body"' in card
    )


def test_mo_13_the_campaign_pages_recent_changes_keep_hidden_threat_from_players(
    client_for, d20_campaign, gm, player, kara
):
    """A bought d20 paid in Threat is an event everyone sees; its Threat total is not."""
    services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=0, bought_dice=1
        ),
        rng=FixedDice([2, 5, 3]),
    )
    url = reverse("campaign_detail", args=[d20_campaign.pk])
    recent = text(client_for("player").get(url)).split("Recent pool changes")
    assert len(recent) == 1 or "paid in Threat" not in recent[1]
    assert "paid in Threat" in text(client_for("gm").get(url)).split("Recent pool changes")[1]
    services_gm.set_threat_visible(d20_campaign.pk, gm, True)
    assert "paid in Threat" in text(client_for("player").get(url)).split("Recent pool changes")[1]

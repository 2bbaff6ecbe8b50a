"""The Momenta composer follows what others do, without being redrawn (issue 25).

The composer is one person's form, never pushed. Two parts of it still depend on what
others do: the Assists the roller may use (PM-08: the GM accepts, the helper's player
agrees or declines) and the pattern chooser of a roll someone else made for one's
character (PAT-02). A push carries markers for them (live_sync.html, chooser_sync.html),
and the page fetches only that part, so nothing the person typed is lost.
"""

import re
from html import unescape

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import render as live
from tables.models import MomentaRoll
from tables.presenters.table import ALL, GM
from tables.services import momenta

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def marker(html: str, name: str) -> str:
    """The pushed marker of that id ('' if the push has none)."""
    found = re.search(rf'<span id="{name}"[^>]*hx-swap-oob="true"[^>]*>', html)
    return found.group(0) if found else ""


def choice_url(campaign):
    return reverse("momenta_assist_choice", args=[campaign.pk])


def options(html: str) -> list[str]:
    select = re.search(r'<select name="assist".*?</select>', html, re.S).group(0)
    return [unescape(o.strip()) for o in re.findall(r"<option[^>]*>([^<]*)</option>", select)]


# --- The Assist choice (PM-08) ----------------------------------------------------------


def test_pm_08_every_answer_to_an_assist_sends_the_assist_choice_marker(
    momenta_campaign, gm, player, player2, hero, sidekick
):
    pk = momenta_campaign.pk
    asked = momenta.request_assist(pk, player, hero.pk, sidekick.pk)
    accepted = momenta.answer_assist(pk, gm, asked.pk, "accept")
    declined = momenta.answer_as_helper(pk, player2, asked.pk, agree=False)
    for event in (asked.event, accepted.event, declined.event):
        for audience in (ALL, GM):  # GMs roll too (NPCs)
            found = marker(live.render_event_fragments(event, audience), "live-sync-assist-choice")
            assert f'hx-get="{choice_url(momenta_campaign)}"' in found, (event.kind, audience)
            assert 'hx-include="#momenta-roll"' in found
            assert f"dataset.seq < {event.seq}]" in found


def test_a_plain_roll_sends_no_assist_choice_marker(momenta_campaign, player, hero, d6_faces):
    d6_faces([6, 1, 2])
    roll = momenta.roll_momenta(momenta_campaign.pk, player, hero.pk, momenta.RollRequest("GRIT"))
    for audience in (ALL, GM):
        html = live.render_event_fragments(roll.event, audience)
        assert marker(html, "live-sync-assist-choice") == ""


def test_pm_08_the_assist_choice_follows_accept_and_decline_keeping_what_was_chosen(
    momenta_campaign, client_for, gm, player, player2, hero, sidekick
):
    pk = momenta_campaign.pk
    client = client_for("player")
    asked = {"character": hero.pk, "attribute": "GRIT", f"resolve_{hero.pk}": "2"}

    def choice(**extra):
        response = client.get(choice_url(momenta_campaign), asked | extra, **HX)
        assert response.status_code == 200
        return response.content.decode()

    assist = momenta.request_assist(pk, player, hero.pk, sidekick.pk)
    assert options(choice()) == ["No Assist"]  # asked, not yet accepted
    momenta.answer_assist(pk, gm, assist.pk, "accept")
    html = choice(assist=str(assist.pk))
    assert options(html) == ["No Assist", "Bo (waiting for Bo's agreement)"]
    assert re.search(rf'<option value="{assist.pk}" selected>', html)  # kept
    assert f'name="resolve_{hero.pk}" value="2"' in html  # the Resolve typed, kept
    assert 'id="momenta-assist-choice"' in html and 'id="live-sync-assist-choice"' in html
    momenta.answer_as_helper(pk, player2, assist.pk, agree=True)
    assert options(choice(assist=str(assist.pk))) == ["No Assist", "Bo"]
    momenta.answer_assist(pk, player2, assist.pk, "decline")  # Bo's player withdraws
    assert options(choice(assist=str(assist.pk))) == ["No Assist"]


def test_the_assist_choice_is_only_for_a_character_the_viewer_controls(
    momenta_campaign, client_for, hero, sidekick
):
    url = choice_url(momenta_campaign)
    assert client_for("player2").get(url, {"character": hero.pk}, **HX).status_code == 404
    assert client_for("player").get(url, {"character": "x"}, **HX).status_code == 404
    assert client_for("observer").get(url, {"character": hero.pk}, **HX).status_code == 403
    assert client_for("outsider").get(url, {"character": hero.pk}, **HX).status_code in (403, 404)
    assert client_for("gm").get(url, {"character": hero.pk}, **HX).status_code == 200


# --- The chooser of a roll made for another's character (PAT-02) ------------------------


def gm_rolls_for(campaign, gm, hero) -> MomentaRoll:
    """The GM rolls Ash's GRIT 3d: 5, 5, 1 (a pair: patterns to choose)."""
    return momenta.roll_momenta(
        campaign.pk, gm, hero.pk, momenta.RollRequest("GRIT"), rng=FixedDice([5, 5, 1])
    )


def test_pat_02_a_gm_roll_for_a_players_character_offers_its_owner_the_chooser(
    momenta_campaign, client_for, gm, player, hero
):
    roll = gm_rolls_for(momenta_campaign, gm, hero)
    assert roll.awaiting
    chooser_url = reverse("momenta_chooser", args=[momenta_campaign.pk, roll.pk])
    for audience in (ALL, GM):
        found = marker(live.render_event_fragments(roll.event, audience), "live-sync-chooser")
        assert f'hx-get="{chooser_url}"' in found
        assert f"dataset.person === '{player.pk}'" in found  # only the owner's page loads it
        assert 'hx-target="#momenta-choosers"' in found
    # What it loads: the chooser for the owner, nothing for anyone else.
    assert f'id="chooser-{roll.pk}"' in client_for("player").get(chooser_url, **HX).content.decode()
    assert client_for("player2").get(chooser_url, **HX).content.decode() == ""
    # Chosen: the push makes a page still showing that chooser fetch it (empty) again.
    chosen = momenta.choose_allocation(momenta_campaign.pk, player, roll.pk, [])
    found = marker(live.render_event_fragments(chosen, GM), "live-sync-chooser")
    assert f'hx-target="#chooser-{roll.pk}"' in found
    assert f"load[!!document.getElementById('chooser-{roll.pk}')]" in found  # exactly true
    assert client_for("gm").get(chooser_url, **HX).content.decode() == ""


def test_a_players_own_roll_offers_no_chooser_by_push(momenta_campaign, player, hero):
    roll = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, momenta.RollRequest("GRIT"), rng=FixedDice([5, 5, 1])
    )
    assert roll.awaiting  # their own answer loads it (composer_momenta_rolled.html)
    assert marker(live.render_event_fragments(roll.event, ALL), "live-sync-chooser") == ""


def test_the_page_has_the_empty_markers_for_rollers_and_watchers(
    momenta_campaign, client_for, hero
):
    page = reverse("table", args=[momenta_campaign.pk])
    for who in ("player", "observer", "gm"):
        html = client_for(who).get(page).content.decode()
        assert html.count('<span id="live-sync-chooser" hidden></span>') == 1, who
        assert html.count('<span id="live-sync-assist-choice" hidden></span>') == 1, who


def test_tb_03_a_revealed_secret_roll_offers_its_owner_the_chooser(momenta_campaign, gm, hero):
    """A secret roll's chooser is the GM's until revealed; the reveal's push offers it."""
    roll = momenta.roll_momenta(
        momenta_campaign.pk,
        gm,
        hero.pk,
        momenta.RollRequest("GRIT", secret=True),
        rng=FixedDice([5, 5, 1]),
    )
    revealed = momenta.reveal_roll(momenta_campaign.pk, gm, roll.pk)
    chooser_url = reverse("momenta_chooser", args=[momenta_campaign.pk, roll.pk])
    found = marker(live.render_event_fragments(revealed, ALL), "live-sync-chooser")
    assert f'hx-get="{chooser_url}"' in found and 'hx-target="#momenta-choosers"' in found

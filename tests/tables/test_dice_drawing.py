"""Issue 14, dice that look like dice: d6 faces with pips and d20 silhouettes in inline SVG,
whose successes, sets, criticals and complications show by shape and words, not colour
alone; and the roll animation, a setting of each person's own."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tables.models import PersonSettings
from tables.services import sessions
from tests.tables.d20_posts import roll_data

HX = {"HTTP_HX_REQUEST": "true"}
D6_SVG = re.compile(r'<svg class="die-face([^"]*)"[^>]*>(.*?)</svg>', re.S)
D20_DIE = re.compile(
    r'<span class="d20-die([^"]*)" title="([^"]*)">(<svg class="d20-shape".*?</svg>)'
    r'<span class="d20-num">(\d+)</span></span>',
    re.S,
)


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm):
    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


@pytest.fixture
def d6(d6_faces):
    """d6([5, 5, 1, 2]): the next Momenta roll shows these faces."""
    return d6_faces


@pytest.fixture
def d20(d20_faces):
    """d20([faces…]): the next d20s rolled by the server show these faces."""
    return d20_faces


def momenta_card(client, campaign, character, **extra) -> str:
    data = {
        "character": character.pk,
        "attribute": "WITS",  # 4 dice
        "kind": "action",
        "play": "narrative",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
        **extra,
    }
    response = client.post(reverse("momenta_roll", args=[campaign.pk]), data, **HX)
    assert response.status_code == 200
    return unescape(response.content.decode()).split('data-kind="momenta_roll"')[1]


def rolled(card: str) -> str:
    """The card's "Dice rolled" paragraph."""
    return card.split('class="roll-dice"')[1].split("</p>")[0]


def d6_faces(html: str) -> list[dict]:
    """Each drawn d6: its classes, pips, hover title and whether it is ringed,
    struck or bracketed."""
    return [
        {
            "classes": set(classes.split()),
            "pips": body.count('class="die-pip"'),
            "title": re.search(r"<title>(.*?)</title>", body).group(1),
            "ring": 'class="die-ring"' in body,
            "strike": 'class="die-strike"' in body,
            "bracket": 'class="die-set"' in body,
        }
        for classes, body in D6_SVG.findall(html)
    ]


# --- d6 faces -------------------------------------------------------------------------------


def test_d6_01_each_die_is_a_face_with_its_pips_successes_filled_and_ringed(
    table, client_for, hero, d6
):
    """D6-01: 5s and 6s are successes: drawn filled with a second outline (a shape, not
    only a colour), the others plain; each face has as many pips as it shows, and the
    face stays readable as text beside its drawing."""
    d6([5, 2, 6, 3])
    card = momenta_card(client_for("player"), table, hero)
    drawn = d6_faces(rolled(card))
    assert [d["pips"] for d in drawn] == [5, 2, 6, 3]
    assert [d["ring"] for d in drawn] == [True, False, True, False]
    assert [("die-face--hit" in d["classes"]) for d in drawn] == [True, False, True, False]
    assert [d["title"] for d in drawn] == [
        "5: success",
        "2: no success",
        "6: success",
        "3: no success",
    ]
    assert '<span class="die die--hit" title="success">5</span>' in card
    assert '<span class="die" title="no success">2</span>' in card
    # The drawing is decoration for screen readers: the text above speaks for it.
    assert card.count('aria-hidden="true" focusable="false"><title>') >= 4


def test_pat_01_dice_of_equal_faces_are_bracketed_as_their_set(table, client_for, hero, d6):
    """PAT-01: a Double 5 and a Triple 2 are bracketed underneath, named in the title
    and in words for screen readers; the lone 1 is not."""
    d6([5, 5, 2, 2, 2, 1])
    card = momenta_card(client_for("player"), table, hero, modifiers="+2")
    drawn = d6_faces(rolled(card))
    assert [d["bracket"] for d in drawn] == [True, True, True, True, True, False]
    assert [("die-face--set" in d["classes"]) for d in drawn] == [True] * 5 + [False]
    assert drawn[0]["title"] == "5: success; Double 5"
    assert drawn[2]["title"] == "2: no success; Triple 2"
    assert card.count('<span class="visually-hidden"> (Double 5)</span>') == 2
    assert card.count('<span class="visually-hidden"> (Triple 2)</span>') == 3


def test_pat_01_the_oppositions_equal_faces_make_no_set(table, client_for, hero, d6):
    """Patterns are the roller's (PAT-02): the opposition's pair of 2s is not bracketed."""
    d6([3, 4, 1, 6, 2, 2])  # Ash's 4 dice, then the opposition's 2
    card = momenta_card(client_for("gm"), table, hero, opposition_pool=2)
    opposition = card.split('aria-label="Opposition dice"')[1].split("</p>")[0]
    drawn = d6_faces(opposition)
    assert [d["pips"] for d in drawn] == [2, 2]
    assert not any(d["bracket"] for d in drawn) and "Double" not in opposition


def test_pat_05_a_zero_dice_roll_strikes_the_discarded_die_and_makes_no_set(
    table, client_for, hero, d6
):
    """D6-07, PAT-05: 2d6 keep the lowest: two 6s are no Double; the discarded one is
    dashed and struck through (its title says why), the kept one a plain success."""
    d6([6, 6])
    card = momenta_card(client_for("player"), table, hero, modifiers="-4")
    drawn = d6_faces(rolled(card))
    assert [d["strike"] for d in drawn] == [False, True]
    assert "die-face--dropped" in drawn[1]["classes"]
    assert drawn[1]["title"] == "6: discarded, only the lowest die counts"
    assert not any(d["bracket"] for d in drawn)
    assert [d["ring"] for d in drawn] == [True, False]


# --- d20 silhouettes -----------------------------------------------------------------------


def d20_dice(client, campaign, character, **extra) -> list[dict]:
    response = client.post(
        reverse("d20_roll", args=[campaign.pk]), roll_data(character, **extra), **HX
    )
    assert response.status_code == 200
    entry = unescape(response.content.decode()).split('data-kind="d20_test"')[1]
    return [
        {
            "classes": set(classes.split()),
            "title": title,
            "face": int(face),
            "ring": 'class="d20-ring"' in svg,
            "badge": 'class="d20-comp-badge"' in svg,
        }
        for classes, title, svg, face in D20_DIE.findall(entry)
    ]


def test_t_r1_a_1_is_a_critical_without_a_focus_drawn_filled_and_ringed(
    client_for, d20_campaign, kara, d20
):
    """T-R1: without a focus only a 1 scores 2 successes: it gets the second outline
    and says so; a 9 (under the target 13) is a plain success."""
    d20([1, 9])
    crit, hit = d20_dice(client_for("player"), d20_campaign, kara)
    assert (crit["face"], hit["face"]) == (1, 9)
    assert "d20-die--crit" in crit["classes"] and crit["ring"]
    assert crit["title"] == "2 successes (critical: at or under focus)"
    assert "d20-die--hit" in hit["classes"] and not hit["ring"]
    assert hit["title"] == "1 success"


def test_t_r1_with_a_focus_a_die_at_or_under_the_skill_is_critical(
    client_for, d20_campaign, kara, d20
):
    """T-R1: with her Persuasion focus Kara's 6 (at her skill, 6) is a critical; the 7 is
    a success only, by outline and words alike."""
    d20([6, 7])
    crit, hit = d20_dice(client_for("player"), d20_campaign, kara, focus="Persuasion")
    assert crit["ring"] and "critical" in crit["title"]
    assert not hit["ring"] and "critical" not in hit["title"]


def test_t_r1_a_20_carries_the_complication_badge_and_a_miss_is_plain(
    client_for, d20_campaign, kara, d20
):
    """T-R1: a 20 is a complication: a warning badge on the die and the word in its
    title; the 14 (over the target) is a miss, with neither."""
    d20([14, 20])
    miss, comp = d20_dice(client_for("player"), d20_campaign, kara)
    assert "d20-die--miss" in miss["classes"] and not miss["badge"] and not miss["ring"]
    assert miss["title"] == "0 successes"
    assert {"d20-die--miss", "d20-die--comp"} <= comp["classes"] and comp["badge"]
    assert comp["title"] == "0 successes, complication"


# --- the roll animation, one person's setting ----------------------------------------------


def settings_url():
    return reverse("person_settings")


def box_ticked(client) -> bool:
    """Is the settings page's "Animate new dice" box ticked?"""
    html = client.get(settings_url()).content.decode()
    return " checked" in re.search(r'<input type="checkbox" name="animate_dice"[^>]*>', html)[0]


def animates(user) -> bool:
    return PersonSettings.of(user).animate_dice


def test_the_animation_is_off_until_a_person_turns_it_on(client_for, player):
    assert not box_ticked(client_for("player"))
    assert not animates(player) and not PersonSettings.objects.exists()


def test_a_person_saves_their_own_setting(client_for, player, player2):
    response = client_for("player").post(settings_url(), {"animate_dice": "on"})
    assert response.status_code == 302 and response.url == settings_url()
    assert animates(player) and not animates(player2)
    assert box_ticked(client_for("player")) and not box_ticked(client_for("player2"))
    client_for("player").post(settings_url(), {})  # an unticked box is not sent
    assert not animates(player)


def test_a_post_from_another_person_changes_nothing_of_yours(client_for, player, player2):
    """The page names nobody: whatever another person posts (even someone's id or
    username) lands on their own settings, never on yours."""
    client_for("player").post(settings_url(), {"animate_dice": "on"})
    client_for("player2").post(settings_url(), {"user": player.pk, "username": player.username})
    assert animates(player) and not animates(player2)
    assert PersonSettings.objects.get(user=player2).animate_dice is False


def test_anonymous_is_sent_to_log_in_and_nothing_is_saved(client_for):
    response = client_for("anonymous").post(settings_url(), {"animate_dice": "on"})
    assert response.status_code == 302 and reverse("login") in response.url
    assert not PersonSettings.objects.exists()


def test_the_table_page_has_the_animation_class_only_for_who_turned_it_on(table, client_for):
    def page(role):
        html = client_for(role).get(reverse("table", args=[table.pk])).content.decode()
        return re.search(r'<div id="table" class="([^"]*)"', html).group(1).split()

    assert "dice-motion" not in page("player")
    client_for("player").post(settings_url(), {"animate_dice": "on"})
    assert "dice-motion" in page("player")
    assert "dice-motion" not in page("gm")  # the GM's own setting: still off

"""The turn tracker offers each line's paid turns (issue 36: SC-04, SC-05) only where the
line has them and only to whom may use them; a press goes through the control's own
form (its hidden fields and button), so a missing control fails the test.

Kara and Lena (players) against Marcus (the GM's NPC)."""

from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables.live import render as live
from tables.models import Campaign, Character
from tables.services.conflicts import turns

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena(d20_campaign, player2):
    return Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")


def on_line(campaign, line, momentum=0, threat=4):
    Campaign.objects.filter(pk=campaign.pk).update(
        game_line=line, group_momentum=momentum, threat=threat
    )
    campaign.refresh_from_db()


def raw_tracker(client, campaign) -> str:
    html = client.get(reverse("table", args=[campaign.pk])).content.decode()
    return html.split('id="turn-tracker"', 1)[1].split("</section>", 1)[0]


def tracker(client, campaign) -> str:
    """The tracker on this person's table page, its words unescaped ("GM's AP")."""
    return unescape(raw_tracker(client, campaign))


class _Forms(HTMLParser):
    """The tracker's forms: each one's fields and its buttons (name, value, words)."""

    def __init__(self):
        super().__init__()
        self.forms, self._button = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"fields": {}, "buttons": []})
        elif tag == "input" and self.forms and attrs.get("type") == "hidden":
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")
        elif tag == "button" and self.forms:
            self._button = [attrs.get("name"), attrs.get("value"), ""]

    def handle_data(self, data):
        if self._button is not None:
            self._button[2] += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self.forms[-1]["buttons"].append(tuple(self._button))
            self._button = None


def press(client, campaign, words: str):
    """Press the tracker's button worded `words`, posting its form as a browser would."""
    parser = _Forms()
    parser.feed(raw_tracker(client, campaign))
    for form in parser.forms:
        for name, value, text in form["buttons"]:
            if text.strip() == words:
                data = {**form["fields"], name: value}
                url = reverse("turn_command", args=[campaign.pk])
                return client.post(url, data, HTTP_HX_REQUEST="true")
    raise AssertionError(f"no button {words!r} in the tracker")


def acting(campaign):
    conflict = turns.running_conflict(campaign)
    return conflict.acting.character.name if conflict.acting else None


def threat(campaign):
    campaign.refresh_from_db()
    return campaign.threat


def test_conan_the_gm_may_pay_doom_for_an_npc_to_act_before_the_next_player(
    client_for, d20_campaign, gm, kara, lena, marcus
):
    on_line(d20_campaign, "conan", threat=3)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    words = "Pay 1 Doom: Marcus acts before the next player"

    assert words in tracker(client_for("gm"), d20_campaign)
    assert "Doom: Marcus" not in tracker(client_for("player"), d20_campaign)
    assert 'value="interrupt"' not in tracker(client_for("player"), d20_campaign)

    assert press(client_for("gm"), d20_campaign, words).status_code == 200
    assert acting(d20_campaign) == "Marcus" and threat(d20_campaign) == 2


def test_fallout_the_gm_may_spend_action_points_for_an_npc_to_act_now(
    client_for, d20_campaign, gm, kara, lena, marcus
):
    on_line(d20_campaign, "fallout", threat=5)
    turns.start_conflict(d20_campaign.pk, gm, [marcus.pk, kara.pk], {kara.pk: 9, marcus.pk: 3})
    words = "Spend 2 GM's AP: Marcus acts now"

    assert words in tracker(client_for("gm"), d20_campaign)
    assert "Marcus acts now" not in tracker(client_for("player"), d20_campaign)

    press(client_for("gm"), d20_campaign, words)
    assert acting(d20_campaign) == "Marcus" and threat(d20_campaign) == 3


def test_sta_the_players_may_keep_the_initiative_by_adding_two_threat(
    client_for, d20_campaign, gm, player, kara, lena, marcus
):
    on_line(d20_campaign, "sta2", momentum=0, threat=4)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    words = "Keep the Initiative by adding 2 to Threat: Lena"

    assert words in tracker(client_for("player2"), d20_campaign)
    assert "adding 2 to Threat" not in tracker(client_for("gm"), d20_campaign)

    press(client_for("player2"), d20_campaign, words)  # no Momentum needed
    assert acting(d20_campaign) == "Lena" and threat(d20_campaign) == 6


def test_sta_the_gm_may_spend_threat_for_an_npc_to_open_the_round(
    client_for, d20_campaign, gm, kara, lena, marcus
):
    on_line(d20_campaign, "sta1", threat=4)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    words = "Spend 2 Threat: Marcus opens the round"

    assert words in tracker(client_for("gm"), d20_campaign)
    assert "opens the round" not in tracker(client_for("player"), d20_campaign)

    press(client_for("gm"), d20_campaign, words)
    assert acting(d20_campaign) == "Marcus" and threat(d20_campaign) == 2
    assert "opens the round" not in tracker(client_for("gm"), d20_campaign)  # bought once


def test_fallout_start_form_has_an_initiative_per_character_prefilled_from_the_sheet(
    client_for, d20_campaign, kara, marcus
):
    on_line(d20_campaign, "fallout")
    kara.attributes.create(name="PER", value=6)
    kara.attributes.create(name="AGI", value=5)
    gm = client_for("gm")

    html = tracker(gm, d20_campaign)
    assert f'name="initiative_{kara.pk}" min="0" max="99" value="11"' in html
    assert f'name="initiative_{marcus.pk}" min="0" max="99" value=""' in html
    assert "initiative_" not in tracker(client_for("player"), d20_campaign)

    url = reverse("turn_command", args=[d20_campaign.pk])
    data = {"action": "start", "character": [kara.pk, marcus.pk]}
    gm.post(url, {**data, f"initiative_{kara.pk}": "11", f"initiative_{marcus.pk}": "12"})
    order = turns.running_conflict(d20_campaign).participants.values_list("character__name")
    assert [name for (name,) in order] == ["Marcus", "Kara"]


def test_conan_the_interrupt_is_pushed_to_the_gm_only_once_a_player_has_acted(
    d20_campaign, gm, player, kara, lena, marcus
):
    on_line(d20_campaign, "conan", threat=3)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    event = turns.end_turn(d20_campaign.pk, player, kara.pk)
    words = "Pay 1 Doom: Marcus acts before the next player"

    assert words in unescape(live.render_event_fragments(event, "gm"))
    assert 'value="interrupt"' not in live.render_event_fragments(event, "all")


CONTROLS = ('value="interrupt"', 'value="open_round"', 'name="pay"', "initiative_")


def test_the_seeds_2d20_line_offers_none_of_the_lines_paid_turns(
    client_for, d20_campaign, gm, player, kara, lena, marcus
):
    on_line(d20_campaign, "seeds", momentum=4)
    pages = [tracker(client_for("gm"), d20_campaign)]
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    pages.append(tracker(client_for("gm"), d20_campaign))
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    pages.append(tracker(client_for("player2"), d20_campaign))

    assert "Keep the Initiative: Lena" in pages[-1]  # the seeds' keeping, paid in Momentum
    assert not [c for page in pages for c in CONTROLS if c in page]


def test_a_momenta_table_offers_none_of_the_lines_paid_turns(
    client_for, momenta_campaign, gm, hero, sidekick
):
    pages = [tracker(client_for("gm"), momenta_campaign)]
    turns.start_conflict(momenta_campaign.pk, gm, [hero.pk, sidekick.pk])
    pages += [tracker(client_for(who), momenta_campaign) for who in ("gm", "player")]

    assert "Round 1" in pages[1]
    assert not [c for page in pages for c in CONTROLS if c in page]

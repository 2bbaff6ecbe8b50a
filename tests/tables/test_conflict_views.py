"""The turn tracker over HTTP and in the live push (issue 24, SC-01)."""

import pytest
from django.urls import reverse

from tables.live import render as live
from tables.models import Campaign, Character, TableEvent
from tables.services.conflicts import paid, turns

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena(d20_campaign, player2):
    return Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")


@pytest.fixture
def fight(d20_campaign, gm, kara, lena, marcus):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=4, threat=4)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])


def turn_post(client, campaign, **data):
    return client.post(reverse("turn_command", args=[campaign.pk]), data, HTTP_HX_REQUEST="true")


def tracker_of(html: str) -> str:
    return html.split('id="turn-tracker"', 1)[1].split("</section>", 1)[0]


def test_the_gm_starts_a_conflict_from_the_table_page(client_for, d20_campaign, kara, marcus):
    answer = turn_post(
        client_for("gm"), d20_campaign, action="start", character=[kara.pk, marcus.pk]
    )

    assert answer.status_code == 200
    assert "Round 1" in tracker_of(answer.content.decode())
    html = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert "Kara acts" in tracker_of(html)  # the players' side chooses first


def test_the_acting_players_page_says_it_is_their_turn(
    client_for, d20_campaign, fight, player, kara
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    table = reverse("table", args=[d20_campaign.pk])

    mine = tracker_of(client_for("player").get(table).content.decode())
    theirs = tracker_of(client_for("player2").get(table).content.decode())

    assert f'<p class="turn-yours" data-turn-owner="{player.pk}">' in mine
    assert "It is your turn: Kara is acting." in mine
    assert f'<p class="turn-yours" data-turn-owner="{player.pk}" hidden>' in theirs


def test_the_acting_character_is_preselected_in_its_players_composer(
    client_for, d20_campaign, fight, player, player2, kara, lena
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    Character.objects.create(campaign=d20_campaign, owner=player2, name="Aaron")  # first by name

    html = client_for("player2").get(reverse("table", args=[d20_campaign.pk])).content.decode()

    assert f'<option value="{lena.pk}" selected>' in html


def test_an_out_of_turn_command_is_answered_with_a_message_and_changes_nothing(
    client_for, d20_campaign, fight, player, kara, lena
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    before = TableEvent.objects.filter(campaign=d20_campaign).count()

    answer = turn_post(client_for("player2"), d20_campaign, action="end", character=lena.pk)

    assert answer.status_code == 200
    assert "It is not Lena&#x27;s turn" in answer.content.decode()
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


@pytest.mark.parametrize("action", ["", "bogus", "_run", "COMMANDS"])
def test_an_action_no_button_names_is_refused_and_changes_nothing(
    client_for, d20_campaign, fight, kara, action
):
    before = TableEvent.objects.filter(campaign=d20_campaign).count()
    answer = turn_post(client_for("gm"), d20_campaign, action=action, character=kara.pk)
    assert answer.status_code == 400
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


@pytest.mark.parametrize(
    ("action", "done"),
    [("choose", "acting"), ("skip", "skipped"), ("insert", None), ("end_conflict", "ended")],
)
def test_each_button_runs_its_own_command(client_for, d20_campaign, fight, kara, action, done):
    """The table of commands sends each action to its command, and to no other."""
    before = TableEvent.objects.filter(campaign=d20_campaign).latest("seq").seq
    answer = turn_post(client_for("gm"), d20_campaign, action=action, character=kara.pk)
    assert answer.status_code == 200
    events = TableEvent.objects.filter(campaign=d20_campaign, seq__gt=before)
    if done is None:  # Kara already takes part: refused in the tracker, nothing written
        assert not events.exists()
    else:
        assert events.latest("seq").payload["action"] == done


def test_an_observer_may_not_press_anything(client_for, d20_campaign, fight, kara):
    answer = turn_post(client_for("observer"), d20_campaign, action="choose", character=kara.pk)
    assert answer.status_code == 403


def test_sc01_keeping_the_initiative_is_pushed_to_everyone_with_the_pools(
    d20_campaign, fight, player, player2, kara, lena
):
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    event = paid.keep_initiative(d20_campaign.pk, player2, lena.pk)

    for audience in ("gm", "all"):
        html = live.render_event_fragments(event, audience)
        tracker = tracker_of(html)
        assert (
            'hx-swap-oob="true"'
            in html.split('id="turn-tracker"', 1)[0].rsplit("<", 1)[1] + tracker
        )
        assert "Acting: Lena" in tracker
        assert 'id="pools"' in html


def test_the_gm_moves_a_character_up_and_skips_the_acting_one(
    client_for, d20_campaign, fight, player, kara, lena, marcus
):
    gm = client_for("gm")
    turn_post(gm, d20_campaign, action="up", character=marcus.pk)
    conflict = turns.running_conflict(d20_campaign)
    order = list(conflict.participants.values_list("character__name", flat=True))
    assert order == ["Kara", "Marcus", "Lena"]

    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turn_post(gm, d20_campaign, action="skip_acting")

    conflict = turns.running_conflict(d20_campaign)
    assert conflict.acting is None
    assert conflict.participants.get(character=kara).acted
    assert TableEvent.objects.filter(campaign=d20_campaign).latest("seq").payload["action"] == (
        "skipped"
    )


def test_a_momenta_table_shows_the_gms_order(client_for, momenta_campaign, gm, hero, sidekick):
    turns.start_conflict(momenta_campaign.pk, gm, [sidekick.pk, hero.pk])

    html = client_for("player").get(reverse("table", args=[momenta_campaign.pk])).content.decode()

    tracker = tracker_of(html)
    assert f"Acting: {sidekick.name}" in tracker and "The GM&#x27;s order" in tracker


def test_a_player_may_not_start_a_conflict_said_in_the_page_or_a_403_and_nothing_starts(
    client_for, d20_campaign, kara, marcus
):
    """The command views' refusals (views/answers.run_command): htmx gets the message in
    the tracker, a plain POST a 403; either way no conflict starts."""
    url = reverse("turn_command", args=[d20_campaign.pk])
    data = {"action": "start", "character": [kara.pk, marcus.pk]}
    before = TableEvent.objects.filter(campaign=d20_campaign).count()

    htmx = client_for("player").post(url, data, HTTP_HX_REQUEST="true")
    plain = client_for("player").post(url, data)

    assert htmx.status_code == 200
    assert "Only the GM can do that." in htmx.content.decode()
    assert plain.status_code == 403
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


# --- Issue 37: the order as ticked, Move down, a dropped order --------------------------------


def names_in_order(campaign):
    conflict = turns.running_conflict(campaign)
    return list(conflict.participants.values_list("character__name", flat=True))


def test_the_conflict_starts_in_the_order_the_characters_are_sent(
    client_for, d20_campaign, kara, lena, marcus
):
    """The start form's checkboxes arrive in the order ticked (turn_order.js keeps the
    list so), not the page's: the server keeps that order."""
    turn_post(
        client_for("gm"), d20_campaign, action="start", character=[lena.pk, marcus.pk, kara.pk]
    )
    assert names_in_order(d20_campaign) == ["Lena", "Marcus", "Kara"]


def test_the_start_form_numbers_its_rows_and_says_how_the_order_is_taken(
    client_for, d20_campaign, kara, marcus
):
    html = tracker_of(
        client_for("gm").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    )
    assert 'data-turn-order="start"' in html
    assert "Tick them in the order they act (without JavaScript, in the list's order)." in html
    for pk in (kara.pk, marcus.pk):
        assert f'id="turn-start-up-{pk}"' in html and f'id="turn-start-down-{pk}"' in html


def test_the_gm_moves_one_down_and_the_last_one_down_is_refused(
    client_for, d20_campaign, fight, kara, lena, marcus
):
    gm = client_for("gm")
    answer = turn_post(gm, d20_campaign, action="down", character=kara.pk)
    assert names_in_order(d20_campaign) == ["Lena", "Kara", "Marcus"]
    # The moved row's button is there again by its id: focus.js puts the focus back on it.
    assert f'id="turn-down-{kara.pk}"' in tracker_of(answer.content.decode())

    before = TableEvent.objects.filter(campaign=d20_campaign).count()
    answer = turn_post(gm, d20_campaign, action="down", character=marcus.pk)
    assert "The conflict is already in that order." in answer.content.decode()
    assert names_in_order(d20_campaign) == ["Lena", "Kara", "Marcus"]
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


def test_move_up_and_down_skip_past_who_has_acted(
    client_for, d20_campaign, fight, player, kara, lena, marcus
):
    """The buttons move a row within "Still to act": one press, one visible step."""
    turn_post(client_for("gm"), d20_campaign, action="up", character=marcus.pk)  # K M L
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    gm = client_for("gm")
    turn_post(gm, d20_campaign, action="down", character=marcus.pk)
    assert names_in_order(d20_campaign) == ["Kara", "Lena", "Marcus"]
    turn_post(gm, d20_campaign, action="up", character=marcus.pk)
    assert names_in_order(d20_campaign) == ["Kara", "Marcus", "Lena"]


def test_the_gm_posts_a_dropped_order_of_those_still_to_act(
    client_for, d20_campaign, fight, kara, lena, marcus
):
    answer = turn_post(
        client_for("gm"), d20_campaign, action="order", character=[marcus.pk, kara.pk, lena.pk]
    )
    assert answer.status_code == 200
    assert names_in_order(d20_campaign) == ["Marcus", "Kara", "Lena"]


def test_a_dropped_order_that_is_not_everyone_to_act_is_refused_and_changes_nothing(
    client_for, d20_campaign, fight, kara, lena, marcus
):
    url = reverse("turn_command", args=[d20_campaign.pk])
    data = {"action": "order", "character": [marcus.pk, kara.pk]}
    before = TableEvent.objects.filter(campaign=d20_campaign).count()

    htmx = client_for("gm").post(url, data, HTTP_HX_REQUEST="true")

    assert "Give the new order with everyone still to act once" in htmx.content.decode()
    assert names_in_order(d20_campaign) == ["Kara", "Lena", "Marcus"]
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


@pytest.mark.parametrize(
    "data",
    [
        {"action": "down", "character": "KARA"},
        {"action": "up", "character": "MARCUS"},
        {"action": "order", "character": ["MARCUS", "LENA", "KARA"]},
    ],
)
def test_a_player_may_not_reorder_said_in_the_page_or_a_403_and_nothing_moves(
    client_for, d20_campaign, fight, kara, lena, marcus, data
):
    ids = {"KARA": kara.pk, "LENA": lena.pk, "MARCUS": marcus.pk}
    value = data["character"]
    data = {
        **data,
        "character": [ids[v] for v in value] if isinstance(value, list) else ids[value],
    }
    url = reverse("turn_command", args=[d20_campaign.pk])
    before = TableEvent.objects.filter(campaign=d20_campaign).count()

    htmx = client_for("player").post(url, data, HTTP_HX_REQUEST="true")
    plain = client_for("player").post(url, data)

    assert "Only the GM can do that." in htmx.content.decode()
    assert plain.status_code == 403
    assert names_in_order(d20_campaign) == ["Kara", "Lena", "Marcus"]
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == before


def test_only_the_gms_tracker_has_the_reordering_controls(client_for, d20_campaign, fight):
    page = reverse("table", args=[d20_campaign.pk])
    gm = tracker_of(client_for("gm").get(page).content.decode())
    player = tracker_of(client_for("player").get(page).content.decode())
    assert 'draggable="true"' in gm and 'class="turn-order"' in gm and 'value="down"' in gm
    assert 'draggable="true"' not in player and 'class="turn-order"' not in player
    assert 'value="down"' not in player

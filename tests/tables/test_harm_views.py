"""Harm tracks and extended tasks on the table page and in pushes (SC-02, SC-03): the
target's numbers reach everyone at once, hidden NPC harm the GMs only, the task card the
scene board; a roll with no target or task pushes nothing of theirs."""

import pytest
from django.urls import reverse

from rules import harm as rules_harm
from rules.dice import FixedDice
from tables.live import render as live
from tables.presenters.table import ALL
from tables.services import d20 as services_d20
from tables.services import extended_tasks, harm, sessions
from tables.templatetags.harm import LABELS

pytestmark = pytest.mark.django_db


def page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


@pytest.fixture
def sta(d20_campaign, gm, kara, marcus):
    d20_campaign.game_line = "sta1"
    d20_campaign.save(update_fields=["game_line"])
    sessions.start_scene(d20_campaign.pk, gm, "Bridge")
    for who, hidden in ((kara, False), (marcus, True)):
        harm.set_track(d20_campaign.pk, gm, who.pk, "stress", 8, hidden=hidden)
        harm.set_track(d20_campaign.pk, gm, who.pk, "injuries", 2, hidden=hidden)
    return d20_campaign


def passed_test(campaign, player, kara):
    request = services_d20.D20TestRequest(attribute="Power", skill="Communicate")
    return services_d20.roll_d20_test(campaign.pk, player, kara.pk, request, rng=FixedDice([3, 4]))


def test_every_track_of_every_line_has_a_translated_label():
    keys = {k.key for kinds in rules_harm.LINE_TRACKS.values() for k in kinds}
    assert keys == set(LABELS)


def test_sc_02_the_page_shows_tracks_and_hidden_npc_tracks_to_gms_only(
    client_for, sta, kara, marcus
):
    player_page = page(client_for("player"), sta)
    assert f'id="harm-{kara.pk}-stress"' in player_page
    assert f'id="harm-{marcus.pk}-stress"' not in player_page
    assert f'id="harm-{marcus.pk}-stress"' in page(client_for("gm"), sta)


def character_boxes(html: str) -> dict[str, list[str]]:
    """Each character box's (.character) ids, in order: what the reader sees as one card."""
    from html.parser import HTMLParser

    boxes: dict[str, list[str]] = {}

    class Boxes(HTMLParser):
        depth, current = 0, None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if self.current is not None and tag == "div":
                self.depth += 1
            if tag == "div" and "character" in (attrs.get("class") or "").split():
                self.current, self.depth = [], 1
            elif self.current is not None and attrs.get("id"):
                self.current.append(attrs["id"])

        def handle_endtag(self, tag):
            if self.current is not None and tag == "div":
                self.depth -= 1
                if self.depth == 0:
                    boxes[self.current[0]] = self.current
                    self.current = None

    Boxes().feed(html)
    return boxes


def test_issue_37_each_characters_tracks_are_inside_its_card(client_for, sta, kara, marcus):
    boxes = character_boxes(page(client_for("gm"), sta))
    for who in (kara, marcus):
        ids = boxes[f"character-{who.pk}"]
        assert f"harm-{who.pk}" in ids and f"harm-{who.pk}-stress" in ids, ids
    # And only its own: no other character's numbers in the box.
    assert not [i for i in boxes[f"character-{kara.pk}"] if i.startswith(f"harm-{marcus.pk}")]


def test_issue_37_a_rolls_card_push_leaves_the_tracks_in_the_box_alone(sta, player, kara):
    """The card a roll pushes is the inner one: the box, and its tracks, stay."""
    test = passed_test(sta, player, kara)
    push = live.render_event_fragments(test.event, ALL)
    assert f'id="character-{kara.pk}"' in push
    assert 'class="character"' not in push and "harm-tracks" not in push


def test_sc_02_a_hit_pushes_the_targets_numbers_to_everyone(sta, gm, player, kara, marcus):
    test = passed_test(sta, player, kara)
    event = harm.apply_d20_hit(sta.pk, gm, test.pk, kara.pk, track="stress", total=5)
    push = live.render_event_fragments(event, ALL)
    assert f'id="harm-{kara.pk}-stress" class="harm-value" hx-swap-oob="true"' in push
    assert 'value="5"' in push
    assert f'id="harm-{kara.pk}-injuries"' in push  # 5+: an Injury (STA 1e)


def test_sc_02_a_hidden_npcs_harm_never_reaches_players(sta, gm, player, kara, marcus):
    test = passed_test(sta, player, kara)
    event = harm.apply_d20_hit(sta.pk, gm, test.pk, marcus.pk, track="stress", total=3)
    assert event.audience == "gm"
    assert not live.visible(event, ALL, None)


def test_a_roll_without_a_target_or_task_pushes_no_harm_or_task(sta, player, kara):
    test = passed_test(sta, player, kara)
    push = live.render_event_fragments(test.event, ALL)
    assert "harm-" not in push and "board-task" not in push


def test_sc_03_the_task_card_on_the_board_shows_progress_live(client_for, sta, gm, player, kara):
    made = extended_tasks.create_task(sta.pk, gm, "Realign the deflector", work=6, magnitude=1)
    push = live.render_event_fragments(made, ALL)
    assert "Realign the deflector" in push and 'value="0"' in push
    assert "Realign the deflector" in page(client_for("observer"), sta)
    from tables.services import game_lines

    dice = game_lines.roll_challenge_dice(
        sta.pk, player, 3, character_id=kara.pk, rng=FixedDice([2, 2, 1])
    )
    test = passed_test(sta, player, kara)
    linked = extended_tasks.link_roll(
        sta.pk, player, made.payload["task_id"], test.pk, challenge_seq=dice.seq
    )
    push = live.render_event_fragments(linked, ALL)
    assert 'value="5"' in push and "complete" in push


# --- The commands over HTTP -----------------------------------------------------------------


def post(client, campaign, url_name, **data):
    return client.post(reverse(url_name, args=[campaign.pk]), data, HTTP_HX_REQUEST="true")


def state(campaign):
    from tables.models import ExtendedTask, HarmTrack, TableEvent

    return (
        TableEvent.objects.filter(campaign=campaign).count(),
        list(HarmTrack.objects.values_list("character_id", "track", "taken", "maximum")),
        list(ExtendedTask.objects.values_list("progress", "breakthroughs")),
    )


@pytest.mark.parametrize("who,status", [("player", 403), ("observer", 403), ("outsider", 403)])
def test_sc_02_only_gms_use_the_harm_command(client_for, sta, kara, who, status):
    before = state(sta)
    data = {"action": "recover", "character": kara.pk, "track": "stress", "amount": 1}
    response = post(client_for(who), sta, "harm_command", **data, reason="Rest")
    assert response.status_code == status
    assert state(sta) == before


def test_sc_02_the_gm_applies_a_hit_over_http_and_everyone_gets_the_numbers(
    client_for, sta, player, kara
):
    test = passed_test(sta, player, kara)
    data = {"action": "d20_hit", "test": test.pk, "target": kara.pk, "track": "stress"}
    response = post(client_for("gm"), sta, "harm_command", **data, total=3, soak=1)
    html = response.content.decode()
    assert response.status_code == 200 and 'role="status"' in html
    assert f'id="harm-{kara.pk}-stress"' in html and 'value="2"' in html


@pytest.mark.parametrize(
    "data",
    [
        {"action": "d20_hit", "test": "x", "target": 1, "track": "stress", "total": 3},
        {"action": "set_track", "character": 1, "track": "stress", "maximum": "lots"},
        {"action": "nonsense"},
    ],
)
def test_sc_02_bad_numbers_are_a_400_and_change_nothing(client_for, sta, data):
    before = state(sta)
    assert post(client_for("gm"), sta, "harm_command", **data).status_code == 400
    assert state(sta) == before


def test_sc_02_another_campaigns_character_is_refused_with_a_message(
    client_for, sta, hero, player, kara
):
    test = passed_test(sta, player, kara)
    before = state(sta)
    data = {"action": "d20_hit", "test": test.pk, "target": hero.pk, "track": "stress"}
    response = post(client_for("gm"), sta, "harm_command", **data, total=3)
    assert 'role="alert"' in response.content.decode()
    assert "not in this campaign" in response.content.decode()
    assert state(sta) == before


def test_sc_03_tasks_over_http_gm_creates_players_link_observers_refused(
    client_for, sta, player, kara
):
    response = post(
        client_for("gm"), sta, "task_command", action="create", name="Scan", work=5, magnitude=1
    )
    assert response.status_code == 200 and "Scan" in response.content.decode()
    from tables.models import ExtendedTask

    task = ExtendedTask.objects.get()
    before = state(sta)
    refused = post(client_for("player"), sta, "task_command", action="create", name="M", work=5)
    assert "GM" in refused.content.decode() and state(sta) == before
    test = passed_test(sta, player, kara)
    before = state(sta)
    data = {"action": "link", "task": task.pk, "test": test.pk}
    assert post(client_for("observer"), sta, "task_command", **data).status_code == 403
    assert (
        post(client_for("player"), sta, "task_command", **data, challenge_seq="x").status_code
        == 400
    )
    assert state(sta) == before


def test_sc_02_the_gms_board_form_applies_a_roll_by_its_log_number(client_for, sta, player, kara):
    assert 'name="roll_seq"' in page(client_for("gm"), sta)
    assert 'name="roll_seq"' not in page(client_for("player"), sta)
    test = passed_test(sta, player, kara)
    data = {"action": "hit", "roll_seq": test.event.seq, "character": kara.pk, "track": "stress"}
    response = post(client_for("gm"), sta, "harm_command", **data, amount=6)
    assert 'value="6"' in response.content.decode()
    before = state(sta)
    note = post(client_for("gm"), sta, "harm_command", **data | {"roll_seq": 1}, amount=2)
    assert "is not a roll" in note.content.decode() and state(sta) == before


def test_sc_03_a_player_links_a_test_by_its_log_number_on_the_board(
    client_for, sta, gm, player, kara
):
    from tables.services import game_lines

    made = extended_tasks.create_task(sta.pk, gm, "Scan", work=6, magnitude=1)
    dice = game_lines.roll_challenge_dice(
        sta.pk, player, 2, character_id=kara.pk, rng=FixedDice([2, 1])
    )
    test = passed_test(sta, player, kara)
    data = {"action": "link", "task": made.payload["task_id"], "test_seq": test.event.seq}
    response = post(client_for("player"), sta, "task_command", **data, challenge_seq=dice.seq)
    assert 'value="3"' in response.content.decode()
    before = state(sta)
    wrong = post(client_for("player"), sta, "task_command", **data | {"test_seq": dice.seq})
    assert "is not a roll" in wrong.content.decode() and state(sta) == before


def test_sc_03_count_my_last_test_on_the_board_htmx_and_without(client_for, sta, gm, player, kara):
    """The board's "Count my last test" posts the task alone; the server finds the test
    and the Challenge dice after it. None to count: the message, nothing changes."""
    from tables.services import game_lines

    made = extended_tasks.create_task(sta.pk, gm, "Scan", work=9, magnitude=1)
    task = made.payload["task_id"]
    board = page(client_for("player"), sta).split('id="scene-board"')[1]
    assert 'name="action" value="link_last"' in board and "Count my last test" in board
    assert "Another test, by its number" in board and 'name="test_seq"' in board
    before = state(sta)
    none = post(client_for("player"), sta, "task_command", action="link_last", task=task)
    assert "You have no test to count yet." in none.content.decode() and state(sta) == before
    test = passed_test(sta, player, kara)
    services_d20.resolve_test(sta.pk, player, test.pk)
    game_lines.roll_challenge_dice(sta.pk, player, 2, character_id=kara.pk, rng=FixedDice([2, 1]))
    response = post(client_for("player"), sta, "task_command", action="link_last", task=task)
    assert 'value="3"' in response.content.decode()
    url = reverse("task_command", args=[sta.pk])
    plain = client_for("player").post(url, {"action": "link_last", "task": task}, follow=True)
    assert "You have no test to count yet." in plain.content.decode()
    assert state(sta)[2] == [(3, 0)]
    services_d20.resolve_test(sta.pk, player, passed_test(sta, player, kara).pk)
    game_lines.roll_challenge_dice(sta.pk, player, 1, character_id=kara.pk, rng=FixedDice([2]))
    plain = client_for("player").post(url, {"action": "link_last", "task": task})
    assert plain.status_code == 302 and state(sta)[2] == [(5, 0)]


def offers(html: str) -> str:
    """The "Count toward" block of the page's (first) resolved test card, else ""."""
    return (
        html.split('class="d20-task-offers"', 1)[1].split("</div>", 1)[0]
        if ('class="d20-task-offers"' in html)
        else ""
    )


def test_sc_03_a_resolved_tests_card_offers_its_roller_the_open_tasks(
    client_for, sta, gm, player, player2, kara
):
    """The card is drawn per audience: the players' copy carries the owner's id and is
    hidden but on the owner's own page; the GM's is shown. A linked test, or a closed
    task, is not offered. Another player's post is refused and changes nothing."""
    from tables.services import game_lines

    task = extended_tasks.create_task(sta.pk, gm, "Scan", work=9, magnitude=1).payload["task_id"]
    test = passed_test(sta, player, kara)
    assert offers(page(client_for("player"), sta)) == ""  # still open: nothing to count
    resolved = services_d20.resolve_test(sta.pk, player, test.pk)
    mine = offers(page(client_for("player"), sta))
    assert f'data-owner="{kara.owner_id}"' in mine and "hidden" not in mine.split(">")[0]
    assert f'name="test" value="{test.pk}"' in mine and "Count toward Scan" in mine
    log = client_for("player").get(reverse("table_log", args=[sta.pk]), HTTP_HX_REQUEST="true")
    assert "Count toward Scan" in offers(log.content.decode())  # the log's filter view too
    theirs = offers(page(client_for("player2"), sta))
    assert f'data-owner="{kara.owner_id}"' in theirs and "hidden" in theirs.split(">")[0]
    assert "data-owner" not in offers(page(client_for("gm"), sta))
    pushed = offers(live.render_event_fragments(resolved, ALL))
    assert "hidden" in pushed.split(">")[0]  # shown by task_offers.js to its owner only
    game_lines.roll_challenge_dice(sta.pk, player, 2, character_id=kara.pk, rng=FixedDice([2, 2]))
    data = {"action": "link", "task": task, "test": test.pk, "pick_challenge": "1"}
    before = state(sta)
    refused = post(client_for("player2"), sta, "task_command", **data)
    assert "Only the roller" in refused.content.decode() and state(sta) == before
    plain = client_for("player2").post(reverse("task_command", args=[sta.pk]), data)
    assert plain.status_code == 403 and state(sta) == before
    response = post(client_for("player"), sta, "task_command", **data)
    assert 'value="4"' in response.content.decode()  # the Challenge dice after it: 4 Work
    assert offers(page(client_for("player"), sta)) == ""  # counted: not offered again
    # Pages drawn before drop it: the link's push deletes the test's offers (no query).
    assert f"delete:[data-task-offers='{test.pk}']" in response.content.decode()
    last = passed_test(sta, player, kara)
    game_lines.roll_challenge_dice(
        sta.pk, player, 3, character_id=kara.pk, rng=FixedDice([2, 2, 1])
    )  # 5: a Breakthrough, the task's one
    done = extended_tasks.link_test(sta.pk, player, task, last.pk)
    assert done.payload["closed"]  # and its buttons go from every card
    assert f"delete:[data-offer-task='{task}']" in live.render_event_fragments(done, ALL)

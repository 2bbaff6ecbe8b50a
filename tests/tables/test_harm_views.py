"""Harm tracks and extended tasks on the table page and in pushes (SC-02, SC-03): the
target's numbers reach everyone at once, hidden NPC harm the GMs only, the task card the
scene board; a roll with no target or task pushes nothing of theirs."""

import pytest
from django.urls import reverse

from rules import harm as rules_harm
from rules.dice import FixedDice
from tables.live import render as live
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


def test_sc_02_a_hit_pushes_the_targets_numbers_to_everyone(sta, gm, player, kara, marcus):
    test = passed_test(sta, player, kara)
    event = harm.apply_d20_hit(sta.pk, gm, test.pk, kara.pk, track="stress", total=5)
    push = live.render_event_fragments(event, live.ALL)
    assert f'id="harm-{kara.pk}-stress" class="harm-value" hx-swap-oob="true"' in push
    assert 'value="5"' in push
    assert f'id="harm-{kara.pk}-injuries"' in push  # 5+: an Injury (STA 1e)


def test_sc_02_a_hidden_npcs_harm_never_reaches_players(sta, gm, player, kara, marcus):
    test = passed_test(sta, player, kara)
    event = harm.apply_d20_hit(sta.pk, gm, test.pk, marcus.pk, track="stress", total=3)
    assert event.audience == "gm"
    assert not live.visible(event, live.ALL)


def test_a_roll_without_a_target_or_task_pushes_no_harm_or_task(sta, player, kara):
    test = passed_test(sta, player, kara)
    push = live.render_event_fragments(test.event, live.ALL)
    assert "harm-" not in push and "board-task" not in push


def test_sc_03_the_task_card_on_the_board_shows_progress_live(client_for, sta, gm, player, kara):
    made = extended_tasks.create_task(sta.pk, gm, "Realign the deflector", work=6, magnitude=1)
    push = live.render_event_fragments(made, live.ALL)
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
    push = live.render_event_fragments(linked, live.ALL)
    assert 'value="5"' in push and "complete" in push

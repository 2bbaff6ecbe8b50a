"""Each line's turn order and Keep the Initiative through the services (issue 36: SC-04,
SC-05, SC-01a/b as settings). Kara and Lena (players) against Marcus (the GM's NPC)."""

import pytest
from django.core.exceptions import PermissionDenied

from tables.models import Campaign, Character, Conflict, PoolChange, TableEvent
from tables.policy.turns import may_buy, next_side
from tables.services.conflicts import paid, turns
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena(d20_campaign, player2):
    return Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")


def on_line(campaign, line, momentum=0, threat=4, **settings):
    Campaign.objects.filter(pk=campaign.pk).update(
        game_line=line, group_momentum=momentum, threat=threat, **settings
    )
    campaign.refresh_from_db()


def acting(campaign):
    conflict = turns.running_conflict(campaign)
    return conflict.acting.character.name if conflict.acting else None


def pools(campaign):
    campaign.refresh_from_db()
    return campaign.group_momentum, campaign.threat


def counts(campaign):
    return TableEvent.objects.filter(campaign=campaign).count(), PoolChange.objects.count()


def test_sc04_conan_quickstart_the_players_all_act_first_in_any_order(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    on_line(d20_campaign, "conan")
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    assert turns.running_conflict(d20_campaign).mode == Conflict.Mode.FIRST
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    # Today: "It is the GM's side's turn"; in Conan the second player acts next.
    turns.choose_next(d20_campaign.pk, player2, lena.pk)
    assert acting(d20_campaign) == "Lena"
    turns.end_turn(d20_campaign.pk, player2, lena.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    assert acting(d20_campaign) == "Marcus"


def test_sc04_conan_quickstart_the_gm_pays_doom_for_an_npc_to_act_before_a_player(
    d20_campaign, gm, player, kara, lena, marcus
):
    on_line(d20_campaign, "conan", threat=3)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    with pytest.raises(ServiceError):
        turns.choose_next(d20_campaign.pk, gm, marcus.pk)  # not without paying
    event = paid.interrupt(d20_campaign.pk, gm, marcus.pk)
    assert acting(d20_campaign) == "Marcus"
    assert pools(d20_campaign) == (0, 2)  # ruling SC-R13: 1 Doom
    assert event.payload["changes"][0]["pool"] == "threat"


def test_sc04_an_interrupt_the_gm_cannot_pay_changes_nothing(d20_campaign, gm, kara, lena, marcus):
    on_line(d20_campaign, "conan", threat=0)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    before = counts(d20_campaign)
    with pytest.raises(ServiceError, match="not enough"):
        paid.interrupt(d20_campaign.pk, gm, marcus.pk)
    assert counts(d20_campaign) == before and acting(d20_campaign) is None


def test_sc04_only_the_gm_interrupts(d20_campaign, gm, player, kara, marcus):
    on_line(d20_campaign, "conan")
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    with pytest.raises(PermissionDenied):
        paid.interrupt(d20_campaign.pk, player, marcus.pk)
    assert pools(d20_campaign) == (0, 4)


def test_sc04_fallout_core_combat_turns_go_by_initiative_highest_first(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    on_line(d20_campaign, "fallout")
    kara.attributes.create(name="PER", value=5)
    kara.attributes.create(name="AGI", value=4)  # Initiative 9 from the sheet
    turns.start_conflict(
        d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk], {lena.pk: "3", marcus.pk: "11"}
    )
    conflict = turns.running_conflict(d20_campaign)
    order = list(conflict.participants.values_list("character__name", "initiative"))
    assert order == [("Marcus", 11), ("Kara", 9), ("Lena", 3)]
    with pytest.raises(ServiceError, match="By Initiative"):
        turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    assert acting(d20_campaign) == "Kara"


def test_sc04_fallout_core_combat_the_gm_pays_action_points_for_an_npc_out_of_order(
    d20_campaign, gm, kara, marcus
):
    on_line(d20_campaign, "fallout", threat=5)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk], {kara.pk: 8, marcus.pk: 2})
    paid.interrupt(d20_campaign.pk, gm, marcus.pk)
    assert acting(d20_campaign) == "Marcus"
    assert pools(d20_campaign) == (0, 3)  # ruling SC-R14: 2 AP


def test_sc04_a_bad_initiative_refuses_the_start(d20_campaign, gm, kara, marcus):
    on_line(d20_campaign, "fallout")
    before = counts(d20_campaign)
    with pytest.raises(ServiceError, match="Initiative"):
        turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk], {kara.pk: "fast"})
    assert counts(d20_campaign) == before and turns.running_conflict(d20_campaign) is None


def _players_acted(campaign, gm, player, kara, lena, marcus):
    turns.start_conflict(campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    turns.choose_next(campaign.pk, player, kara.pk)
    turns.end_turn(campaign.pk, player, kara.pk)


@pytest.mark.parametrize("line", ["sta1", "sta2"])
def test_sc05_sta_dev_blog_006_keep_the_initiative_by_adding_two_threat(
    d20_campaign, gm, player, player2, kara, lena, marcus, line
):
    on_line(d20_campaign, line, momentum=1, threat=4)
    _players_acted(d20_campaign, gm, player, kara, lena, marcus)
    # Today: refused under 2 Momentum. STA: 2 added to Threat instead.
    with pytest.raises(ServiceError, match="add 2 to Threat instead"):
        paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk, pay="add_threat")
    assert acting(d20_campaign) == "Lena"
    assert pools(d20_campaign) == (1, 6)


def test_sc05_other_lines_do_not_keep_by_adding_threat(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    on_line(d20_campaign, "seeds", momentum=4)
    _players_acted(d20_campaign, gm, player, kara, lena, marcus)
    before = counts(d20_campaign)
    with pytest.raises(ServiceError, match="cannot add"):
        paid.keep_initiative(d20_campaign.pk, player2, lena.pk, pay="add_threat")
    assert counts(d20_campaign) == before and pools(d20_campaign) == (4, 4)


def test_sc05_the_campaign_sets_what_keeping_costs(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    on_line(d20_campaign, "seeds", momentum=4, keep_initiative_cost=3)
    _players_acted(d20_campaign, gm, player, kara, lena, marcus)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    assert pools(d20_campaign) == (1, 4)


def test_sc01a_setting_off_a_side_may_keep_twice_in_a_row(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    on_line(d20_campaign, "seeds", momentum=6, keep_once_in_a_row=False)
    third = Character.objects.create(campaign=d20_campaign, owner=player2, name="Ode")
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, third.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    turns.end_turn(d20_campaign.pk, player2, lena.pk)
    paid.keep_initiative(d20_campaign.pk, player2, third.pk)
    assert acting(d20_campaign) == "Ode" and pools(d20_campaign) == (2, 4)


def test_sc01b_setting_on_the_players_open_every_round(d20_campaign, gm, player, kara, marcus):
    on_line(d20_campaign, "seeds", players_open_each_round=True)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)  # the GM took round 1's last turn
    conflict = turns.running_conflict(d20_campaign)
    assert conflict.round == 2 and next_side(d20_campaign, conflict) == "players"
    # ... and by default the players, who did not take it, would too; so end round 2 on them
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    turns.choose_next(d20_campaign.pk, gm, marcus.pk)
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    assert next_side(d20_campaign, turns.running_conflict(d20_campaign)) == "players"


@pytest.mark.parametrize("line", ["sta1", "sta2"])
def test_sc04_sta_dev_blog_006_the_gm_spends_threat_for_an_npc_to_open_the_round(
    d20_campaign, gm, player, kara, marcus, line
):
    on_line(d20_campaign, line, threat=3)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    paid.gm_opens_round(d20_campaign.pk, gm, marcus.pk)  # today: the players always open
    assert acting(d20_campaign) == "Marcus"
    assert pools(d20_campaign) == (0, 1)  # ruling SC-R12: 2 Threat
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    with pytest.raises(ServiceError):  # not once anyone has acted this round... new round:
        paid.gm_opens_round(d20_campaign.pk, gm, marcus.pk)  # round 2: the GM opens anyway


def test_sc04_only_sta_buys_the_first_turn(d20_campaign, gm, kara, marcus):
    on_line(d20_campaign, "seeds")
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, marcus.pk])
    before = counts(d20_campaign)
    with pytest.raises(ServiceError):
        paid.gm_opens_round(d20_campaign.pk, gm, marcus.pk)
    assert counts(d20_campaign) == before


def test_sc04_sc01a_sta_after_the_gms_last_turn_an_npc_opening_is_keeping_the_initiative(
    d20_campaign, gm, player, player2, kara, lena, marcus
):
    """STA dev blog 006: the GM buys an NPC the first turn of a round the players would
    open; when the GM's side took the last turn (round 1's), an NPC acting next is Keeping
    the Initiative, at most once in a row (SC-01a), so the opening is not sold on top."""
    on_line(d20_campaign, "sta2", threat=6)
    kor = Character.objects.create(campaign=d20_campaign, owner=gm, name="Kor", is_npc=True)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk, kor.pk])
    for actor, who in ((player, kara), (gm, marcus), (player2, lena), (gm, kor)):
        turns.choose_next(d20_campaign.pk, actor, who.pk)
        turns.end_turn(d20_campaign.pk, actor, who.pk)
    conflict = turns.running_conflict(d20_campaign)
    assert conflict.round == 2 and conflict.last_side == "gm"
    assert may_buy(d20_campaign, conflict) == {}
    before = counts(d20_campaign)
    with pytest.raises(ServiceError, match="keep the initiative"):
        paid.gm_opens_round(d20_campaign.pk, gm, marcus.pk)
    assert counts(d20_campaign) == before and acting(d20_campaign) is None

    paid.keep_initiative(d20_campaign.pk, gm, marcus.pk)  # the way it is bought, once
    turns.end_turn(d20_campaign.pk, gm, marcus.pk)
    with pytest.raises(ServiceError):
        paid.keep_initiative(d20_campaign.pk, gm, kor.pk)
    assert next_side(d20_campaign, turns.running_conflict(d20_campaign)) == "players"

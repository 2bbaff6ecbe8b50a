"""Tests the GM calls for (issue 15): services, secrecy of a hidden Difficulty, permissions,
bad input, and the views a player answers through. Faces are chosen (FixedDice)."""

import re
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import render as live
from tables.models import CalledTest, Character, D20Test, MomentaRoll, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import calls
from tables.services.core import ServiceError
from tables.services.d20 import D20TestRequest
from tables.services.momenta import SITUATIONAL
from tests.tables.d20_posts import roll_data

HX = {"HTTP_HX_REQUEST": "true"}


def head(campaign):
    campaign.refresh_from_db()
    return campaign.last_seq


def text(response) -> str:
    return unescape(response.content.decode())


@pytest.fixture
def vel(d20_campaign, player2):
    character = Character.objects.create(campaign=d20_campaign, owner=player2, name="Vel")
    character.attributes.create(name="Power", value=6)
    character.skills.create(name="Communicate", value=2)
    return character


@pytest.fixture
def dice(d20_faces):
    """dice([faces…]): the next d20s the server rolls show these faces."""
    return d20_faces


def call_kara(campaign, gm, kara, **kw):
    params = {"attribute": "Power", "skill": "Communicate", "difficulty": 2} | kw
    return calls.call_test(campaign.pk, gm, character_id=kara.pk, **params)


# --- 2d20: calling and answering ------------------------------------------------------------


def test_t_r2_a_called_test_is_judged_against_the_gms_difficulty(d20_campaign, gm, player, kara):
    """T-R2: Kara rolls 3 and 15 against target 13: one success; the GM's Difficulty 2 fails
    her, whatever Difficulty the composer would have said."""
    call = call_kara(d20_campaign, gm, kara, difficulty=2)
    before = head(d20_campaign)
    test, event = calls.answer_d20_call(
        d20_campaign.pk,
        player,
        call.pk,
        kara.pk,
        D20TestRequest("Power", "Communicate", difficulty=0),
        rng=FixedDice([3, 15]),
    )
    assert (test.result["successes"], test.result["difficulty"], test.result["passed"]) == (
        1,
        2,
        False,
    )
    call.refresh_from_db()
    assert (call.state, call.d20_test_id, call.answered_by_id) == ("answered", test.pk, kara.pk)
    kinds = list(
        TableEvent.objects.filter(campaign=d20_campaign, seq__gt=before)
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds == ["d20_test", "call_answered"]
    assert event.payload["test_id"] == test.pk and event.payload["difficulty"] == 2


def test_a_called_tests_focus_and_complication_range_apply(d20_campaign, gm, player, kara):
    """T-R1: the call's focus makes a 5 score 2; its complication range 2 makes a 19 one."""
    call = call_kara(d20_campaign, gm, kara, focus="persuasion", complication_range=2)
    assert call.focus == "Persuasion"  # the sheet's own name
    test, _ = calls.answer_d20_call(
        d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([5, 19])
    )
    assert test.result["successes"] == 2
    assert test.result["complications"] == 1
    assert test.spec["complication_range"] == 2


def test_a_call_answered_once_is_closed(d20_campaign, gm, player, kara):
    call = call_kara(d20_campaign, gm, kara)
    calls.answer_d20_call(d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 1]))
    before = (head(d20_campaign), D20Test.objects.count())
    with pytest.raises(ServiceError, match="answered already \\(by Kara\\)"):
        calls.answer_d20_call(d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 1]))
    assert (head(d20_campaign), D20Test.objects.count()) == before


def test_a_call_for_everyone_is_answered_by_the_first_character(
    d20_campaign, gm, player, player2, kara, vel
):
    call = calls.call_test(
        d20_campaign.pk, gm, character_id=None, attribute="Power", skill="Communicate", difficulty=1
    )
    test, _ = calls.answer_d20_call(
        d20_campaign.pk, player2, call.pk, vel.pk, rng=FixedDice([2, 2])
    )
    assert test.character == vel
    with pytest.raises(ServiceError, match="answered already"):
        calls.answer_d20_call(d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([2, 2]))


def test_only_the_called_characters_controller_answers(d20_campaign, gm, player2, kara, vel):
    call = call_kara(d20_campaign, gm, kara)
    before = head(d20_campaign)
    with pytest.raises(ServiceError, match="This call is for Kara"):
        calls.answer_d20_call(d20_campaign.pk, player2, call.pk, vel.pk, rng=FixedDice([1, 1]))
    with pytest.raises(PermissionDenied):
        calls.answer_d20_call(d20_campaign.pk, player2, call.pk, kara.pk, rng=FixedDice([1, 1]))
    assert head(d20_campaign) == before
    call.refresh_from_db()
    assert call.is_open


def test_the_gm_withdraws_a_call_and_it_cannot_be_answered(d20_campaign, gm, player, kara):
    call = call_kara(d20_campaign, gm, kara, difficulty=4, hidden=True)
    event = calls.cancel_call(d20_campaign.pk, gm, call.pk)
    assert event.kind == "call_cancelled" and "4" not in event.payload["summary"]
    with pytest.raises(ServiceError, match="withdrew"):
        calls.answer_d20_call(d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 1]))
    with pytest.raises(ServiceError, match="withdrew"):
        calls.cancel_call(d20_campaign.pk, gm, call.pk)


@pytest.mark.parametrize("role", ["player", "observer"])
def test_only_gms_call_and_withdraw(request, d20_campaign, gm, kara, role):
    user = request.getfixturevalue(role)
    with pytest.raises(PermissionDenied):
        call_kara(d20_campaign, user, kara)
    call = call_kara(d20_campaign, gm, kara)
    before = head(d20_campaign)
    with pytest.raises(PermissionDenied):
        calls.cancel_call(d20_campaign.pk, user, call.pk)
    assert head(d20_campaign) == before
    assert CalledTest.objects.get().is_open


@pytest.mark.parametrize(
    "params, message",
    [
        ({"difficulty": 6}, "Difficulty is a whole number from 0 to 5"),
        ({"difficulty": -1}, "Difficulty is a whole number from 0 to 5"),
        ({"difficulty": None}, "Difficulty is a whole number from 0 to 5"),
        (
            {"complication_range": 21},
            "complication range is a whole number from 1 (only 20s) to 20",
        ),
        ({"skill": "Juggling"}, "Kara has no skill called “Juggling”"),
        ({"attribute": "Cunning"}, "Kara has no attribute called “Cunning”"),
        ({"focus": "Knives"}, "Kara has no focus called “Knives”"),
        ({"note": "x" * 121}, "Keep the note to 120 characters"),
    ],
)
def test_a_bad_call_is_refused_and_changes_nothing(d20_campaign, gm, kara, params, message):
    before = head(d20_campaign)
    with pytest.raises(ServiceError, match=re.escape(message)):
        call_kara(d20_campaign, gm, kara, **params)
    assert head(d20_campaign) == before and not CalledTest.objects.exists()


def test_a_call_for_an_unknown_character_is_refused(d20_campaign, gm, momenta_campaign):
    stranger = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Elsewhere")
    before = head(d20_campaign)
    with pytest.raises(ServiceError):
        calls.call_test(
            d20_campaign.pk, gm, character_id=stranger.pk, attribute="A", skill="B", difficulty=1
        )
    assert head(d20_campaign) == before and not CalledTest.objects.exists()


# --- 2d20: a hidden Difficulty -----------------------------------------------------------


def _csrf_free(html: str) -> str:
    return re.sub(r"[A-Za-z0-9]{64}", "<csrf token>", html)  # masked anew on every draw


def _player_sees(client, campaign, call) -> str:
    """Everything the player's browser can get about the call: the table page, the log,
    the panel, the composer filled from the call and its odds, the call's live push."""
    pages = [
        client.get(reverse("table", args=[campaign.pk])),
        client.get(reverse("table_log", args=[campaign.pk]), **HX),
        client.get(reverse("called_tests", args=[campaign.pk]), **HX),
        client.get(reverse("call_composer", args=[campaign.pk, call.pk]), **HX),
        client.get(
            reverse("call_odds", args=[campaign.pk]),
            {"call": call.pk, "character": call.character_id, "bought_dice": 0},
            **HX,
        ),
    ]
    assert all(p.status_code == 200 for p in pages)
    push = live.render_event_fragments(call.event, ALL)
    return _csrf_free("".join(text(p) for p in pages) + unescape(push))


def test_a_hidden_difficulty_never_reaches_the_player_before_the_roll(
    client_for, d20_campaign, gm, kara
):
    """Everything a player can fetch about a hidden call is the same whatever the Difficulty:
    drawn with Difficulty 4, then with 0, byte for byte alike. The GM's panel shows it."""
    call = call_kara(d20_campaign, gm, kara, difficulty=4, hidden=True)
    player = client_for("player")
    seen_at_4 = _player_sees(player, d20_campaign, call)
    CalledTest.objects.filter(pk=call.pk).update(difficulty=0)
    assert _player_sees(player, d20_campaign, call) == seen_at_4
    assert "Difficulty hidden" in seen_at_4
    # The stored event (replayed, exported, posted to Discord) says nothing of it either.
    twin = call_kara(d20_campaign, gm, kara, difficulty=0, hidden=True)
    assert {**call.event.payload, "call_id": 0} == {**twin.event.payload, "call_id": 0}
    CalledTest.objects.filter(pk=call.pk).update(difficulty=4)
    gm_panel = text(client_for("gm").get(reverse("called_tests", args=[d20_campaign.pk]), **HX))
    assert "Difficulty 4" in gm_panel


def test_a_hidden_difficulty_is_revealed_when_the_dice_land(
    client_for, d20_campaign, gm, player, kara
):
    call = call_kara(d20_campaign, gm, kara, difficulty=4, hidden=True)
    _, event = calls.answer_d20_call(
        d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 2])
    )
    # 1 and 2 against target 13, no focus: 2 + 1 = 3 successes, short of 4.
    assert (
        "3 against Difficulty 4 (hidden until the dice landed): fails" in event.payload["summary"]
    )
    log = text(client_for("player").get(reverse("table_log", args=[d20_campaign.pk]), **HX))
    assert "Difficulty 4" in log and "revealed" in log


# --- 2d20: through the composer ----------------------------------------------------------


def test_the_composer_answers_a_call_with_the_gms_terms(client_for, d20_campaign, gm, kara, dice):
    """A tampered composer (Difficulty 0, factors, a secret roll) still rolls the GM's test."""
    call = call_kara(d20_campaign, gm, kara, difficulty=3, hidden=True)
    player = client_for("player")
    composer = text(player.get(reverse("call_composer", args=[d20_campaign.pk, call.pk]), **HX))
    answer_url = reverse("call_answer_d20", args=[d20_campaign.pk, call.pk])
    assert f'hx-post="{answer_url}"' in composer and f'action="{answer_url}"' in composer
    dice([1, 20])
    response = player.post(
        answer_url,
        {
            "call": call.pk,
            "character": kara.pk,
            "attribute": "Power",
            "skill": "Communicate",
            "difficulty": 0,
            "harder": 0,
            "easier": 5,
            "bought_dice": 0,
            "buy_from_momentum": 0,
            "bonus_momentum": 0,
            "secret": "on",
        },
        **HX,
    )
    assert response.status_code == 200
    test = D20Test.objects.get()
    assert (test.result["difficulty"], test.secret) == (3, False)
    assert "Difficulty 3" in text(response)  # the answer's card, on the roller's own page
    call.refresh_from_db()
    assert call.d20_test == test
    # The composer drawn after the answer rolls plainly again.
    assert f'hx-post="{reverse("d20_roll", args=[d20_campaign.pk])}"' in text(response)


def _d20_answer(call, kara) -> dict:
    """What a 2d20 call's composer posts (its hidden `call` field included): a test the
    plain roll view would roll, were the call not refused there."""
    return roll_data(kara, call=call.pk)


def test_a_call_posted_to_the_plain_2d20_roll_url_is_refused_and_rolls_nothing(
    client_for, d20_campaign, gm, kara, dice
):
    call = call_kara(d20_campaign, gm, kara)
    before = head(d20_campaign)
    dice([1, 1])
    response = client_for("player").post(
        reverse("d20_roll", args=[d20_campaign.pk]), _d20_answer(call, kara), **HX
    )
    assert response.status_code == 400 and "answered at its own address" in text(response)
    assert not D20Test.objects.exists() and head(d20_campaign) == before
    call.refresh_from_db()
    assert call.is_open


def test_only_a_player_of_the_table_answers_a_2d20_call(client_for, d20_campaign, gm, kara, dice):
    call = call_kara(d20_campaign, gm, kara)
    before = head(d20_campaign)
    url = reverse("call_answer_d20", args=[d20_campaign.pk, call.pk])
    dice([1, 1])
    for who in ("observer", "outsider"):
        response = client_for(who).post(url, _d20_answer(call, kara), **HX)
        assert response.status_code == 403, who
    missing = reverse("call_answer_d20", args=[d20_campaign.pk, call.pk + 1])
    assert client_for("player").post(missing, _d20_answer(call, kara), **HX).status_code == 404
    assert not D20Test.objects.exists() and head(d20_campaign) == before
    call.refresh_from_db()
    assert call.is_open


def test_a_second_roll_through_the_composer_gets_a_clear_message(
    client_for, d20_campaign, gm, player, kara, dice
):
    call = call_kara(d20_campaign, gm, kara)
    calls.answer_d20_call(d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 1]))
    before = head(d20_campaign)
    response = client_for("player").post(
        reverse("call_answer_d20", args=[d20_campaign.pk, call.pk]), _d20_answer(call, kara), **HX
    )
    assert "answered already" in text(response)
    assert head(d20_campaign) == before and D20Test.objects.count() == 1


@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 403)])
def test_players_and_observers_cannot_call_or_withdraw_over_http(
    client_for, d20_campaign, gm, kara, role, status
):
    client = client_for(role)
    data = {"character": kara.pk, "attribute": "Power", "skill": "Communicate", "difficulty": 1}
    assert (
        client.post(reverse("call_test", args=[d20_campaign.pk]), data, **HX).status_code == status
    )
    call = call_kara(d20_campaign, gm, kara)
    before = head(d20_campaign)
    url = reverse("call_cancel", args=[d20_campaign.pk, call.pk])
    assert client.post(url, **HX).status_code == status
    assert head(d20_campaign) == before and CalledTest.objects.get().is_open


def test_the_gm_calls_over_http_and_bad_input_gets_a_message(client_for, d20_campaign, kara):
    client = client_for("gm")
    url = reverse("call_test", args=[d20_campaign.pk])
    bad = {"character": kara.pk, "attribute": "Power", "skill": "Communicate", "difficulty": 9}
    response = client.post(url, bad, **HX)
    assert "less than or equal to 5" in text(response)
    unknown = bad | {"difficulty": 2, "character": 99999}
    assert "valid choice" in text(client.post(url, unknown, **HX))
    assert not CalledTest.objects.exists()
    response = client.post(url, bad | {"difficulty": 2, "hidden": "on"}, **HX)
    assert "Test called." in text(response)
    call = CalledTest.objects.get()
    assert (call.difficulty, call.hidden, call.character) == (2, True, kara)


def test_another_players_panel_does_not_offer_kara_s_call(client_for, d20_campaign, gm, kara, vel):
    call = call_kara(d20_campaign, gm, kara)
    other = client_for("player2")
    assert f"call-{call.pk}" not in text(other.get(reverse("called_tests", args=[d20_campaign.pk])))
    url = reverse("call_composer", args=[d20_campaign.pk, call.pk])
    assert other.get(url, **HX).status_code == 404
    assert f"call-{call.pk}" in text(
        client_for("player").get(reverse("called_tests", args=[d20_campaign.pk]))
    )


# --- Momenta ----------------------------------------------------------------------------------


def test_d6_10_a_called_momenta_roll_uses_the_gms_hidden_opposition(
    client_for, momenta_campaign, gm, player, hero
):
    """D6-10: the GM sets 2 opposition dice (hidden); the player may not set opposition, yet
    the called roll is opposed; the answer names the opposition once the dice land."""
    call = calls.call_test(
        momenta_campaign.pk,
        gm,
        character_id=hero.pk,
        attribute="wits",
        opposition_pool=2,
        hidden=True,
    )
    assert call.attribute == "WITS"
    assert "2" not in call.event.payload["summary"]
    page = text(client_for("player").get(reverse("called_tests", args=[momenta_campaign.pk]), **HX))
    assert "opposition hidden" in page and "2 opposition" not in page
    request = calls.RollRequest(attribute="GRIT")  # the composer's choice: overridden
    roll, event = calls.answer_momenta_call(
        momenta_campaign.pk, player, call.pk, hero.pk, request, rng=FixedDice([6, 5, 3, 1, 5, 2])
    )
    assert roll.spec["opposition_pool"] == 2 and roll.card["attribute"] == "WITS"
    assert event.payload["opposition_pool"] == 2
    assert "against 2 opposition dice (hidden until the dice landed)" in event.payload["summary"]
    call.refresh_from_db()
    assert call.momenta_roll == roll and call.state == "answered"
    with pytest.raises(ServiceError, match="answered already"):
        calls.answer_momenta_call(
            momenta_campaign.pk, player, call.pk, hero.pk, request, rng=FixedDice([1] * 6)
        )
    assert MomentaRoll.objects.count() == 1


def test_d6_11_a_called_luck_roll_has_no_opposition(momenta_campaign, gm, player, hero):
    with pytest.raises(ServiceError, match="Nothing opposes a luck roll"):
        calls.call_test(
            momenta_campaign.pk,
            gm,
            character_id=hero.pk,
            attribute="",
            kind="luck",
            opposition_pool=2,
        )
    call = calls.call_test(momenta_campaign.pk, gm, character_id=hero.pk, attribute="", kind="luck")
    roll, _ = calls.answer_momenta_call(
        momenta_campaign.pk,
        player,
        call.pk,
        hero.pk,
        calls.RollRequest(attribute="WITS"),
        rng=FixedDice([5, 1]),
    )
    assert roll.card["kind"] == "luck" and roll.spec["opposition_pool"] is None


def test_a_momenta_call_refuses_bad_opposition_and_names(momenta_campaign, gm, hero):
    before = head(momenta_campaign)
    for params, message in [
        ({"attribute": "WITS", "opposition_pool": 31}, "Opposition dice: from 1 to 30"),
        ({"attribute": "CHARM"}, "Ash has no attribute called “CHARM”"),
        ({"attribute": "LUCK"}, "call a luck roll"),
    ]:
        with pytest.raises(ServiceError, match=re.escape(message)):
            calls.call_test(momenta_campaign.pk, gm, character_id=hero.pk, **params)
    assert head(momenta_campaign) == before


def test_the_momenta_composer_answers_a_call(client_for, momenta_campaign, gm, hero):
    call = calls.call_test(
        momenta_campaign.pk, gm, character_id=hero.pk, attribute="WITS", opposition_pool=1
    )
    player = client_for("player")
    composer = text(player.get(reverse("call_composer", args=[momenta_campaign.pk, call.pk]), **HX))
    assert (
        f'id="call-answer-{call.pk}"' in composer and "WITS against 1 opposition dice" in composer
    )
    answer_url = reverse("call_answer_momenta", args=[momenta_campaign.pk, call.pk])
    assert f'hx-post="{answer_url}"' in composer and f'action="{answer_url}"' in composer
    response = player.post(answer_url, _momenta_answer(call, hero), **HX)
    assert response.status_code == 200
    roll = MomentaRoll.objects.get()
    assert roll.spec["opposition_pool"] == 1
    call.refresh_from_db()
    assert call.momenta_roll == roll
    # The composer drawn after the answer rolls plainly again.
    assert f'hx-post="{reverse("momenta_roll", args=[momenta_campaign.pk])}"' in text(response)


def _momenta_answer(call, hero) -> dict:
    """What a call's composer posts (its hidden `call` field included)."""
    return {
        "call": call.pk,
        "character": hero.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "expected_momentum": hero.momentum,
        "expected_resolve": hero.resolve,
    }


def test_a_call_posted_to_the_plain_roll_url_is_refused_and_rolls_nothing(
    client_for, momenta_campaign, gm, hero
):
    call = calls.call_test(
        momenta_campaign.pk, gm, character_id=hero.pk, attribute="WITS", opposition_pool=1
    )
    before = head(momenta_campaign)
    response = client_for("player").post(
        reverse("momenta_roll", args=[momenta_campaign.pk]), _momenta_answer(call, hero), **HX
    )
    assert response.status_code == 400 and "answered at its own address" in text(response)
    assert not MomentaRoll.objects.exists() and head(momenta_campaign) == before
    call.refresh_from_db()
    assert call.is_open


def test_only_a_player_of_the_table_answers_a_momenta_call(client_for, momenta_campaign, gm, hero):
    call = calls.call_test(momenta_campaign.pk, gm, character_id=hero.pk, attribute="WITS")
    url = reverse("call_answer_momenta", args=[momenta_campaign.pk, call.pk])
    for who in ("observer", "outsider"):
        response = client_for(who).post(url, _momenta_answer(call, hero), **HX)
        assert response.status_code == 403, who
    missing = reverse("call_answer_momenta", args=[momenta_campaign.pk, call.pk + 1])
    assert client_for("player").post(missing, _momenta_answer(call, hero), **HX).status_code == 404
    assert not MomentaRoll.objects.exists()
    call.refresh_from_db()
    assert call.is_open


@pytest.mark.parametrize("value", ["abc", "-1", "99999999999999999999", "4.5"])
def test_a_garbled_call_is_refused_and_rolls_nothing(client_for, d20_campaign, kara, value):
    player = client_for("player")
    odds = player.get(reverse("call_odds", args=[d20_campaign.pk]), {"call": value}, **HX)
    assert odds.status_code == 404
    data = {"call": value, "character": kara.pk, "bought_dice": 0}
    assert player.post(reverse("d20_roll", args=[d20_campaign.pk]), data, **HX).status_code == 400
    assert not D20Test.objects.exists() and head(d20_campaign) == 0


# --- Momenta: the GM calls Disadvantage and a situational edge (issue 25) ------------------


def call_wits(campaign, gm, hero, **kw):
    return calls.call_test(campaign.pk, gm, character_id=hero.pk, attribute="WITS", **kw)


def test_pm_02_a_called_disadvantage_stands_though_the_player_sends_none(
    momenta_campaign, gm, player, hero
):
    """PM-02: the GM calls the roll with Disadvantage where players may not declare it
    (players_declare_edges off): the answer is made with it, whatever the composer says,
    and the roller gains 1 Momentum after it."""
    assert not momenta_campaign.players_declare_edges
    call = call_wits(momenta_campaign, gm, hero, disadvantage=True)
    assert "WITS, unopposed, with Disadvantage" in call.event.payload["summary"]
    before = hero.momentum
    roll, _ = calls.answer_momenta_call(
        momenta_campaign.pk,
        player,
        call.pk,
        hero.pk,
        calls.RollRequest(attribute="WITS", disadvantage=False),
        rng=FixedDice([1, 2, 3, 4, 6, 6]),
    )
    assert roll.card["disadvantage"] is True
    hero.refresh_from_db()
    assert hero.momentum == before + 1


def test_pm_05_a_called_edge_is_the_players_to_take_and_pay_for(momenta_campaign, gm, player, hero):
    """PM-05: the GM-called edge is Advantage for 1 Momentum; the player takes it on the
    call the GM made, where on a plain roll (or another call) it is refused."""
    plain = call_wits(momenta_campaign, gm, hero)
    edge = calls.RollRequest(attribute="WITS", advantage_sources=[SITUATIONAL])
    with pytest.raises(ServiceError, match="The GM called no edge"):
        calls.answer_momenta_call(
            momenta_campaign.pk, player, plain.pk, hero.pk, edge, rng=FixedDice([1] * 8)
        )
    with pytest.raises(ServiceError, match="The GM called no Disadvantage"):
        calls.answer_momenta_call(
            momenta_campaign.pk,
            player,
            plain.pk,
            hero.pk,
            calls.RollRequest(attribute="WITS", disadvantage=True),
            rng=FixedDice([1] * 8),
        )
    assert not MomentaRoll.objects.exists()
    calls.cancel_call(momenta_campaign.pk, gm, plain.pk)
    call = call_wits(momenta_campaign, gm, hero, edge=True)
    hero.refresh_from_db()
    before = hero.momentum
    roll, _ = calls.answer_momenta_call(
        momenta_campaign.pk, player, call.pk, hero.pk, edge, rng=FixedDice([1, 2, 3, 4, 5, 6])
    )
    assert roll.card["advantage_source"] == "situational" and roll.card["paid"] == 1
    hero.refresh_from_db()
    assert hero.momentum == before - 1


def test_disadvantage_and_edges_are_refused_where_the_rules_have_none(
    momenta_campaign, d20_campaign, gm, hero, kara
):
    """D6-11: a luck roll is straight; 2d20 has no Disadvantage to call. Nothing written."""
    before = (head(momenta_campaign), head(d20_campaign), CalledTest.objects.count())
    for flag in ("disadvantage", "edge"):
        with pytest.raises(ServiceError, match="luck roll is straight"):
            calls.call_test(
                momenta_campaign.pk,
                gm,
                character_id=hero.pk,
                attribute="",
                kind="luck",
                **{flag: 1},
            )
        with pytest.raises(ServiceError, match="Momenta's"):
            call_kara(d20_campaign, gm, kara, **{flag: True})
    assert (head(momenta_campaign), head(d20_campaign), CalledTest.objects.count()) == before


def test_only_the_gm_calls_disadvantage(client_for, momenta_campaign, hero):
    data = {"character": hero.pk, "attribute": "WITS", "kind": "action", "disadvantage": "on"}
    url = reverse("call_test", args=[momenta_campaign.pk])
    for who in ("player", "observer", "outsider"):
        assert client_for(who).post(url, data, **HX).status_code in (403, 404), who
    assert not CalledTest.objects.exists()
    client_for("gm").post(url, data | {"edge": "on"}, **HX)
    call = CalledTest.objects.get()
    assert (call.disadvantage, call.edge) == (True, True)


def test_the_composer_answering_a_call_carries_its_disadvantage_and_edge(
    client_for, momenta_campaign, gm, hero
):
    """The call fills the player's composer: Disadvantage ticked and not theirs to clear,
    the edge offered and ticked; the odds count both; the answer keeps the Disadvantage
    even if the browser sends none (a disabled box is never sent)."""
    call = call_wits(momenta_campaign, gm, hero, disadvantage=True, edge=True)
    player = client_for("player")
    composer = text(player.get(reverse("call_composer", args=[momenta_campaign.pk, call.pk]), **HX))
    box = re.search(r'<input type="checkbox" name="disadvantage"[^>]*>', composer).group(0)
    assert "checked" in box and "disabled" in box
    edge = re.search(
        r'<input type="checkbox" name="advantage_sources" value="situational"[^>]*>', composer
    )
    assert edge and "checked" in edge.group(0)
    assert "with Disadvantage, with a GM-called edge" in composer
    answer = _momenta_answer(call, hero) | {"advantage_sources": "situational"}
    odds = text(player.get(reverse("momenta_odds", args=[momenta_campaign.pk]), answer, **HX))
    assert "At this table the GM calls" not in odds and "%" in odds
    response = player.post(
        reverse("call_answer_momenta", args=[momenta_campaign.pk, call.pk]), answer, **HX
    )
    assert response.status_code == 200 and "At this table" not in text(response)
    roll = MomentaRoll.objects.get()
    # Both asked: they cancel (PM-11), which only a roll with the called Disadvantage does.
    assert roll.card["cancelled"] is True and roll.card["advantage_sources"] == ["situational"]


# --- One log entry per answer (issue 25) ---------------------------------------------------


def log_cards(client, campaign) -> list[str]:
    """The kinds of the cards in the log a player's page shows, newest first."""
    page = text(client.get(reverse("table", args=[campaign.pk])))
    return re.findall(r'<li class="log-entry[^"]*" id="event-\d+"[^>]*data-kind="(\w+)"', page)


def test_answering_a_2d20_call_makes_one_log_card_the_roll_saying_the_verdict(
    client_for, d20_campaign, gm, player, kara
):
    """Two events (the test, the call closed), one card: the test's, with the verdict."""
    call = call_kara(d20_campaign, gm, kara, difficulty=4, hidden=True)
    test, event = calls.answer_d20_call(
        d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 2])
    )
    assert event.payload["on_roll_card"] is True
    assert test.event.payload["call"] == {"call_id": call.pk, "hidden": True}
    assert log_cards(client_for("player"), d20_campaign) == ["d20_test", "test_called"]
    for audience in (ALL, GM):
        roll_push = live.render_event_fragments(TableEvent.objects.get(pk=test.event.pk), audience)
        verdict = re.search(r'<p class="call-verdict[^"]*".*?</p>', roll_push, re.S).group(0)
        assert "Difficulty 4" in verdict and "revealed" in verdict
        assert "3 successes" in verdict and "failed" in verdict
        assert 'id="event-' not in live.render_event_fragments(event, audience)  # no card
    # Still the call's event: the panels fetch themselves again.
    assert 'id="live-sync-calls"' in live.render_event_fragments(event, ALL)


def test_answering_a_momenta_call_makes_one_log_card(
    client_for, momenta_campaign, gm, player, hero
):
    call = call_wits(momenta_campaign, gm, hero, opposition_pool=2, hidden=True)
    roll, event = calls.answer_momenta_call(
        momenta_campaign.pk,
        player,
        call.pk,
        hero.pk,
        calls.RollRequest(attribute="WITS"),
        rng=FixedDice([6, 5, 3, 1, 5, 2]),
    )
    assert log_cards(client_for("player"), momenta_campaign) == ["momenta_roll", "test_called"]
    card = live.render_event_fragments(TableEvent.objects.get(pk=roll.event.pk), ALL)
    verdict = re.search(r'<p class="call-verdict".*?</p>', card, re.S).group(0)
    assert "2 opposition dice" in verdict and "revealed" in verdict


def test_an_older_answer_without_the_mark_keeps_its_card(
    client_for, d20_campaign, gm, player, kara
):
    """Answers stored before issue 25 have no mark on the roll: their own card stays."""
    call = call_kara(d20_campaign, gm, kara)
    _, event = calls.answer_d20_call(
        d20_campaign.pk, player, call.pk, kara.pk, rng=FixedDice([1, 1])
    )
    payload = {k: v for k, v in event.payload.items() if k != "on_roll_card"}
    TableEvent.objects.filter(pk=event.pk).update(payload=payload)
    assert log_cards(client_for("player"), d20_campaign)[:2] == ["call_answered", "d20_test"]


def test_pm_05_the_gm_answering_for_an_npc_calls_its_own_edges(momenta_campaign, gm):
    """The GM calls edges and Disadvantage: answering a call for an NPC, they are the GM's."""
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Warden", is_npc=True)
    npc.attributes.create(name="WITS", value=2)
    call = calls.call_test(momenta_campaign.pk, gm, character_id=npc.pk, attribute="WITS")
    asked = calls.RollRequest(attribute="WITS", advantage_sources=[SITUATIONAL], disadvantage=True)
    roll, _ = calls.answer_momenta_call(
        momenta_campaign.pk, gm, call.pk, npc.pk, asked, rng=FixedDice([1] * 8)
    )
    assert roll.card["cancelled"] is True  # both asked, both counted (PM-11)

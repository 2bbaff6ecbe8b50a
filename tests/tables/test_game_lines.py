"""2d20 game lines at the table (issue 15; suggested clauses GL-01 … GL-05): the line's
names and cap, Determination before the roll in Star Trek Adventures (GL-02, GL-03),
Challenge dice (GL-04) and the GM's complication range for a scene or a roll (GL-05)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse

from rules import game_lines
from rules.d20 import SkillTest, skill_odds
from rules.dice import FixedDice
from tables import events
from tables.exports.dump import dumps, export_campaign
from tables.exports.load import import_campaign
from tables.models import Campaign, Character, D20Test, PoolChange, TableEvent
from tables.services import campaigns, sessions
from tables.services import d20 as services_d20
from tables.services import game_lines as services
from tables.services.core import ServiceError, change_pool, lock_campaign

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _line(campaign, key):
    Campaign.objects.filter(pk=campaign.pk).update(game_line=key)
    campaign.refresh_from_db()
    return campaign


def _roll(campaign, who, character, faces, **kw):
    kw.setdefault("difficulty", 2)
    return services_d20.roll_d20_test(
        campaign.pk,
        who,
        character.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", **kw),
        rng=FixedDice(faces),
    )


# --- GL-02, GL-03: Determination before the roll ---------------------------------------


def test_gl_03_sta_2nd_edition_determination_sets_one_die_to_1(d20_campaign, player, kara):
    """GL-03: 2d20 stay 2d20; the first shows 1 (2 successes), only the other is rolled."""
    _line(d20_campaign, "sta2")
    record = _roll(d20_campaign, player, kara, [20], spend_determination=True)
    assert record.result["faces"] == [1, 20]
    assert record.result["successes"] == 2 and record.result["passed"]
    assert record.spec["dice"] == 2
    kara.refresh_from_db()
    assert kara.determination == 0
    line = PoolChange.objects.get(pool="determination", character=kara)
    assert (line.delta, line.after) == (-1, 0)
    assert "one d20 set to 1" in line.reason
    assert record.event.payload["changes"][0]["pool"] == "determination"


def test_gl_02_sta_1st_edition_determination_adds_a_d20_showing_1(d20_campaign, player, kara):
    """GL-02: a third d20, already a 1; the two of the pool are rolled."""
    _line(d20_campaign, "sta1")
    record = _roll(d20_campaign, player, kara, [20, 19], spend_determination=True)
    assert record.result["faces"] == [1, 20, 19]
    assert record.spec["dice"] == 3 and record.spec["bought_dice"] == 0
    kara.refresh_from_db()
    assert kara.determination == 0


def test_gl_03_the_preview_shows_the_exact_odds_with_the_die_set(d20_campaign, kara):
    """T-05 with GL-03: the composer's odds are the rules' for a pool with one die at 1."""
    _line(d20_campaign, "sta2")
    request = services_d20.D20TestRequest(
        "Power", "Communicate", difficulty=3, spend_determination=True
    )
    spec, odds = services_d20.preview_odds(d20_campaign, kara, request, sees_hidden=False)
    expected = skill_odds(SkillTest(target=13, difficulty=3, ones=1))
    assert odds == expected
    assert odds.pass_chance != skill_odds(SkillTest(target=13, difficulty=3)).pass_chance


def test_gl_02_no_determination_left_refuses_the_roll_and_changes_nothing(
    d20_campaign, player, kara
):
    _line(d20_campaign, "sta1")
    Character.objects.filter(pk=kara.pk).update(determination=0)
    with pytest.raises(ServiceError, match="no Determination left"):
        _roll(d20_campaign, player, kara, [5, 5], spend_determination=True, bought_dice=1)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 0  # the bought die's Threat rolled back too
    assert not D20Test.objects.exists() and not PoolChange.objects.exists()


def test_t_04_lines_that_reroll_refuse_a_spend_before_the_roll(d20_campaign, player, kara):
    """T-04 stays the seeds': Determination is not spent as you roll."""
    for key in ("seeds",):
        _line(d20_campaign, key)
        with pytest.raises(ServiceError, match="after the roll"):
            _roll(d20_campaign, player, kara, [5, 5], spend_determination=True)
    kara.refresh_from_db()
    assert kara.determination == 1 and not D20Test.objects.exists()


def _permit(campaign, gm, record):
    from tables.services import gm as services_gm

    services_gm.permit_determination(campaign.pk, gm, record.pk)


@pytest.mark.parametrize("key", ["sta1", "sta2"])
def test_gl_02_sta_moment_of_inspiration_rerolls_after_the_roll(
    d20_campaign, gm, player, kara, key
):
    """GL-02, Star Trek Adventures core rulebooks (1st ed. p. 87; 2nd ed., Determination:
    Moment of Inspiration): besides the die at 1 before the roll, 1 Determination rerolls the
    pool after it. Ruling: the GM's leave stands for "a Value applies"; the dice are the
    player's choice (the 2d20 re-roll rule); the die Determination set to 1 stays."""
    _line(d20_campaign, key)
    Character.objects.filter(pk=kara.pk).update(determination=2)
    record = _roll(d20_campaign, player, kara, [20, 20], spend_determination=True, difficulty=3)
    assert not record.result["passed"]
    _permit(d20_campaign, gm, record)
    with pytest.raises(ServiceError, match="set to 1"):
        services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [0])
    rolled = [1, 2] if key == "sta1" else [1]
    services_d20.determination_reroll(
        d20_campaign.pk, player, record.pk, rolled, rng=FixedDice([4] * len(rolled))
    )
    record.refresh_from_db()
    assert record.result["faces"][0] == 1 and record.result["passed"]
    kara.refresh_from_db()
    assert kara.determination == 0  # one before the roll, one for the reroll


def test_gl_02_sta_determination_is_capped_at_3(d20_campaign, gm, kara):
    """GL-02, STA 1st ed. core p. 87 ("no character can have more than three points of
    Determination"), 2nd ed. the same: a gain beyond 3 is lost, and logged so."""
    from tables.services.sessions import adjust_pool

    _line(d20_campaign, "sta2")
    event = adjust_pool(d20_campaign.pk, gm, "determination", 5, "Value challenged", kara.pk)
    kara.refresh_from_db()
    assert kara.determination == 3
    assert (event.payload["changes"][0]["delta"], event.payload["changes"][0]["lost"]) == (2, 3)
    _line(d20_campaign, "seeds")
    adjust_pool(d20_campaign.pk, gm, "determination", 5, "The seeds set no cap", kara.pk)
    kara.refresh_from_db()
    assert kara.determination == 8


def test_gl_02_sta_1st_edition_sets_determination_to_1_each_session(d20_campaign, gm, kara, marcus):
    """GL-02, STA 1st ed. core p. 87: "Player Characters begin each session with a single
    point of Determination" (set to 1, not gained); NPCs keep theirs."""
    _line(d20_campaign, "sta1")
    Character.objects.filter(pk=kara.pk).update(determination=3)
    sessions.start_session(d20_campaign.pk, gm)
    kara.refresh_from_db()
    marcus.refresh_from_db()
    assert (kara.determination, marcus.determination) == (1, 0)
    line = PoolChange.objects.get(pool="determination", character=kara)
    assert (line.delta, line.after) == (-2, 1) and "New session" in line.reason
    services.start_new_adventure(d20_campaign.pk, gm)  # GL-07: it sets Threat only
    kara.refresh_from_db()
    assert kara.determination == 1


def test_gl_02_sta_2nd_edition_sets_determination_to_1_each_mission(d20_campaign, gm, player, kara):
    """GL-02, STA 2nd ed. core (Determination): "Each player character begins each mission
    with 1 Determination": the GM's "New mission"; a session start leaves it alone."""
    _line(d20_campaign, "sta2")
    Character.objects.filter(pk=kara.pk).update(determination=0)
    sessions.start_session(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.determination == 0
    with pytest.raises(PermissionDenied):
        services.start_new_adventure(d20_campaign.pk, player)
    event = services.start_new_adventure(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.determination == 1
    assert "New mission" in event.payload["changes"][0]["reason"]


def test_gl_02_gl_07_the_gm_panel_starts_a_new_mission(d20_campaign, kara, client_for):
    _line(d20_campaign, "sta2")
    Character.objects.filter(pk=kara.pk).update(determination=0)
    url = reverse("new_adventure", args=[d20_campaign.pk])
    assert client_for("player").post(url, **HX).status_code == 403
    kara.refresh_from_db()
    assert kara.determination == 0
    body = client_for("gm").post(url, **HX).content.decode()
    assert 'id="gm-panel"' in body and "New mission" in body
    kara.refresh_from_db()
    assert kara.determination == 1
    _line(d20_campaign, "sta1")
    page = client_for("gm").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert url in page  # GL-07: a mission sets Threat; Determination refills each session
    assert "Threat set to 2 per player character</span>" in page
    Campaign.objects.filter(pk=d20_campaign.pk).update(mission_sets_threat=False)
    page = client_for("gm").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert url not in page  # a mission would change nothing


def test_gl_04_sta_2nd_edition_has_no_challenge_dice(d20_campaign, player):
    """STA 2nd ed. core: the second edition dropped Challenge dice (damage is fixed); the
    form is not offered and a roll is refused."""
    _line(d20_campaign, "sta2")
    with pytest.raises(ServiceError, match="no Challenge dice"):
        services.roll_challenge_dice(d20_campaign.pk, player, 2, rng=FixedDice([1, 1]))
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


def test_gl_03_sta_1st_edition_the_determination_die_counts_within_5d20(d20_campaign, player, kara):
    """GL-03, STA 1st ed. core (Perfect Opportunity: "The normal limit of additional d20s
    bought for a Task still applies"): 3 bought dice and the Determination die are refused,
    nothing is paid; 2 bought and the die roll 5d20."""
    _line(d20_campaign, "sta1")
    with pytest.raises(ServiceError, match="5d20 in all"):
        _roll(d20_campaign, player, kara, [5] * 5, spend_determination=True, bought_dice=3)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 0 and not D20Test.objects.exists()
    record = _roll(d20_campaign, player, kara, [5] * 4, spend_determination=True, bought_dice=2)
    assert record.spec["dice"] == 5 and record.result["faces"][0] == 1


def test_gl_02_conan_fortune_rolls_a_d20_counting_as_1(d20_campaign, gm, player, kara, client_for):
    """GL-02, GL-03, Robert E. Howard's Conan core rulebook (Fortune: a bonus d20 counting
    as a 1, within the three bonus dice; not a reroll): the roll has it, the ledger says
    Fortune, and no reroll is offered or taken after the roll."""
    _line(d20_campaign, "conan")
    record = _roll(d20_campaign, player, kara, [20, 19], spend_determination=True)
    assert record.result["faces"] == [1, 20, 19] and record.spec["dice"] == 3
    line = PoolChange.objects.get(pool="determination", character=kara)
    assert line.reason.startswith("Kara: Fortune for a bonus d20 showing 1")
    # Even with a leave (stored before the GM's leave was refused on such lines, T-04):
    D20Test.objects.filter(pk=record.pk).update(determination_permitted=True)
    with pytest.raises(ServiceError, match="Fortune is spent as you roll, not to reroll"):
        services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [1])
    url = reverse("d20_panel", args=[d20_campaign.pk, record.pk])
    panel = client_for("gm").get(url, **HX).content.decode()
    assert "Allow Determination" not in panel and "/reroll/" not in panel


def test_gl_02_achtung_fortune_sets_a_d20_to_1(d20_campaign, player, kara):
    """GL-02, Achtung! Cthulhu 2d20 core (Fortune: one d20 is a 1 instead of rolled)."""
    _line(d20_campaign, "achtung")
    record = _roll(d20_campaign, player, kara, [20], spend_determination=True)
    assert record.result["faces"] == [1, 20] and record.spec["dice"] == 2
    with pytest.raises(ServiceError, match="not to reroll"):
        services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [1])


def test_gl_02_conan_fortune_resets_to_3_each_session(d20_campaign, gm, kara, marcus):
    """GL-02, Robert E. Howard's Conan (Fortune resets at the session start: "Each PC's
    Fortune resets to their starting value of 3", Modiphius forum, "Each Session starting
    tokens"; the Foundry conan2d20 system's sheet starts Fortune at 3): set to 3, spent or
    hoarded; NPCs keep theirs; no "New mission" refill."""
    _line(d20_campaign, "conan")
    Character.objects.filter(pk=kara.pk).update(determination=5)
    Character.objects.filter(pk=marcus.pk).update(determination=1)
    sessions.start_session(d20_campaign.pk, gm)
    kara.refresh_from_db()
    marcus.refresh_from_db()
    assert (kara.determination, marcus.determination) == (3, 1)
    line = PoolChange.objects.get(pool="determination", character=kara)
    assert (line.delta, line.after) == (-2, 3)
    assert "New session: Fortune set to 3" in line.reason
    with pytest.raises(ServiceError, match="not refilled by a new mission"):
        services.start_new_adventure(d20_campaign.pk, gm)


def test_gl_r1_achtung_fortune_is_set_to_3_each_session(d20_campaign, gm, kara):
    """GL-R1 (ruling, GL-02): Achtung! Cthulhu's refill, which no source we could read
    states, is Conan's: Fortune set to 3 at each session start, ledgered."""
    _line(d20_campaign, "achtung")
    Character.objects.filter(pk=kara.pk).update(determination=0)
    sessions.start_session(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.determination == game_lines.ACHTUNG_FORTUNE == 3
    line = PoolChange.objects.get(pool="determination", character=kara)
    assert (line.delta, line.after) == (3, 3) and "Fortune set to 3" in line.reason


def test_gl_02_dune_determination_sets_a_die_to_1_and_rerolls_each_die_once(
    d20_campaign, gm, player, kara
):
    """GL-02, Dune: Adventures in the Imperium core rulebook (Determination: "Automatic 1"
    before rolling, or re-roll the dice pool after; Re-rolls: a re-rolled die is not
    re-rolled again). Ruling: the GM's leave stands for "the drive statement applies"."""
    _line(d20_campaign, "dune")
    Character.objects.filter(pk=kara.pk).update(determination=3)
    record = _roll(
        d20_campaign, player, kara, [20, 19], spend_determination=True, bought_dice=1, difficulty=4
    )
    assert record.result["faces"] == [1, 20, 19]
    _permit(d20_campaign, gm, record)
    services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [1], rng=FixedDice([18]))
    with pytest.raises(ServiceError, match="second result stands"):
        services_d20.determination_reroll(
            d20_campaign.pk, player, record.pk, [1], rng=FixedDice([2])
        )
    services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [2], rng=FixedDice([2]))
    record.refresh_from_db()
    assert record.result["faces"] == [1, 18, 2]
    kara.refresh_from_db()
    assert kara.determination == 0


def test_gl_02_dune_determination_caps_at_3_and_starts_each_adventure_at_1(d20_campaign, gm, kara):
    """GL-02, Dune core rulebook (Determination: "At the start of each adventure, you have a
    single point ... never more than three"): the GM's New adventure sets it to 1."""
    from tables.services.sessions import adjust_pool

    _line(d20_campaign, "dune")
    adjust_pool(d20_campaign.pk, gm, "determination", 4, "Drive challenged", kara.pk)
    kara.refresh_from_db()
    assert kara.determination == 3
    event = services.start_new_adventure(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.determination == 1
    assert "New adventure" in event.payload["changes"][0]["reason"]


def test_gl_02_a_secret_test_cannot_spend_determination_the_players_see(d20_campaign, gm, marcus):
    """TB-03: Determination is on every card; a hidden spend would betray the roll."""
    _line(d20_campaign, "sta1")
    Character.objects.filter(pk=marcus.pk).update(determination=1)
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    with pytest.raises(ServiceError):
        _roll(d20_campaign, gm, marcus, [5, 5], spend_determination=True, secret=True)
    marcus.refresh_from_db()
    assert marcus.determination == 1


def test_gl_03_the_composer_offers_the_spend_only_where_the_line_has_it(
    d20_campaign, client_for, kara
):
    client = client_for("player")
    url = reverse("table", args=[d20_campaign.pk])
    assert 'name="spend_determination"' not in client.get(url).content.decode()
    _line(d20_campaign, "sta2")
    page = client.get(url).content.decode()
    assert 'name="spend_determination"' in page
    assert "Spend 1 Determination: one d20 set to 1" in page


def test_gl_03_the_composer_rolls_with_the_spend(d20_campaign, client_for, kara, monkeypatch):
    _line(d20_campaign, "sta2")
    monkeypatch.setattr("rules.d20._rng", lambda rng: FixedDice([20]))
    data = {
        "character": kara.pk, "attribute": "Power", "skill": "Communicate", "focus": "",
        "difficulty": 2, "harder": 0, "easier": 0, "bought_dice": 0, "buy_from_momentum": 0,
        "bonus_momentum": 0, "expected_momentum": 0, "spend_determination": "on",
    }  # fmt: skip
    response = client_for("player").post(reverse("d20_roll", args=[d20_campaign.pk]), data, **HX)
    assert response.status_code == 200
    assert D20Test.objects.get().result["faces"] == [1, 20]


# --- GL-04: Challenge dice -------------------------------------------------------------


def test_gl_04_challenge_dice_are_rolled_and_logged_with_total_and_effects(
    d20_campaign, player, kara
):
    _line(d20_campaign, "sta1")
    event = services.roll_challenge_dice(
        d20_campaign.pk, player, 4, character_id=kara.pk, note="Phaser", rng=FixedDice([2, 5, 3, 6])
    )
    assert event.kind == events.CHALLENGE_ROLL.name
    p = event.payload
    assert (p["faces"], p["total"], p["effects"]) == ([2, 5, 3, 6], 4, 2)
    assert [d["effect"] for d in p["read"]] == [False, True, False, True]
    assert (p["character"], p["note"], p["dice_name"]) == ("Kara", "Phaser", "Challenge dice")
    assert event.audience == TableEvent.Audience.ALL


def test_gl_04_the_card_reaches_the_log_of_another_member(d20_campaign, player, client_for):
    _line(d20_campaign, "conan")
    services.roll_challenge_dice(d20_campaign.pk, player, 2, rng=FixedDice([2, 6]))
    page = client_for("player2").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert "2 Combat dice" in page
    assert '<strong class="challenge-total">3</strong>' in page
    assert "1 Effect<" in page


def test_gl_04_a_line_without_challenge_dice_refuses_them(d20_campaign, player):
    with pytest.raises(ServiceError, match="no Challenge dice"):
        services.roll_challenge_dice(d20_campaign.pk, player, 2, rng=FixedDice([1, 1]))
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


@pytest.mark.parametrize("dice", [0, 21, -3])
def test_gl_04_an_impossible_number_of_dice_is_refused(d20_campaign, player, dice):
    _line(d20_campaign, "fallout")
    with pytest.raises(ServiceError, match="Roll 1 to 20 dice"):
        services.roll_challenge_dice(d20_campaign.pk, player, dice, rng=FixedDice([1] * 25))
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


def test_gl_04_observers_and_other_players_characters_are_refused(
    d20_campaign, observer, player2, kara
):
    _line(d20_campaign, "sta1")
    with pytest.raises(PermissionDenied):
        services.roll_challenge_dice(d20_campaign.pk, observer, 2, rng=FixedDice([1, 1]))
    with pytest.raises(PermissionDenied):
        services.roll_challenge_dice(
            d20_campaign.pk, player2, 2, character_id=kara.pk, rng=FixedDice([1, 1])
        )
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


def test_gl_04_the_form_rolls_and_answers_with_the_card(d20_campaign, client_for, monkeypatch):
    _line(d20_campaign, "sta1")
    monkeypatch.setattr("rules.challenge.secrets.SystemRandom", lambda: FixedDice([1, 2, 5]))
    url = reverse("challenge_roll", args=[d20_campaign.pk])
    response = client_for("player").post(url, {"dice": 3, "note": "Stun"}, **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="challenge-dice"' in body and "challenge-total" in body
    assert TableEvent.objects.get(kind="challenge_roll").payload["total"] == 4


@pytest.mark.parametrize(
    "data, message",
    [({"dice": "0"}, "greater than or equal to 1"), ({"dice": "x"}, "whole number"), ({}, "")],
)
def test_gl_04_bad_input_to_the_form_gets_a_message_and_rolls_nothing(
    d20_campaign, client_for, data, message
):
    _line(d20_campaign, "sta1")
    url = reverse("challenge_roll", args=[d20_campaign.pk])
    response = client_for("player").post(url, data, **HX)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert message in response.content.decode()
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


@pytest.mark.parametrize("role, status", [("observer", 403), ("outsider", 403)])
def test_gl_04_only_members_who_play_may_post_the_form(d20_campaign, client_for, role, status):
    _line(d20_campaign, "sta1")
    url = reverse("challenge_roll", args=[d20_campaign.pk])
    assert client_for(role).post(url, {"dice": 2}, **HX).status_code == status
    assert not TableEvent.objects.filter(kind="challenge_roll").exists()


# --- GL-05: the complication range for a scene, and for a roll ----------------------------


def test_gl_05_the_scene_range_applies_to_rolls_until_the_scene_ends(
    d20_campaign, gm, player, kara
):
    sessions.start_scene(d20_campaign.pk, gm, "Storm")
    event = services.set_scene_complication_range(d20_campaign.pk, gm, 3)
    assert (event.payload["range"], event.payload["from_face"]) == (3, 18)
    record = _roll(d20_campaign, player, kara, [18, 2])
    assert record.spec["complication_range"] == 3 and record.result["complications"] == 1
    sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range is None
    after = _roll(d20_campaign, player, kara, [18, 2])
    assert after.spec["complication_range"] == 1 and after.result["complications"] == 0


def test_gl_05_a_players_roll_cannot_narrow_the_scenes_range(d20_campaign, gm, player, kara):
    """GL-05: the GM's scene range 4 (17–20) stands against a roll asking for 1 (only 20s)."""
    sessions.start_scene(d20_campaign.pk, gm)
    services.set_scene_complication_range(d20_campaign.pk, gm, 4)
    record = _roll(d20_campaign, player, kara, [18, 2], complication_range=1)
    assert record.spec["complication_range"] == 4 and record.result["complications"] == 1


def test_gl_05_a_roll_may_widen_the_gms_range(d20_campaign, gm, player, kara):
    """GL-05: a roll's own range wider than the scene's (or the campaign's) is its own."""
    sessions.start_scene(d20_campaign.pk, gm)
    services.set_scene_complication_range(d20_campaign.pk, gm, 2)
    record = _roll(d20_campaign, player, kara, [17, 2], complication_range=4)
    assert record.spec["complication_range"] == 4 and record.result["complications"] == 1
    Campaign.objects.filter(pk=d20_campaign.pk).update(
        scene_complication_range=None, complication_range=3
    )
    d20_campaign.refresh_from_db()
    narrow = _roll(d20_campaign, player, kara, [18, 2], complication_range=1)
    assert narrow.spec["complication_range"] == 3  # the campaign's range is the GM's too


def test_gl_05_sta_2nd_edition_bounds_the_range_at_5(d20_campaign, gm, player, kara):
    """GL-05, Star Trek Adventures 2nd edition core rulebook (Complication Range: at most
    5, complications on 16–20): a wider scene or roll range is refused, nothing changes."""
    _line(d20_campaign, "sta2")
    sessions.start_scene(d20_campaign.pk, gm)
    with pytest.raises(ServiceError, match="from 1 \\(only 20s\\) to 5"):
        services.set_scene_complication_range(d20_campaign.pk, gm, 6)
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range is None
    with pytest.raises(ServiceError, match="to 5"):
        _roll(d20_campaign, player, kara, [18, 2], complication_range=6)
    assert not D20Test.objects.exists()
    services.set_scene_complication_range(d20_campaign.pk, gm, 5)
    record = _roll(d20_campaign, player, kara, [16, 15])
    assert record.spec["complication_range"] == 5 and record.result["complications"] == 1


def test_gl_05_a_campaign_range_beyond_the_line_is_held_to_its_bound(d20_campaign, player, kara):
    """GL-05: a campaign moved to STA 2e with a range of 8 rolls with 5 (16–20), not 8."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(complication_range=8)
    _line(d20_campaign, "sta2")
    record = _roll(d20_campaign, player, kara, [15, 16])
    assert record.spec["complication_range"] == 5 and record.result["complications"] == 1


def test_gl_05_the_settings_page_refuses_a_range_beyond_the_line(d20_campaign, client_for):
    from tests.tables.test_site_permissions import settings_data

    url = reverse("campaign_settings", args=[d20_campaign.pk])
    data = settings_data(d20_campaign, game_line="sta2", complication_range=6)
    body = client_for("gm").post(url, data).content.decode()
    assert "allows a complication range of at most 5" in body
    d20_campaign.refresh_from_db()
    assert (d20_campaign.game_line, d20_campaign.complication_range) == ("seeds", 1)


def test_gl_05_the_composer_sends_the_per_roll_range(d20_campaign, client_for, kara, monkeypatch):
    monkeypatch.setattr("rules.d20._rng", lambda rng: FixedDice([17, 2]))
    data = {
        "character": kara.pk, "attribute": "Power", "skill": "Communicate", "focus": "",
        "difficulty": 1, "harder": 0, "easier": 0, "bought_dice": 0, "buy_from_momentum": 0,
        "bonus_momentum": 0, "expected_momentum": 0, "complication_range": 4,
    }  # fmt: skip
    url = reverse("d20_roll", args=[d20_campaign.pk])
    assert client_for("player").post(url, data, **HX).status_code == 200
    assert D20Test.objects.get().result["complications"] == 1
    data["complication_range"] = 21
    body = client_for("player").post(url, data, **HX).content.decode()
    assert "less than or equal to 20" in body and D20Test.objects.count() == 1


def test_gl_05_only_the_gm_sets_the_scene_range(d20_campaign, gm, player, client_for):
    sessions.start_scene(d20_campaign.pk, gm)
    with pytest.raises(PermissionDenied):
        services.set_scene_complication_range(d20_campaign.pk, player, 3)
    url = reverse("scene_complication", args=[d20_campaign.pk])
    assert client_for("player").post(url, {"range": 3}, **HX).status_code == 403
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range is None


@pytest.mark.parametrize("value", [0, 21, True, "3"])
def test_gl_05_an_impossible_range_is_refused(d20_campaign, gm, value):
    sessions.start_scene(d20_campaign.pk, gm)
    with pytest.raises(ServiceError, match="from 1"):
        services.set_scene_complication_range(d20_campaign.pk, gm, value)
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range is None


def test_gl_05_no_scene_no_scene_range(d20_campaign, gm):
    with pytest.raises(ServiceError, match="Start a scene first"):
        services.set_scene_complication_range(d20_campaign.pk, gm, 3)


def test_gl_05_the_gm_panel_sets_and_clears_it(d20_campaign, gm, client_for):
    sessions.start_scene(d20_campaign.pk, gm)
    client = client_for("gm")
    url = reverse("scene_complication", args=[d20_campaign.pk])
    body = client.post(url, {"range": "2"}, **HX).content.decode()
    assert 'id="gm-panel"' in body and "This scene: 2" in body
    body = client.post(url, {"range": "25"}, **HX).content.decode()
    assert 'role="alert"' in body
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range == 2
    client.post(url, {"clear": "on"}, **HX)
    d20_campaign.refresh_from_db()
    assert d20_campaign.scene_complication_range is None
    assert TableEvent.objects.filter(kind="complication_range_set").count() == 2


def test_gl_05_the_database_refuses_a_range_outside_1_to_20(d20_campaign):
    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.filter(pk=d20_campaign.pk).update(scene_complication_range=21)


# --- GL-01: the line's cap and names, chosen by the GM ------------------------------------


def test_gl_01_mo_06_the_database_holds_each_campaign_to_its_lines_cap(d20_campaign):
    for key in game_lines.LINES:
        _line(d20_campaign, key)
        with pytest.raises(IntegrityError), transaction.atomic():
            Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=7)
        Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)
    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.filter(pk=d20_campaign.pk).update(game_line="sta9")


def _narrow_line(monkeypatch, cap=4):
    narrow = dataclasses.replace(game_lines.LINES["fallout"], group_cap=cap)
    monkeypatch.setitem(game_lines.LINES, "fallout", narrow)


def test_gl_01_change_pool_caps_the_group_pool_at_the_lines_cap(d20_campaign, monkeypatch):
    """GL-01, MO-06: rules.pools applies the line's cap; the rest is lost, in the ledger."""
    _narrow_line(monkeypatch)
    _line(d20_campaign, "fallout")
    change = change_pool(lock_campaign(d20_campaign.pk), "group_momentum", 6, "saved")
    assert (change.after, change.lost) == (4, 2)


def test_gl_01_a_new_line_with_a_smaller_cap_drops_the_excess_through_the_ledger(
    d20_campaign, gm, monkeypatch
):
    _narrow_line(monkeypatch)
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)
    event = campaigns.update_campaign_settings(d20_campaign.pk, gm, {"game_line": "fallout"})
    assert event.kind == "settings_changed"
    assert event.payload["fields"] == {"game_line": ["seeds", "fallout"]}
    d20_campaign.refresh_from_db()
    assert (d20_campaign.game_line, d20_campaign.group_momentum) == ("fallout", 4)
    line = PoolChange.objects.get(pool="group_momentum")
    assert (line.delta, line.after, line.event_id) == (-2, 4, event.pk)


def test_gl_01_the_gm_chooses_the_line_on_the_settings_page(d20_campaign, client_for):
    from tests.tables.test_site_permissions import settings_data

    url = reverse("campaign_settings", args=[d20_campaign.pk])
    client_for("gm").post(url, settings_data(d20_campaign, game_line="conan"))
    d20_campaign.refresh_from_db()
    assert d20_campaign.game_line == "conan"
    event = TableEvent.objects.get(kind="settings_changed")
    assert event.payload["fields"]["game_line"] == ["seeds", "conan"]


@pytest.mark.parametrize("role", ["player", "observer"])
def test_gl_01_players_cannot_change_the_line(d20_campaign, client_for, role):
    from tests.tables.test_site_permissions import settings_data

    url = reverse("campaign_settings", args=[d20_campaign.pk])
    response = client_for(role).post(url, settings_data(d20_campaign, game_line="conan"))
    assert response.status_code == 403
    d20_campaign.refresh_from_db()
    assert d20_campaign.game_line == "seeds"


def test_gl_01_a_line_that_does_not_exist_is_refused(d20_campaign, gm, client_for):
    from tests.tables.test_site_permissions import settings_data

    url = reverse("campaign_settings", args=[d20_campaign.pk])
    body = client_for("gm").post(url, settings_data(d20_campaign, game_line="sta9"))
    assert "not one of the available choices" in body.content.decode()
    with pytest.raises(ServiceError, match="Choose one of the game lines"):
        campaigns.update_campaign_settings(d20_campaign.pk, gm, {"game_line": "sta9"})
    d20_campaign.refresh_from_db()
    assert d20_campaign.game_line == "seeds"
    assert not TableEvent.objects.filter(kind="settings_changed").exists()


def test_gl_01_the_table_names_the_pools_as_the_line_does(
    d20_campaign, gm, client_for, kara, player
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat_visible=True)
    _line(d20_campaign, "conan")
    services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", bought_dice=1),
        rng=FixedDice([5, 5, 5]),
    )
    page = client_for("gm").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert '<span class="pool-label">Doom</span>' in page
    assert "<dt>Fortune</dt>" in page
    assert ">Doom: <strong" in page  # the GM tools' heading
    assert "1 added to Doom" in page  # the test's card
    assert '<span class="change-pool">Doom</span>' in page  # its ledger line
    _line(d20_campaign, "fallout")
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert '<span class="pool-label">Action Points</span>' in page
    assert "<dt>Luck</dt>" in page


def test_gl_01_the_seeds_line_keeps_todays_names(d20_campaign, client_for, kara):
    page = client_for("gm").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert '<span class="pool-label">Momentum</span>' in page
    assert "<dt>Determination</dt>" in page
    assert ">Threat: <strong" in page


# --- export, import ----------------------------------------------------------------------


def test_gl_01_gl_05_an_export_carries_the_line_and_the_scene_range(d20_campaign, gm):
    _line(d20_campaign, "sta1")
    sessions.start_scene(d20_campaign.pk, gm)
    services.set_scene_complication_range(d20_campaign.pk, gm, 5)
    document = export_campaign(Campaign.objects.get(pk=d20_campaign.pk))
    settings = document["campaign"]
    assert (settings["game_line"], settings["scene_complication_range"]) == ("sta1", 5)
    copy = import_campaign(dumps(document))
    assert (copy.game_line, copy.scene_complication_range) == ("sta1", 5)
    assert export_campaign(copy)["campaign"] == settings


def test_gl_01_an_export_from_before_lines_imports_on_the_seeds_line(d20_campaign):
    document = export_campaign(Campaign.objects.get(pk=d20_campaign.pk))
    del document["campaign"]["game_line"], document["campaign"]["scene_complication_range"]
    copy = import_campaign(json.dumps(document))
    assert (copy.game_line, copy.scene_complication_range) == ("seeds", None)


# --- Fallout: Luck ------------------------------------------------------------------------
# Fallout: The Roleplaying Game core rulebook, Luck (public summary: the Roll20 compendium,
# "Rules: Luck"): "you start each quest with a number of Luck points equal to your Luck
# attribute"; Stacked Deck, Miss Fortune, Luck of the Draw, Lucky Timing.


def _lucky(campaign, kara, luck=9, points=2):
    _line(campaign, "fallout")
    kara.attributes.create(name="Luck", value=luck)
    Character.objects.filter(pk=kara.pk).update(determination=points)
    kara.refresh_from_db()


def test_gl_02_fallout_stacked_deck_uses_lck_for_the_target(d20_campaign, player, kara):
    """Stacked Deck: 1 Luck before a skill test, LCK replaces the attribute in the target
    number: Luck 9 + Communicate 6 = 15, not Power 7 + 6 = 13."""
    _lucky(d20_campaign, kara)
    record = _roll(d20_campaign, player, kara, [15, 14], spend_determination=True)
    assert (record.spec["attribute"], record.spec["target"]) == ("Luck", 15)
    assert record.result["faces"] == [15, 14] and record.result["successes"] == 2
    kara.refresh_from_db()
    assert kara.determination == 1
    assert "Stacked Deck" in PoolChange.objects.get(pool="determination").reason


def test_gl_02_fallout_stacked_deck_odds_are_exact(d20_campaign, kara):
    """T-05 with Stacked Deck: the preview is the rules' odds at target LCK + skill, equal
    to enumerating all 400 rolls."""
    from tests.rules.test_game_lines import _brute

    _lucky(d20_campaign, kara)
    request = services_d20.D20TestRequest(
        "Power", "Communicate", focus="Persuasion", difficulty=3, spend_determination=True
    )
    spec, odds = services_d20.preview_odds(d20_campaign, kara, request, sees_hidden=False)
    test = SkillTest(target=15, difficulty=3, focus=6)
    pass_chance, momentum, complication = _brute(test)
    assert (odds.pass_chance, odds.momentum, odds.complication_chance) == (
        pass_chance,
        momentum,
        complication,
    )
    plain = services_d20.preview_odds(
        d20_campaign,
        kara,
        dataclasses.replace(request, spend_determination=False),
        sees_hidden=False,
    )[1]
    assert plain.pass_chance < odds.pass_chance


def test_gl_02_fallout_stacked_deck_needs_a_luck_attribute(d20_campaign, player, kara):
    _line(d20_campaign, "fallout")
    with pytest.raises(ServiceError, match="no Luck / LCK attribute"):
        _roll(d20_campaign, player, kara, [5, 5], spend_determination=True)
    kara.refresh_from_db()
    assert kara.determination == 1 and not D20Test.objects.exists()


def test_gl_02_fallout_miss_fortune_rerolls_one_d20_without_the_gms_leave(
    d20_campaign, player, kara, client_for
):
    """Miss Fortune: 1 Luck after the roll rerolls one d20, no GM's leave needed; two dice
    in one spend are refused and nothing is spent."""
    _lucky(d20_campaign, kara)
    record = _roll(d20_campaign, player, kara, [20, 19])
    url = reverse("d20_panel", args=[d20_campaign.pk, record.pk])
    panel = client_for("player").get(url, **HX).content.decode()
    assert "needs the GM's leave" not in panel and "/reroll/" in panel
    with pytest.raises(ServiceError, match="at most 1 die"):
        services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [0, 1])
    kara.refresh_from_db()
    assert kara.determination == 2
    services_d20.determination_reroll(d20_campaign.pk, player, record.pk, [0], rng=FixedDice([3]))
    record.refresh_from_db()
    assert record.result["faces"] == [3, 19] and record.result["successes"] == 1
    kara.refresh_from_db()
    assert kara.determination == 1


def test_gl_02_fallout_luck_is_capped_at_lck_and_refills_each_quest(d20_campaign, gm, kara):
    """Luck points never exceed LCK; the GM's New quest sets them to LCK again; a sheet
    without LCK is left alone."""
    from tables.services.sessions import adjust_pool

    _lucky(d20_campaign, kara, luck=6, points=1)
    other = Character.objects.create(campaign=d20_campaign, owner=kara.owner, name="Zed")
    Character.objects.filter(pk=other.pk).update(determination=2)
    adjust_pool(d20_campaign.pk, gm, "determination", 9, "Lucky find", kara.pk)
    kara.refresh_from_db()
    assert kara.determination == 6
    adjust_pool(d20_campaign.pk, gm, "determination", -5, "Spent", kara.pk)
    event = services.start_new_adventure(d20_campaign.pk, gm)
    kara.refresh_from_db()
    other.refresh_from_db()
    assert (kara.determination, other.determination) == (6, 2)
    assert "New quest" in event.payload["changes"][0]["reason"]
    sessions.start_session(d20_campaign.pk, gm)  # a session is not a quest
    kara.refresh_from_db()
    assert kara.determination == 6


def test_gl_02_fallout_luck_of_the_draw_and_lucky_timing_cost_luck(
    d20_campaign, player, player2, kara
):
    """Luck of the Draw (a helpful fact: 1 Luck, or more if the GM asks) and Lucky Timing
    (act now in combat: 1 Luck) are told at the table: the app keeps their cost, with a
    ledger line and a card that says what was bought."""
    from tables.services.d20.narrative import spend_narrative

    _lucky(d20_campaign, kara, luck=8, points=4)
    event = spend_narrative(
        d20_campaign.pk, player, kara.pk, "luck_of_the_draw", points=2, note="a key"
    )
    assert event.payload["summary"] == "Kara spends 2 Luck: Luck of the Draw."
    from tables.words.wording import pool_adjusted  # the Discord card's words too

    assert pool_adjusted(event.payload) == event.payload["summary"]
    assert event.payload["changes"][0]["reason"] == "Kara: Luck of the Draw (a key)"
    spend_narrative(d20_campaign.pk, player, kara.pk, "lucky_timing")
    kara.refresh_from_db()
    assert kara.determination == 1
    with pytest.raises(ServiceError, match="not at that price"):
        spend_narrative(d20_campaign.pk, player, kara.pk, "lucky_timing", points=2)
    with pytest.raises(ServiceError, match="Not enough"):
        spend_narrative(d20_campaign.pk, player, kara.pk, "luck_of_the_draw", points=2)
    with pytest.raises(PermissionDenied):
        spend_narrative(d20_campaign.pk, player2, kara.pk, "lucky_timing")
    kara.refresh_from_db()
    assert kara.determination == 1
    assert PoolChange.objects.filter(pool="determination").count() == 2


def test_gl_02_narrative_spends_are_fallouts_only(d20_campaign, player, kara):
    from tables.services.d20.narrative import spend_narrative

    _line(d20_campaign, "sta2")
    with pytest.raises(ServiceError, match="no such Determination spend"):
        spend_narrative(d20_campaign.pk, player, kara.pk, "luck_of_the_draw")
    kara.refresh_from_db()
    assert kara.determination == 1


def test_gl_02_the_luck_form_spends_and_answers_with_the_card(d20_campaign, kara, client_for):
    _lucky(d20_campaign, kara, luck=8, points=3)
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert 'id="narrative-spends"' in page and "Luck of the Draw" in page
    url = reverse("narrative_spend", args=[d20_campaign.pk])
    data = {"character": kara.pk, "use": "lucky_timing", "points": 1, "note": ""}
    assert client_for("observer").post(url, data, **HX).status_code == 403
    body = client_for("player").post(url, data, **HX).content.decode()
    assert "Kara spends 1 Luck: Lucky Timing." in body
    body = client_for("player").post(url, {**data, "use": "dance"}, **HX).content.decode()
    assert 'role="alert"' in body
    kara.refresh_from_db()
    assert kara.determination == 2
    _line(d20_campaign, "seeds")
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert 'id="narrative-spends"' not in page


def test_gl_05_a_called_test_is_held_to_the_lines_bound(d20_campaign, gm, kara):
    """GL-05: the GM cannot call an STA 2e test with complications on 15–20."""
    from tables.models import CalledTest
    from tables.services import calls

    _line(d20_campaign, "sta2")
    kw = {"attribute": "Power", "skill": "Communicate", "difficulty": 1}
    with pytest.raises(ServiceError, match="to 5"):
        calls.call_test(d20_campaign.pk, gm, character_id=kara.pk, complication_range=6, **kw)
    assert not CalledTest.objects.exists()
    calls.call_test(d20_campaign.pk, gm, character_id=kara.pk, complication_range=5, **kw)
    assert CalledTest.objects.get().complication_range == 5


# --- GL-06: STA 2nd edition's assistants after the first -------------------------------


def _helpers(campaign, owner, *names):
    made = []
    for name in names:
        helper = Character.objects.create(campaign=campaign, owner=owner, name=name)
        helper.attributes.create(name="Power", value=6)
        helper.skills.create(name="Communicate", value=4)
        made.append(helper)
    return made


def test_gl_06_sta_2nd_edition_charges_assistants_after_the_first(
    d20_campaign, player, player2, kara
):
    """GL-06, STA 2nd ed. core p. 255: the first assistant is free; each one after costs 1
    Momentum or adds 1 Threat, paid as bought dice are (MO-08: the dice first)."""
    _line(d20_campaign, "sta2")
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=3)
    ids = [h.pk for h in _helpers(d20_campaign, player2, "Tam", "Rix", "Oda")]
    record = _roll(d20_campaign, player, kara, [5, 5, 5, 5, 5], assistants=ids[:2])
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (3, 1)  # 1 added to Threat
    assert record.spec["paid"] == {
        "cost": 1, "from_momentum": 0, "to_threat": 1, "threat_spent": 0, "assistants_paid": 1
    }  # fmt: skip
    record = _roll(
        d20_campaign, player, kara, [5] * 6, assistants=ids, bought_dice=1, buy_from_momentum=2
    )
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (1, 2)  # 1 + 2: 2 M, 1 T
    changes = record.event.payload["changes"]
    assert [c["pool"] for c in changes] == ["group_momentum", "group_momentum", "threat"]
    reasons = [c["reason"] for c in changes]
    assert reasons[0].startswith("Kara: Buy 1 bonus d20") and "after the first" in reasons[1]


def test_gl_06_other_lines_let_every_assistant_in_free(d20_campaign, player, player2, kara):
    """GL-06: the seeds' and STA 1st edition's assistance costs nothing (T-03)."""
    ids = [h.pk for h in _helpers(d20_campaign, player2, "Tam", "Rix")]
    for key in ("seeds", "sta1"):
        _line(d20_campaign, key)
        record = _roll(d20_campaign, player, kara, [5, 5, 5, 5], assistants=ids)
        assert record.spec["paid"]["cost"] == 0
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (0, 0)


def test_gl_06_paying_more_than_the_cost_is_refused_and_nothing_moves(
    d20_campaign, player, player2, kara
):
    _line(d20_campaign, "sta2")
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=3)
    ids = [h.pk for h in _helpers(d20_campaign, player2, "Tam", "Rix")]
    with pytest.raises(ServiceError, match="between 0 and 1 of the 1"):
        _roll(d20_campaign, player, kara, [5] * 4, assistants=ids, buy_from_momentum=2)
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (3, 0)
    assert not D20Test.objects.exists()


def test_gl_06_the_gm_pays_an_npcs_extra_assistant_from_threat(d20_campaign, gm, marcus):
    _line(d20_campaign, "sta2")
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat=2)
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    ids = [h.pk for h in _helpers(d20_campaign, gm, "Guard", "Aide")]
    record = _roll(d20_campaign, gm, marcus, [5] * 4, assistants=ids)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 1 and record.spec["paid"]["threat_spent"] == 1


def test_gl_06_the_odds_preview_and_the_card_count_the_assistant(
    d20_campaign, player, player2, kara, client_for
):
    """The composer says what the extra assistant costs before the roll; the card after."""
    from tests.tables.d20_posts import roll_data

    _line(d20_campaign, "sta2")
    ids = [h.pk for h in _helpers(d20_campaign, player2, "Tam", "Rix")]
    url = reverse("d20_odds", args=[d20_campaign.pk])
    data = roll_data(kara, assistants=ids, bought_dice=1, buy_from_momentum=0)
    html = client_for("player").get(url, data, **HX).content.decode()
    assert "1 assistant after the first costs 1." in html
    assert "In all 2: 0 from group Momentum, 2 added to Threat." in html
    _roll(d20_campaign, player, kara, [5] * 5, assistants=ids, bought_dice=1)
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert "1 bought d20 and 1 assistant after the first" in page
    assert "The first assistant is free; each after costs 1 from group Momentum" in page
    _line(d20_campaign, "sta1")
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert "The first assistant is free" not in page

"""2d20 play over HTTP, as htmx sends it (HX-Request: true): the returned fragments,
the clear messages for refusals, and the role checks.

Dice are chosen by replacing the engine's default random source with FixedDice.
"""

import re
from html import unescape

import pytest
from django.db.models import F
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Campaign, Character, D20Test, PoolChange, TableEvent
from tables.services import d20 as services_d20
from tests.html_forms import drawn_fields, form_fields
from tests.tables.d20_posts import roll_data

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dice(d20_faces):
    """dice([faces…]): the next d20s rolled by the server show these faces."""
    return d20_faces


def text(response) -> str:
    """The response body with HTML entities decoded (don&#x27;t → don't)."""
    return unescape(response.content.decode())


def head(campaign):
    campaign.refresh_from_db()
    return campaign.last_seq


def pools(campaign):
    campaign.refresh_from_db()
    return campaign.group_momentum, campaign.threat


def post(client, name, args, data=None):
    return client.post(reverse(name, args=args), data or {}, **HX)


def roll_url(campaign):
    return reverse("d20_roll", args=[campaign.pk])


@pytest.fixture
def kara_test(d20_campaign, player, kara):
    """Kara's passed test: 2 and 5 with her Persuasion focus → 4 successes, 1 Momentum."""
    return services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=3
        ),
        rng=FixedDice([2, 5]),
    )


# --- the composer and the odds (T-05) --------------------------------------------------------


def test_t_05_odds_preview_shows_pass_momentum_and_complication_chances(
    client_for, d20_campaign, kara
):
    url = reverse("d20_odds", args=[d20_campaign.pk])
    response = client_for("player").get(url, roll_data(kara), **HX)
    assert response.status_code == 200
    html = text(response)
    assert 'id="d20-odds"' in html
    assert "Target <strong>13</strong>" in html
    assert "87.8%" in html  # 1 − (7/20)²
    assert "0.52" in html  # expected Momentum
    assert "9.8%" in html  # 1 − (19/20)²


def test_mo_08_odds_preview_shows_the_cost_split(client_for, d20_campaign, kara):
    url = reverse("d20_odds", args=[d20_campaign.pk])
    data = roll_data(kara, bought_dice=2, buy_from_momentum=1)
    html = text(client_for("player").get(url, data, **HX))
    assert "Bought dice cost 3: 1 from group Momentum, 2 added to Threat" in html
    html = text(client_for("player").get(url, roll_data(kara, bought_dice=4), **HX))
    assert "At most 3 bonus d20s may be bought for one test." in html


def test_composer_is_on_the_table_page_with_the_target_and_npcs_for_gms(
    client_for, d20_campaign, kara, marcus
):
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    assert 'id="d20-composer"' in page and "Target <strong>13</strong>" in page
    assert "Marcus (NPC)</option>" not in page
    page = text(client_for("gm").get(reverse("table", args=[d20_campaign.pk])))
    assert "Marcus (NPC)</option>" in page and 'name="secret"' in page


def test_composer_redraws_for_another_character(client_for, d20_campaign, kara, marcus):
    marcus.attributes.create(name="Cunning", value=9)
    marcus.skills.create(name="Deceive", value=4)
    url = reverse("d20_composer", args=[d20_campaign.pk])
    html = text(client_for("gm").get(url, {"character": marcus.pk}, **HX))
    assert 'id="d20-play"' in html and "Cunning 9" in html and "Power 7" not in html


# --- rolling ------------------------------------------------------------------------------


def test_roll_returns_the_composers_changed_parts_the_spend_panel_and_the_log_entry(
    client_for, d20_campaign, kara, dice
):
    dice([2, 5])
    seq = head(d20_campaign)
    response = client_for("player").post(
        roll_url(d20_campaign), roll_data(kara, focus="Persuasion", difficulty=3), **HX
    )
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # every part is out of band (issue 38)
    html = text(response)
    assert 'id="d20-play"' not in html and 'id="d20-composer"' not in html
    assert re.search(r'<section id="spend-panel"[^>]*hx-swap-oob="true"', html)
    assert "4 successes" in html
    assert "Kara</strong> has <strong>1</strong> Momentum" in html
    assert 'hx-swap-oob="afterbegin:#roll-log"' in html and f'id="event-{seq + 1}"' in html
    event = TableEvent.objects.get(campaign=d20_campaign, seq=seq + 1)
    assert (event.kind, event.audience) == ("d20_test", "all")


def test_t_r1_a_sheet_changed_after_the_page_read_it_is_rolled_as_it_is_under_the_lock(
    client_for, d20_campaign, gm, kara, dice, monkeypatch
):
    """T-R1: the GM lowers Kara's Communicate 6 -> 2 after the page was drawn, as the
    roll's POST arrives, before it takes the table's lock: the target is Power 7 + 2 = 9,
    not the 13 the page showed, so 10 and 12 score nothing, and the answer shows the
    roll as made."""
    load = services_d20.load_test

    def gm_edits_the_sheet_first(*args, **kwargs):
        kara.skills.filter(name="Communicate").update(value=2)
        # ...and appends its event, as every command does.
        Campaign.objects.filter(pk=d20_campaign.pk).update(last_seq=F("last_seq") + 1)
        return load(*args, **kwargs)

    monkeypatch.setattr(services_d20, "load_test", gm_edits_the_sheet_first)
    dice([10, 12])
    response = client_for("player").post(roll_url(d20_campaign), roll_data(kara), **HX)
    assert response.status_code == 200
    made = D20Test.objects.get()
    assert (made.spec["target"], made.result["successes"], made.result["passed"]) == (9, 0, False)
    assert "(target 9)" in text(response)


def test_roll_without_htmx_goes_back_to_the_table(client_for, d20_campaign, kara, dice):
    dice([2, 5])
    response = client_for("player").post(roll_url(d20_campaign), roll_data(kara))
    assert response.status_code == 302 and response.url == reverse("table", args=[d20_campaign.pk])
    assert D20Test.objects.count() == 1


def test_mo_08_buying_dice_through_the_composer_splits_the_cost(
    client_for, d20_campaign, kara, dice
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=2, threat=1)
    dice([20, 20, 20, 20])
    response = client_for("player").post(
        roll_url(d20_campaign),
        roll_data(kara, bought_dice=2, buy_from_momentum=2, expected_momentum=2),
        **HX,
    )
    assert response.status_code == 200
    assert pools(d20_campaign) == (0, 2)
    event = D20Test.objects.get().event
    assert [(c.pool, c.delta) for c in PoolChange.objects.filter(event=event).order_by("id")] == [
        ("group_momentum", -2),
        ("threat", 1),
    ]


def test_mo_08_a_fourth_die_gets_a_clear_message_and_changes_nothing(
    client_for, d20_campaign, kara, dice
):
    dice([1] * 6)
    seq = head(d20_campaign)
    response = client_for("player").post(
        roll_url(d20_campaign), roll_data(kara, bought_dice=4), **HX
    )
    html = text(response)
    assert response.status_code == 200
    assert 'role="alert">At most 3 bonus d20s may be bought for one test.' in html
    assert head(d20_campaign) == seq and not D20Test.objects.exists()


def test_mo_08_stale_composer_gets_a_clear_message_and_changes_nothing(
    client_for, d20_campaign, kara, dice
):
    """The pool changed since the composer was drawn (someone spent meanwhile)."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=0)
    dice([1, 1, 1])
    seq = head(d20_campaign)
    response = client_for("player").post(
        roll_url(d20_campaign),
        roll_data(kara, bought_dice=1, buy_from_momentum=1, expected_momentum=3),
        **HX,
    )
    html = text(response)
    assert "The group Momentum pool holds 0; this needs 1. Nothing was spent." in html
    assert head(d20_campaign) == seq and pools(d20_campaign) == (0, 0)
    # The redrawn composer now carries the current pool, so a resubmit works.
    assert 'name="expected_momentum" value="0"' in html


def test_a_roll_on_someone_elses_character_is_refused_with_a_message(
    client_for, d20_campaign, kara, dice
):
    dice([1, 1])
    seq = head(d20_campaign)
    response = client_for("player2").post(roll_url(d20_campaign), roll_data(kara), **HX)
    assert response.status_code == 200
    assert "That character is not yours to roll for." in text(response)
    assert head(d20_campaign) == seq


def test_bad_input_gets_a_clear_message(client_for, d20_campaign, kara, dice):
    dice([1, 1])
    response = client_for("player").post(
        roll_url(d20_campaign), roll_data(kara, difficulty=9, skill="Fight"), **HX
    )
    html = text(response)
    assert 'role="alert"' in html and "less than or equal to 5" in html
    assert not D20Test.objects.exists()


@pytest.mark.parametrize("role, status", [("observer", 403), ("outsider", 403)])
def test_observers_and_outsiders_cannot_roll(client_for, d20_campaign, kara, role, status):
    response = client_for(role).post(roll_url(d20_campaign), roll_data(kara), **HX)
    assert response.status_code == status
    assert not D20Test.objects.exists()


def test_anonymous_is_sent_to_log_in(client_for, d20_campaign, kara):
    response = client_for("anonymous").post(roll_url(d20_campaign), roll_data(kara), **HX)
    assert response.status_code == 302 and "/login/" in response.url
    response = client_for("anonymous").get(reverse("d20_odds", args=[d20_campaign.pk]))
    assert response.status_code == 302


def test_observer_and_outsider_cannot_preview_odds(client_for, d20_campaign, kara):
    url = reverse("d20_odds", args=[d20_campaign.pk])
    assert client_for("observer").get(url, roll_data(kara)).status_code == 403
    assert client_for("outsider").get(url, roll_data(kara)).status_code == 403


# --- the spend panel ------------------------------------------------------------------------


def test_mo_11_spend_a_question_then_gm_refunds_you_dont_know(client_for, d20_campaign, kara_test):
    args = [d20_campaign.pk, kara_test.pk]
    response = post(
        client_for("player"),
        "d20_spend",
        args,
        {"kind": "obtain_information", "note": "Is he here to kill someone?", "to_threat": 0},
    )
    html = text(response)
    assert response.status_code == 200 and 'id="spend-panel"' in html
    assert "Obtain Information: 1 Momentum (1 from the roll) “Is he here to kill someone?”" in html
    assert 'data-kind="d20_spend"' in html  # the log entry rides along
    # The player sees no GM buttons; the GM does.
    assert "You don't know" not in html
    gm_html = text(client_for("gm").get(reverse("d20_panel", args=args), **HX))
    assert "“You don't know”: refund" in gm_html and "Veto" in gm_html
    # A player cannot refund or veto.
    assert post(client_for("player"), "d20_refund", args + [0]).status_code == 403
    assert post(client_for("player"), "d20_veto", args + [0]).status_code == 403
    response = post(client_for("gm"), "d20_refund", args + [0])
    assert "refunded: the answer was “you don't know” (MO-11)" in text(response)
    kara_test.refresh_from_db()
    assert kara_test.ledger["roll_momentum"] == 1


def test_mo_02_spending_momentum_that_is_not_there_gets_a_message(
    client_for, d20_campaign, kara_test
):
    args = [d20_campaign.pk, kara_test.pk]
    seq = head(d20_campaign)
    response = post(
        client_for("player"), "d20_spend", args, {"kind": "create_trait", "to_threat": 0}
    )
    html = text(response)
    assert (
        'role="alert"' in html
        and "The group Momentum pool holds 0; this needs 1. Nothing was spent." in html
    )
    assert head(d20_campaign) == seq


def test_mo_02_stale_spend_panel_gets_a_message_and_changes_nothing(
    client_for, d20_campaign, kara_test
):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=0)
    args = [d20_campaign.pk, kara_test.pk]
    seq = head(d20_campaign)
    response = post(
        client_for("player"),
        "d20_spend",
        args,
        {"kind": "create_trait", "from_pool": 2, "to_threat": 0, "expected_momentum": 2},
    )
    html = text(response)
    assert "The group Momentum pool holds 0; this needs 2. Nothing was spent." in html
    assert head(d20_campaign) == seq and pools(d20_campaign) == (0, 0)
    # The redrawn panel carries the pool as it is now.
    assert 'name="expected_momentum" value="0"' in html


def test_mo_12_gm_vetoes_a_spend_through_the_panel(client_for, d20_campaign, kara_test):
    args = [d20_campaign.pk, kara_test.pk]
    post(client_for("player"), "d20_spend", args, {"kind": "obtain_information"})
    response = post(client_for("gm"), "d20_veto", args + [0], {"reason": "Off topic"})
    assert "vetoed by the GM: Off topic (MO-12)" in text(response)


def test_another_player_sees_the_panel_without_controls(client_for, d20_campaign, kara_test):
    url = reverse("d20_panel", args=[d20_campaign.pk, kara_test.pk])
    html = text(client_for("player2").get(url, **HX))
    assert "4 successes" in html and 'name="kind"' not in html and ">Done<" not in html
    html = text(client_for("observer").get(url, **HX))
    assert "4 successes" in html and 'name="kind"' not in html
    assert client_for("outsider").get(url, **HX).status_code == 403
    response = post(client_for("player2"), "d20_spend", [d20_campaign.pk, kara_test.pk],
                    {"kind": "obtain_information"})  # fmt: skip
    assert response.status_code == 403


def test_t_04_determination_reroll_through_the_panel(client_for, d20_campaign, kara, dice, player):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=2),
        rng=FixedDice([4, 19]),
    )
    args = [d20_campaign.pk, test.pk]
    html = text(client_for("player").get(reverse("d20_panel", args=args), **HX))
    assert "needs the GM's leave" in html
    html = text(post(client_for("gm"), "d20_permit", args))
    assert "Allow Determination" not in html and "Reroll (1 Determination)" in html
    assert post(client_for("player"), "d20_permit", args).status_code == 403
    html = text(client_for("player").get(reverse("d20_panel", args=args), **HX))
    assert 'name="dice" value="1"' in html
    dice([1])
    response = post(client_for("player"), "d20_reroll", args, {"dice": [1]})
    html = text(response)
    assert "3 successes" in html and 'data-kind="d20_reroll"' in html
    kara.refresh_from_db()
    assert kara.determination == 0
    response = post(client_for("player"), "d20_reroll", args, {})
    assert "Choose which of your dice to reroll." in text(response)


def test_mo_04_done_saves_and_reports_what_was_lost(client_for, d20_campaign, kara, player):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=5)
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1),
        rng=FixedDice([1, 1]),
    )
    response = post(client_for("player"), "d20_resolve", [d20_campaign.pk, test.pk])
    html = text(response)
    assert "1 saved to the group pool; 2 lost (pool full)" in html
    assert 'data-kind="d20_resolved"' in html and "Lost: 2 (2 over the pool" in html
    assert pools(d20_campaign) == (6, 0)
    response = post(client_for("player"), "d20_resolve", [d20_campaign.pk, test.pk])
    assert "already been resolved" in text(response)


def test_tb_03_players_cannot_open_a_secret_test(client_for, d20_campaign, gm, marcus):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        marcus.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
        rng=FixedDice([3, 4]),
    )
    url = reverse("d20_panel", args=[d20_campaign.pk, test.pk])
    assert client_for("player").get(url, **HX).status_code == 404
    assert client_for("gm").get(url, **HX).status_code == 200
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    assert "d20_test" not in page
    page = text(client_for("gm").get(reverse("table", args=[d20_campaign.pk])))
    assert 'data-kind="d20_test"' in page and "GM only" in page


def test_tb_03_gm_rolls_secretly_from_the_composer(client_for, d20_campaign, marcus, dice):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    dice([3, 4])
    data = roll_data(marcus, secret="on")
    response = client_for("gm").post(roll_url(d20_campaign), data, **HX)
    assert response.status_code == 200
    test = D20Test.objects.get()
    assert test.secret and test.event.audience == "gm"


def test_tb_03_a_players_secret_flag_is_ignored(client_for, d20_campaign, kara, dice):
    """Players have no secret field: a hand-made one changes nothing."""
    dice([3, 4])
    client_for("player").post(roll_url(d20_campaign), roll_data(kara, secret="on"), **HX)
    test = D20Test.objects.get()
    assert not test.secret and test.event.audience == "all"


def test_ct_04_the_opposers_momentum_is_on_the_gms_panel_not_the_players(
    client_for, d20_campaign, gm, player, kara, marcus
):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([1, 2]),
    )  # fmt: skip
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", contest_id=contest.pk),
        rng=FixedDice([12, 18]),
    )
    panel_url = reverse("d20_panel", args=[d20_campaign.pk, test.pk])
    gm_html = text(client_for("gm").get(panel_url, **HX))
    # The rule IDs sit in the markers' titles, out of the words (issue 14).
    assert re.search(
        r'Marcus gains 2 Momentum and may spend it at once<a [^>]*title="Rule CT-04"', gm_html
    )
    assert 'name="kind"' in gm_html
    assert re.search(r'2 unspent goes to Threat<a [^>]*title="Rule CT-R1"', gm_html)
    assert 'name="to_threat"' not in gm_html  # a GM character pays no costs in Threat
    player_html = text(client_for("player").get(panel_url, **HX))
    assert "Marcus gains 2 Momentum" in player_html
    assert 'name="kind"' not in player_html and ">Done<" not in player_html
    response = post(client_for("gm"), "d20_resolve", [d20_campaign.pk, test.pk])
    assert "Marcus wins the contest" in text(response)
    assert pools(d20_campaign) == (0, 2)


# --- the composer between rolls ---------------------------------------------------------------

# What the composer keeps after a roll (D20RollForm.after_roll): the page keeps these as
# chosen, the answer does not draw them (issue 38).
KEPT = ("character", "attribute", "skill", "focus", "difficulty")


def composer_parts(answer: str) -> str:
    """The answer's parts of the composer form (composer_d20_rolled.html draws them
    before the open tests and the spend panel, whose forms are their own)."""
    return answer.split('id="d20-open-tests"', 1)[0]


@pytest.fixture
def dastan(d20_campaign, player2):
    """Another player's character, who may assist Kara (T-03)."""
    character = Character.objects.create(campaign=d20_campaign, owner=player2, name="Dastan")
    character.attributes.create(name="Power", value=6)
    character.skills.create(name="Communicate", value=3)
    return character


def test_after_a_roll_the_composer_keeps_the_test_and_drops_what_it_bought(
    client_for, d20_campaign, kara, dastan, dice
):
    """Character, attribute, skill, focus and Difficulty stay (try again, or be helped);
    bought dice, assistants, bonus Momentum and factors start afresh, so nothing is
    bought again unasked."""
    kara.attributes.create(name="Awareness", value=5)  # sorted first: the old default
    kara.skills.create(name="Battle", value=2)
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=1)
    dice([20, 20, 20, 20])
    data = roll_data(
        kara, focus="Persuasion", difficulty=3, harder=1, bought_dice=1, buy_from_momentum=1,
        expected_momentum=1, assistants=[dastan.pk], bonus_momentum=2,
    )  # fmt: skip
    html = text(client_for("player").post(roll_url(d20_campaign), data, **HX))
    assert 'role="alert"' not in html and D20Test.objects.count() == 1
    # What to roll is not drawn again (issue 38): the page keeps the person's choices.
    drawn = drawn_fields(composer_parts(html))
    assert not set(KEPT) & set(drawn)
    # What it bought is drawn again, cleared.
    assert drawn["bought_dice"] == ["0"] and drawn["buy_from_momentum"] == ["0"]
    assert drawn["bonus_momentum"] == ["0"] and drawn["harder"] == ["0"]
    assert f'name="assistants" value="{dastan.pk}"' in html and "assistants" not in drawn
    assert drawn["expected_momentum"] == ["0"]  # the pool the bought die emptied
    # The odds shown are the kept test's: Power 7 + Communicate 6, Difficulty 3.
    odds = html[html.index('id="d20-odds"') :]
    assert "Target <strong>13</strong> (Power + Communicate)" in odds
    assert "Difficulty <strong>3</strong>" in odds


def test_the_answer_shows_the_odds_its_reset_composer_asks_for(
    client_for, d20_campaign, gm, kara, marcus, dice
):
    """T-05, CT-01: the odds drawn with a roll's answer are those the reset composer
    fetches for itself: the test kept (Difficulty 3), no longer the contest just
    answered (whose Difficulty was the opposer's)."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    dice([1, 1, 3, 4])
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate"
    )
    assert contest.difficulty != 3
    client = client_for("player")
    data = roll_data(kara, difficulty=3, contest=contest.pk)
    answer = text(client.post(roll_url(d20_campaign), data, **HX))
    assert 'role="alert"' not in answer
    assert D20Test.objects.get(role="active").contest_id == contest.pk
    # The composer as the page now has it: the choices kept, the parts the answer drew.
    reset = {key: [str(data[key])] for key in KEPT} | drawn_fields(composer_parts(answer))
    assert reset.get("contest", [""]) == [""] and reset["difficulty"] == ["3"]
    fetched = text(client.get(reverse("d20_odds", args=[d20_campaign.pk]), reset, **HX))
    assert "Difficulty <strong>3</strong>" in fetched
    # The same odds, drawn out of band in the answer.
    assert fetched.strip().split(">", 1)[1] in answer


def test_after_a_gm_roll_the_secret_box_is_clear_again(client_for, d20_campaign, marcus, dice):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    dice([3, 4])
    html = text(client_for("gm").post(roll_url(d20_campaign), roll_data(marcus, secret="on"), **HX))
    assert D20Test.objects.get().secret
    drawn = drawn_fields(composer_parts(html))
    assert "character" not in drawn  # left as chosen
    assert 'name="secret"' in html and "secret" not in drawn


# The parts of the composer a roll's answer draws again, out of band (issue 38), and the
# form's among them, which carry data-reset (static/tables/drafts.js keeps nothing typed).
FORM_PARTS = (
    "d20-contest-part",
    "d20-target-part",
    "d20-bought",
    "d20-bonus-for",
    "d20-secret-part",
    "d20-odds",
)
ROLLED_PARTS = FORM_PARTS + ("d20-messages", "composer-traits", "d20-open-tests", "spend-panel")


def test_a_roll_answers_with_the_parts_it_changed_each_of_them_in_the_page(
    client_for, d20_campaign, kara, dastan, dice
):
    """Issue 38: a roll's answer is the composer's parts it changed, out of band, and
    the page the person rolled from has each (htmx drops a part with nowhere to go);
    the messages come back empty, so a refusal's words do not outlive the roll."""
    client = client_for("player")
    page = text(client.get(reverse("table", args=[d20_campaign.pk])))
    dice([2, 5])
    html = text(client.post(roll_url(d20_campaign), roll_data(kara), **HX))
    swapped = re.findall(r'<[a-z]+\b[^>]*?\sid="([\w-]+)"[^>]*hx-swap-oob="true"', html)
    assert set(ROLLED_PARTS) <= set(swapped)
    assert [part for part in ROLLED_PARTS if f'id="{part}"' not in page] == []
    for part in FORM_PARTS:
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true" data-reset', html), part
    assert '<div id="d20-messages" hx-swap-oob="true"></div>' in html
    assert 'name="character"' not in html and 'name="skill"' not in html


def test_after_a_roll_the_composer_shows_the_pools_the_roll_left(
    client_for, d20_campaign, kara, dastan, dice
):
    """What the roll paid from shows as it is now: the group pool (in its words and in
    expected_momentum, so the next roll is not refused as stale) and the roller's
    Determination (GL-03); the target and the Determination box start afresh."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=3, game_line="sta2")
    dice([20, 20])
    data = roll_data(
        kara, bought_dice=1, buy_from_momentum=1, expected_momentum=3,
        spend_determination="on", target=dastan.pk,
    )  # fmt: skip
    html = text(client_for("player").post(roll_url(d20_campaign), data, **HX))
    assert 'role="alert"' not in html and D20Test.objects.get().result["faces"][0] == 1
    drawn = drawn_fields(composer_parts(html))
    assert drawn["expected_momentum"] == ["2"] and "(pool 2; the rest adds to Threat)" in html
    assert "(holds 0)" in html and "spend_determination" not in drawn
    assert drawn["target"] == [""]


def test_the_composer_shows_the_viewers_own_character_first(
    client_for, d20_campaign, gm, player, kara, dastan, marcus
):
    """Players: their own first PC; GMs: the first NPC (else the first character)."""
    Character.objects.create(campaign=d20_campaign, owner=gm, name="Aaron")  # sorts first
    page = text(client_for("player2").get(reverse("table", args=[d20_campaign.pk])))
    assert form_fields(page, "d20-composer")["character"] == [str(dastan.pk)]
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    assert form_fields(page, "d20-composer")["character"] == [str(kara.pk)]
    page = text(client_for("gm").get(reverse("table", args=[d20_campaign.pk])))
    assert form_fields(page, "d20-composer")["character"] == [str(marcus.pk)]
    marcus.delete()
    page = text(client_for("gm").get(reverse("table", args=[d20_campaign.pk])))
    assert form_fields(page, "d20-composer")["character"] == [
        str(Character.objects.get(name="Aaron").pk)
    ]


def test_t_03_a_player_cannot_call_the_gms_npc_to_assist(
    client_for, d20_campaign, kara, dastan, marcus, dice
):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    form = page[page.index('id="d20-composer"') :]
    assert f'name="assistants" value="{dastan.pk}"' in form
    assert f'name="assistants" value="{marcus.pk}"' not in form
    dice([1, 1, 1, 1])
    seq, before = head(d20_campaign), pools(d20_campaign)
    response = client_for("player").post(
        roll_url(d20_campaign), roll_data(kara, assistants=[marcus.pk]), **HX
    )
    html = text(response)
    assert response.status_code == 200
    assert (
        'role="alert">Marcus is the GM\'s NPC: only the GM can call on an NPC to assist.</p>'
        in html
        and "T-03" not in html  # a player's page has no rule marks by default (issue 37)
    )
    assert head(d20_campaign) == seq and pools(d20_campaign) == before
    assert not D20Test.objects.exists()
    # The GM may: Marcus is theirs to call.
    page = text(client_for("gm").get(reverse("d20_composer", args=[d20_campaign.pk]),
                                     {"character": kara.pk}, **HX))  # fmt: skip
    assert f'name="assistants" value="{marcus.pk}"' in page
    response = client_for("gm").post(
        roll_url(d20_campaign), roll_data(kara, assistants=[marcus.pk]), **HX
    )
    assert 'role="alert"' not in text(response)
    assert D20Test.objects.get().spec["assistants"][0]["name"] == "Marcus"


# --- the spend panel and the log, in words ------------------------------------------------------


def test_spend_kinds_read_as_name_and_price(client_for, d20_campaign, kara_test):
    panel_url = reverse("d20_panel", args=[d20_campaign.pk, kara_test.pk])
    html = text(client_for("player").get(panel_url, **HX))
    assert 'Create Trait <span class="spend-cost">— 2 Momentum</span>' in html
    assert (
        'Obtain Information <span class="spend-cost">— 1 Momentum per question (repeatable)</span>'
        in html
    )


def test_spends_made_say_where_each_point_came_from(client_for, gm, d20_campaign, kara_test):
    """MO-02, MO-13: 'Create Trait: 2 Momentum (1 from the group pool, 1 added to Threat)'."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=2)
    args = [d20_campaign.pk, kara_test.pk]
    post(client_for("player"), "d20_spend", args, {"kind": "obtain_information"})
    response = post(
        client_for("player"),
        "d20_spend",
        args,
        {"kind": "create_trait", "from_pool": 1, "to_threat": 1, "note": "Loyal"},
    )
    html = text(response)
    assert "Obtain Information: 1 Momentum (1 from the roll)" in html
    assert "Create Trait: 2 Momentum (1 from the group pool, 1 added to Threat) “Loyal”" in html
    assert "Kara spends 2 Momentum on Create Trait: Loyal (1 from the group pool, " in html
    assert "1 added to Threat)." in html
    assert " pool)" not in html.replace("group pool)", "")  # no bare "(1, 1 pool)"
    assert " roll)" not in html.replace("the roll)", "")


def test_open_tests_read_in_plain_words(client_for, d20_campaign, kara_test):
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    open_tests = page[page.index('class="d20-open-tests"') :]
    assert "Kara · 4 successes vs Difficulty 3 · 1 Momentum left</button>" in open_tests
    assert "Kara: 4 vs 3" not in page


def test_the_log_entry_opens_the_spend_panel_with_a_real_button(
    client_for, d20_campaign, kara_test
):
    """It loads the test into the spend panel and scrolls there: a button that looks
    like one, not a link that goes nowhere."""
    page = text(client_for("player").get(reverse("table", args=[d20_campaign.pk])))
    entry = page[page.index(f'id="event-{kara_test.event.seq}"') :]
    entry = entry[: entry.index("</li>")]
    button = entry[entry.index('<button type="button" class="small d20-open"') :]
    button = button[: button.index("</button>")]
    assert 'hx-target="#spend-panel"' in button
    assert 'hx-swap="outerHTML show:#spend-panel:top"' in button
    assert button.endswith(">Open in the spend panel") and 'class="link' not in button


def test_a_spend_in_the_log_says_what_momentum_is_left(client_for, d20_campaign, player, kara):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=1
        ),
        rng=FixedDice([2, 5]),
    )
    html = text(
        post(client_for("player"), "d20_spend", [d20_campaign.pk, test.pk],
             {"kind": "obtain_information"})
    )  # fmt: skip
    assert "Kara spends 1 Momentum on Obtain Information (1 from the roll)." in html
    assert "Kara has 2 Momentum left." in html


@pytest.mark.parametrize(
    ("language", "shown"), [("en", "87.8%"), ("de", "87,8\u00a0%"), ("fr", "87,8\u00a0%")]
)
def test_t_05_the_odds_read_in_the_readers_number_format(language, shown):
    """Issue 35: a percentage with the locale's decimal mark and its sign's spacing."""
    from fractions import Fraction

    from django.utils import translation

    from tables.words import wording

    with translation.override(language):
        assert wording.percent(1 - Fraction(7, 20) ** 2) == shown

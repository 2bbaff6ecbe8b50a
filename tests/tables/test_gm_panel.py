"""The GM panel on the table page, over HTTP as htmx sends it, and its services.

Threat (MO-13), pools by hand, session and scene (PM-01, MO-07), contests
(CT-01, CT-02), secret rolls (TB-03), Determination leave (T-04) and custom
spends (MO-14). Everyone but a GM gets a 403 and changes nothing.
"""

from html import unescape

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Campaign, Contest, CustomSpend, PoolChange, TableEvent
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.core import ServiceError

HX = {"HTTP_HX_REQUEST": "true"}


def text(response) -> str:
    return unescape(response.content.decode())


def head(campaign):
    campaign.refresh_from_db()
    return campaign.last_seq


def pools(campaign):
    campaign.refresh_from_db()
    return campaign.group_momentum, campaign.threat


def set_pools(campaign, **fields):
    Campaign.objects.filter(pk=campaign.pk).update(**fields)
    campaign.refresh_from_db()


def url(name, campaign, *args):
    return reverse(name, args=[campaign.pk, *args])


def table_page(client, campaign) -> str:
    return text(client.get(reverse("table", args=[campaign.pk])))


@pytest.fixture
def marcus_sheet(marcus):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    return marcus


# --- who sees the panel ------------------------------------------------------------------


def test_the_panel_is_on_the_table_page_for_gms_only(client_for, d20_campaign):
    for role in ("gm", "cogm"):
        assert 'id="gm-panel"' in table_page(client_for(role), d20_campaign)
    for role in ("player", "observer"):
        assert 'id="gm-panel"' not in table_page(client_for(role), d20_campaign)


@pytest.mark.parametrize(
    "role, status",
    [("gm", 200), ("cogm", 200), ("player", 403), ("observer", 403), ("outsider", 403)],
)
def test_gm_panel_fragment_by_role(client_for, d20_campaign, role, status):
    assert client_for(role).get(url("gm_panel", d20_campaign), **HX).status_code == status


def test_anonymous_is_sent_to_log_in(client_for, d20_campaign):
    response = client_for("anonymous").post(url("gm_threat", d20_campaign), {}, **HX)
    assert response.status_code == 302 and "/login/" in response.url


POSTS = [
    ("gm_threat", {"action": "spend", "amount": 1, "reason": "x"}),
    ("gm_threat", {"action": "add", "amount": 1, "reason": "x"}),
    ("gm_threat_visible", {"visible": "on"}),
    ("gm_pool", {"pool": "group_momentum", "delta": 2, "reason": "x"}),
    ("gm_session_start", {}),
    ("gm_scene_end", {}),
    ("gm_contest", {"opposer": 0, "active": 0, "attribute": "a", "skill": "b"}),
    ("gm_spend_save", {"name": "Disarm", "cost": 2}),
]


@pytest.mark.parametrize("name, data", POSTS)
@pytest.mark.parametrize("role", ["player", "observer", "outsider"])
def test_mo_13_only_gms_use_the_panel_players_get_403_and_nothing_changes(
    client_for, d20_campaign, name, data, role
):
    """MO-13 among others: a player spending Threat or adjusting pools is refused (403)."""
    set_pools(d20_campaign, threat=3, group_momentum=2)
    seq = head(d20_campaign)
    response = client_for(role).post(url(name, d20_campaign), data, **HX)
    assert response.status_code == 403
    assert head(d20_campaign) == seq and pools(d20_campaign) == (2, 3)
    d20_campaign.refresh_from_db()
    assert not d20_campaign.threat_visible


def test_mo_13_player_spending_threat_is_refused_by_the_service(d20_campaign, player, gm):
    set_pools(d20_campaign, threat=3)
    with pytest.raises(PermissionDenied):
        services_gm.spend_threat(d20_campaign.pk, player, 1, "Ambush")
    with pytest.raises(PermissionDenied):
        services_gm.add_threat(d20_campaign.pk, player, 1, "Helping the GM")
    assert pools(d20_campaign) == (0, 3)


# --- Threat ------------------------------------------------------------------------------


def test_mo_13_gm_adds_and_spends_threat_with_a_reason(client_for, d20_campaign):
    seq = head(d20_campaign)
    gm = client_for("gm")
    response = gm.post(
        url("gm_threat", d20_campaign),
        {"action": "add", "amount": 3, "reason": "The guards are alerted", "expected": 0},
        **HX,
    )
    html = text(response)
    assert response.status_code == 200 and 'id="gm-panel"' in html
    assert 'class="gm-threat">3<' in html
    assert "The GM adds 3 Threat: The guards are alerted" in html  # the log entry
    added = TableEvent.objects.get(campaign=d20_campaign, seq=seq + 1)
    # Threat is hidden from players by default: its changes are GM-only (MO-13).
    assert (added.kind, added.audience) == ("threat_added", "gm")
    change = PoolChange.objects.get(event=added)
    assert (change.pool, change.delta, change.after, change.reason) == (
        "threat",
        3,
        3,
        "The guards are alerted",
    )
    response = gm.post(
        url("gm_threat", d20_campaign),
        {"action": "spend", "amount": 2, "reason": "Reinforcements", "expected": 3},
        **HX,
    )
    assert 'class="gm-threat">1<' in text(response)
    spent = TableEvent.objects.get(campaign=d20_campaign, seq=seq + 2)
    assert spent.kind == "threat_spent" and PoolChange.objects.get(event=spent).delta == -2
    assert pools(d20_campaign) == (0, 1)
    assert "Reinforcements" not in table_page(client_for("player"), d20_campaign)


def test_mo_13_spending_threat_that_is_not_there_gets_a_message(client_for, d20_campaign):
    set_pools(d20_campaign, threat=1)
    seq = head(d20_campaign)
    response = client_for("gm").post(
        url("gm_threat", d20_campaign), {"action": "spend", "amount": 2, "reason": "x"}, **HX
    )
    assert "Threat holds 1; this needs 2. Nothing was spent." in text(response)
    assert head(d20_campaign) == seq and pools(d20_campaign) == (0, 1)


def test_stale_threat_form_gets_a_message_and_changes_nothing(client_for, d20_campaign):
    """The page showed 4 Threat, there is 1 now: a spend of 2 is no longer covered."""
    set_pools(d20_campaign, threat=1)
    seq = head(d20_campaign)
    response = client_for("gm").post(
        url("gm_threat", d20_campaign),
        {"action": "spend", "amount": 2, "reason": "x", "expected": 4},
        **HX,
    )
    html = text(response)
    assert "Threat holds 1; this needs 2. Nothing was spent." in html
    assert 'class="gm-threat">1<' in html  # the redrawn panel shows what there is now
    assert head(d20_campaign) == seq and pools(d20_campaign) == (0, 1)


def test_stale_threat_form_still_covered_goes_through(client_for, d20_campaign):
    """Threat moved since the page was drawn, but still covers the spend: no refusal."""
    set_pools(d20_campaign, threat=4)
    seq = head(d20_campaign)
    response = client_for("gm").post(
        url("gm_threat", d20_campaign),
        {"action": "spend", "amount": 1, "reason": "x", "expected": 2},
        **HX,
    )
    assert "your page showed" not in text(response)
    assert head(d20_campaign) == seq + 1 and pools(d20_campaign) == (0, 3)


def test_threat_form_needs_a_reason(client_for, d20_campaign):
    response = client_for("gm").post(
        url("gm_threat", d20_campaign), {"action": "add", "amount": 1, "reason": "  "}, **HX
    )
    assert "This field is required." in text(response) or "Say why" in text(response)
    assert pools(d20_campaign) == (0, 0)
    with pytest.raises(ServiceError, match="Give a reason"):
        services_gm.add_threat(d20_campaign.pk, d20_campaign.owner, 1, " ")


def test_mo_13_threat_is_shown_to_players_only_when_the_gm_says(client_for, d20_campaign, gm):
    set_pools(d20_campaign, threat=5)
    player = client_for("player")
    assert 'class="pool pool--threat"' not in table_page(player, d20_campaign)
    response = client_for("gm").post(
        url("gm_threat_visible", d20_campaign), {"visible": "on"}, **HX
    )
    assert "Players now see Threat." in text(response)
    event = TableEvent.objects.filter(campaign=d20_campaign).order_by("-seq").first()
    assert (event.kind, event.audience) == ("settings_changed", "all")
    assert 'class="pool pool--threat"' in table_page(player, d20_campaign)
    # Now Threat changes reach everyone.
    added = services_gm.add_threat(d20_campaign.pk, gm, 1, "Storm")
    assert added.audience == "all"
    client_for("gm").post(url("gm_threat_visible", d20_campaign), {}, **HX)
    assert 'class="pool pool--threat"' not in table_page(player, d20_campaign)


# --- pools, session, scene -------------------------------------------------------------------


def test_gm_adjusts_any_pool_with_a_reason(client_for, d20_campaign, kara):
    gm = client_for("gm")
    response = gm.post(
        url("gm_pool", d20_campaign),
        {"pool": "determination", "character": kara.pk, "delta": 1, "reason": "Drive challenged"},
        **HX,
    )
    assert "Pool changed." in text(response)
    kara.refresh_from_db()
    assert kara.determination == 2
    response = gm.post(
        url("gm_pool", d20_campaign),
        {"pool": "group_momentum", "delta": -1, "reason": "oops"},
        **HX,
    )
    assert "Not enough Group Momentum: 0 available, 1 needed." in text(response)
    response = gm.post(url("gm_pool", d20_campaign), {"pool": "group_momentum", "delta": 1}, **HX)
    assert "This field is required." in text(response)


def test_mo_07_start_session_and_end_scene_from_the_panel(client_for, d20_campaign):
    set_pools(d20_campaign, group_momentum=3)
    gm = client_for("gm")
    html = text(gm.post(url("gm_session_start", d20_campaign), **HX))
    assert "Session 1 started." in html and "Session 1 running" in html
    html = text(gm.post(url("gm_scene_end", d20_campaign), **HX))
    assert "Scene 1 ended." in html
    assert 'data-kind="scene_ended"' in html
    assert pools(d20_campaign) == (2, 0)


def test_mo_09b_a_kept_trait_id_that_is_no_number_is_ignored_not_a_500(client_for, d20_campaign):
    """ "²" passes str.isdigit() but not int(): the scene still ends, keeping nothing."""
    gm = client_for("gm")
    gm.post(url("gm_session_start", d20_campaign), **HX)
    response = gm.post(url("gm_scene_end", d20_campaign), {"keep_trait": ["²", "١"]}, **HX)
    assert response.status_code == 200
    assert "Scene 1 ended." in text(response)


# --- contests ----------------------------------------------------------------------------


def test_ct_01_gm_rolls_the_opposer_and_the_difficulty_reaches_the_composer(
    client_for, d20_campaign, kara, marcus_sheet, monkeypatch
):
    import rules.d20

    source = FixedDice([1, 3, 10])
    monkeypatch.setattr(rules.d20, "_rng", lambda rng: source if rng is None else rng)
    set_pools(d20_campaign, threat=2)
    response = client_for("gm").post(
        url("gm_contest", d20_campaign),
        {
            "opposer": marcus_sheet.pk,
            "active": kara.pk,
            "attribute": "Power",
            "skill": "Communicate",
            "bought_dice": 1,
            "hindrances": 0,
        },
        **HX,
    )
    html = text(response)
    assert "Marcus opposes Kara: 4 successes. Kara needs Difficulty 4." in html
    assert 'data-kind="contest_opened"' in html
    assert "Marcus vs Kara: Difficulty 4" in html
    assert pools(d20_campaign) == (0, 1)  # Marcus's die was bought with Threat
    composer = text(client_for("player").get(url("d20_composer", d20_campaign), **HX))
    assert "Against Marcus (Difficulty 4)" in composer
    contest = Contest.objects.get()
    html = text(client_for("gm").post(url("gm_contest_cancel", d20_campaign, contest.pk), **HX))
    assert "is called off" in html
    contest.refresh_from_db()
    assert contest.state == Contest.State.CANCELLED


def test_ct_01_contest_form_errors_are_clear(client_for, d20_campaign, kara, marcus_sheet):
    response = client_for("gm").post(
        url("gm_contest", d20_campaign),
        {"opposer": kara.pk, "active": kara.pk, "attribute": "Power", "skill": "Communicate",
         "bought_dice": 0, "hindrances": 0},
        **HX,
    )  # fmt: skip
    assert "A character cannot oppose themselves." in text(response)
    response = client_for("gm").post(
        url("gm_contest", d20_campaign),
        {"opposer": marcus_sheet.pk, "active": kara.pk, "attribute": "Grace",
         "skill": "Communicate", "bought_dice": 0, "hindrances": 0},
        **HX,
    )  # fmt: skip
    assert "Marcus has no attribute called “Grace”." in text(response)
    assert not Contest.objects.exists()


# --- secret rolls (TB-03) --------------------------------------------------------------------


def test_tb_03_secret_rolls_are_listed_and_revealed_from_the_panel(
    client_for, d20_campaign, gm, marcus_sheet
):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        marcus_sheet.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
        rng=FixedDice([3, 4]),
    )
    html = text(client_for("gm").get(url("gm_panel", d20_campaign), **HX))
    assert "Secret rolls (1)" in html and "Marcus · 2 successes vs Difficulty 1" in html
    assert "Marcus rolls" not in table_page(client_for("player"), d20_campaign)
    assert client_for("player").post(url("gm_reveal", d20_campaign, test.pk)).status_code == 403
    html = text(client_for("gm").post(url("gm_reveal", d20_campaign, test.pk), **HX))
    assert "Roll revealed." in html and 'data-kind="roll_revealed"' in html
    revealed = TableEvent.objects.filter(campaign=d20_campaign).order_by("-seq").first()
    assert (revealed.kind, revealed.audience) == ("roll_revealed", "all")
    assert "reveals a secret roll: Marcus scored 2 successes" in table_page(
        client_for("player"), d20_campaign
    )
    html = text(client_for("gm").post(url("gm_reveal", d20_campaign, test.pk), **HX))
    assert "That roll is already revealed." in html


# --- custom spends (MO-14) ---------------------------------------------------------------


def test_mo_14_gm_adds_and_removes_custom_spends(client_for, d20_campaign, player, kara):
    gm = client_for("gm")
    html = text(
        gm.post(
            url("gm_spend_save", d20_campaign),
            {"name": "Called Shot", "cost": 2, "repeatable": "", "description": "Aim"},
            **HX,
        )
    )
    assert "Called Shot added." in html and "Called Shot (2)" in html
    assert 'data-kind="custom_spend_saved"' in html
    html = text(
        gm.post(url("gm_spend_save", d20_campaign), {"name": "called shot", "cost": 1}, **HX)
    )
    assert "There is already a spend called “called shot”." in html
    html = text(gm.post(url("gm_spend_save", d20_campaign), {"name": "", "cost": 0}, **HX))
    assert "This field is required." in html
    assert CustomSpend.objects.count() == 1

    # Players find it on their spend panel.
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
        rng=FixedDice([1, 1]),
    )
    panel = text(client_for("player").get(url("d20_panel", d20_campaign, test.pk), **HX))
    assert 'value="custom:called_shot"' in panel and "Called Shot" in panel

    spend = CustomSpend.objects.get()
    html = text(gm.post(url("gm_spend_delete", d20_campaign, spend.pk), **HX))
    assert "Momentum spend removed: Called Shot." in html
    assert not CustomSpend.objects.exists()
    html = text(gm.post(url("gm_spend_delete", d20_campaign, spend.pk), **HX))
    assert "There is no such custom spend." in html


# --- Momenta campaigns ---------------------------------------------------------------------


def test_momenta_campaign_panel_includes_the_momenta_tools_not_threat(client_for, momenta_campaign):
    html = text(client_for("gm").get(url("gm_panel", momenta_campaign), **HX))
    assert 'id="gm-panel"' in html and "Start session" in html
    assert "Add Threat" not in html and "Roll the opposer" not in html


# --- wording -----------------------------------------------------------------------------


def test_one_success_reads_as_one_success_everywhere(
    client_for, d20_campaign, gm, player, kara, marcus_sheet
):
    """The log's sentences count like English: 1 success, 2 successes, 1 die."""
    # Marcus, target 12: 10 scores 1, 15 nothing. Difficulty 1 for Kara.
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power",
        skill="Communicate", rng=FixedDice([10, 15]),
    )  # fmt: skip
    opened = TableEvent.objects.get(campaign=d20_campaign, kind="contest_opened")
    assert opened.payload["summary"] == "Marcus opposes Kara: 1 success. Kara needs Difficulty 1."
    page = table_page(client_for("player"), d20_campaign)
    assert "Marcus opposes Kara: 1 success." in page and "1 successes" not in page
    # Kara, target 13 without her focus: 13 scores 1, 20 nothing; one die rerolled.
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", contest_id=contest.pk),
        rng=FixedDice([13, 20]),
    )
    assert (
        "Communicate (target 13): 1 success against Difficulty 1, passes"
        in (test.event.payload["summary"])
    )
    services_gm.permit_determination(d20_campaign.pk, gm, test.pk)
    reroll = services_d20.determination_reroll(
        d20_campaign.pk, player, test.pk, [1], rng=FixedDice([19])
    )
    assert "to reroll 1 die: 1 → 1 success, passes." in reroll.payload["summary"]
    # A secret roll, revealed: "scored 1 success".
    secret = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        marcus_sheet.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
        rng=FixedDice([10, 15]),
    )
    revealed = services_gm.reveal_test(d20_campaign.pk, gm, secret.pk)
    assert "Marcus scored 1 success against Difficulty 1" in revealed.payload["summary"]
    page = table_page(client_for("gm"), d20_campaign)
    assert "1 successes" not in page and "1 dice" not in page

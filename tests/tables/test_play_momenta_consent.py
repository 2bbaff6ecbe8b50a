"""Issue 11, Momenta: the helper's consent to an Assist (PM-08), the rulings PM-09, PM-10
with PM-11/PM-02 and RS-01, what a player may declare (edges, Disadvantage, trauma),
LUCK asked as an attack (D6-11), and who sets a sheet's pools (PM-13).

Dice are injected (rules.dice.FixedDice). Each refusal is checked to change nothing.
Fixtures: Ash (hero, `player`'s, WITS 4, Resolve 3/4) and Bo (sidekick, `player2`'s).
"""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import frames
from tables.live import render as live
from tables.models import AssistRequest, Campaign, Character, MomentaRoll, PoolChange, TableEvent
from tables.services import momenta, sessions
from tables.services.characters import Sheet, save_character
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest
from tables.templatetags.momenta import roll_card

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def roll(campaign, actor, character, faces, **kw):
    kw.setdefault("attribute", "WITS")
    return momenta.roll_momenta(
        campaign.pk, actor, character.pk, RollRequest(**kw), rng=FixedDice(faces)
    )


def pools(campaign):
    return {c.name: (c.momentum, c.resolve) for c in Character.objects.filter(campaign=campaign)}


def ledger(event):
    return sorted(
        PoolChange.objects.filter(event=event).values_list("character__name", "pool", "delta")
    )


def snapshot(campaign):
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        pools(campaign),
        PoolChange.objects.count(),
        MomentaRoll.objects.count(),
        list(AssistRequest.objects.values_list("state", "helper_agreed")),
    )


def declare(campaign, allowed=True):
    Campaign.objects.filter(pk=campaign.pk).update(players_declare_edges=allowed)


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm):
    """A session has started: Ash and Bo hold 3 Momentum (PM-01)."""
    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


@pytest.fixture
def npc(momenta_campaign, gm):
    return Character.objects.create(campaign=momenta_campaign, owner=gm, name="Gull", is_npc=True)


def asked(table, player, hero, sidekick):
    """Ash's player asks for Bo's help: Bo's player has not answered yet."""
    return momenta.request_assist(table.pk, player, hero.pk, sidekick.pk)


# --- PM-08: the helper's consent ---------------------------------------------------------


def test_pm_08_the_gms_acceptance_alone_never_spends_the_helpers_momentum(
    table, gm, player, player2, hero, sidekick
):
    """Ash's player asks for Bo; the GM accepts; the roll is refused and nothing moves
    until Bo's player agrees; only then is Bo's point spent."""
    assist = asked(table, player, hero, sidekick)
    assert assist.helper_agreed is False
    assert "Bo's player and the GM decide" in assist.event.payload["summary"]
    accepted = momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    # The log says whose word is still missing (PM-08).
    assert "Bo's player has yet to agree" in accepted.event.payload["summary"]
    before = snapshot(table)
    with pytest.raises(ServiceError, match="Bo has not agreed"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    assert snapshot(table) == before
    agreed = momenta.answer_as_helper(table.pk, player2, assist.pk, agree=True)
    event = agreed.event
    assert (event.kind, event.audience, event.payload["agreed"]) == ("assist_consent", "all", True)
    assert ledger(event) == [] and pools(table)["Bo"] == (3, 2)  # agreeing spends nothing
    made = roll(table, player, hero, [1, 2, 3, 4, 6], assist_id=assist.pk)
    assert made.result["pool"] == 5
    assert ledger(made.event) == [("Bo", "momentum", -1)]
    assert AssistRequest.objects.get(pk=assist.pk).state == AssistRequest.State.USED


def test_pm_08_the_helper_may_agree_before_the_gm_accepts(
    table, gm, player, player2, hero, sidekick
):
    assist = asked(table, player, hero, sidekick)
    momenta.answer_as_helper(table.pk, player2, assist.pk, agree=True)
    with pytest.raises(ServiceError, match="accepted"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    made = roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    assert ledger(made.event) == [("Bo", "momentum", -1)]


def test_pm_08_a_helper_who_declines_moves_no_point(table, gm, player, player2, hero, sidekick):
    assist = asked(table, player, hero, sidekick)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    declined = momenta.answer_as_helper(table.pk, player2, assist.pk, agree=False)
    assert declined.state == AssistRequest.State.DECLINED
    assert ledger(declined.event) == [] and "declines" in declined.event.payload["summary"]
    before = snapshot(table)
    with pytest.raises(ServiceError, match="declined"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    assert snapshot(table) == before
    assert pools(table) == {"Ash": (3, 3), "Bo": (3, 2)}


def test_pm_08_only_the_helpers_player_answers_for_a_player_character(
    table, gm, player, player2, hero, sidekick
):
    assist = asked(table, player, hero, sidekick)
    before = snapshot(table)
    for someone_else in (player, gm):  # the roller's player; the GM, who controls every sheet
        with pytest.raises(PermissionDenied, match="Only Bo's player"):
            momenta.answer_as_helper(table.pk, someone_else, assist.pk, agree=True)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")  # the GM's word is the GM's
    assert AssistRequest.objects.get(pk=assist.pk).helper_agreed is False
    assert snapshot(table)[0] == before[0] + [(before[0][-1][0] + 1, "assist_answered")]


def test_pm_08_an_offer_from_the_helpers_side_is_agreed_and_the_gm_speaks_for_an_npc(
    table, gm, player, player2, hero, sidekick, npc
):
    offered = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    assert offered.helper_agreed is True and "The GM decides." in offered.event.payload["summary"]
    momenta.answer_assist(table.pk, gm, offered.pk, "decline")
    from_npc = asked(table, player, hero, npc)
    assert from_npc.helper_agreed is False
    accepted = momenta.answer_assist(table.pk, gm, from_npc.pk, "accept")
    assert AssistRequest.objects.get(pk=from_npc.pk).helper_agreed is True
    assert "yet to agree" not in accepted.event.payload["summary"]


def test_pm_08_the_helpers_answer_is_a_registered_event_pushed_and_replayed(
    table, gm, player, player2, hero, sidekick
):
    """TB-01/TB-04: the consent is an event of its own, in order, for everyone; the push
    to players makes their Assist panel fetch itself again, the GM's carries the queue."""
    assist = asked(table, player, hero, sidekick)
    agreed = momenta.answer_as_helper(table.pk, player2, assist.pk, agree=True).event
    assert [kind for _, kind in snapshot(table)[0][-2:]] == ["assist_requested", "assist_consent"]
    players = live.render_event_fragments(agreed, "all")
    assert 'id="live-sync-assists"' in players
    assert reverse("momenta_assists", args=[table.pk]) in players
    assert "Bo agrees to pay 1 Momentum for Ash&#x27;s Advantage" in players
    gms = live.render_event_fragments(agreed, "gm")
    assert 'id="momenta-assist-queue"' in gms and "Bo agreed to pay" in gms
    assert 'id="live-sync-assists"' not in gms
    replayed = frames.events_after(table.pk, agreed.seq - 1, "all", viewer=None)
    assert [(seq, kind) for seq, kind, _ in replayed] == [(agreed.seq, "assist_consent")]


def test_pm_08_the_helpers_player_gets_accept_and_decline_on_their_own_panel(
    table, client_for, player, hero, sidekick
):
    assist = asked(table, player, hero, sidekick)
    answer_url = reverse("momenta_assist_answer", args=[table.pk, assist.pk])
    panel = client_for("player2").get(reverse("momenta_assists", args=[table.pk]), **HX)
    html = panel.content.decode()
    assert panel.status_code == 200 and 'id="momenta-assists"' in html
    assert answer_url in html and 'value="agree"' in html and 'value="refuse"' in html
    assert "waiting for Bo's player" in html
    roller_panel = client_for("player").get(reverse("momenta_assists", args=[table.pk]), **HX)
    assert 'value="agree"' not in roller_panel.content.decode()
    assert (
        client_for("observer").get(reverse("momenta_assists", args=[table.pk])).status_code == 403
    )


def test_pm_08_agreeing_over_http_is_the_helpers_players_alone(
    table, client_for, player, hero, sidekick
):
    assist = asked(table, player, hero, sidekick)
    answer_url = reverse("momenta_assist_answer", args=[table.pk, assist.pk])
    before = snapshot(table)
    for role in ("player", "gm"):
        assert client_for(role).post(answer_url, {"answer": "agree"}, **HX).status_code == 403
    assert snapshot(table) == before
    html = client_for("player2").post(answer_url, {"answer": "agree"}, **HX).content.decode()
    assert 'data-kind="assist_consent"' in html
    assert AssistRequest.objects.get(pk=assist.pk).helper_agreed is True


# --- PM-10 with PM-11 and PM-02 -----------------------------------------------------------


def test_pm_10_pm_11_pm_02_a_failed_helper_test_leaves_the_disadvantage_standing(
    table, gm, player, player2, hero, sidekick
):
    """Ash (WITS 4) rolls with Disadvantage and Bo's Assist; the GM's test for Bo failed:
    the help never landed, so 4 - 1 = 3 dice, Ash gains 1, Bo spends nothing."""
    declare(table)
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "call_test")
    momenta.answer_assist(table.pk, gm, assist.pk, "test_failed")
    made = roll(table, player, hero, [5, 2, 1], assist_id=assist.pk, disadvantage=True)
    assert made.result["faces"] == [5, 2, 1] and made.result["pool"] == 3
    assert made.card["disadvantage"] is True and made.card["cancelled"] is False
    assert ledger(made.event) == [("Ash", "momentum", 1)]
    assert pools(table) == {"Ash": (4, 3), "Bo": (3, 2)}
    assert AssistRequest.objects.get(pk=assist.pk).state == AssistRequest.State.FAILED
    notes = roll_card(made.card)["momentum_notes"]
    assert any("PM-10" in n for n in notes) and any("PM-02" in n for n in notes)


# --- RS-01 ----------------------------------------------------------------------------------


@pytest.fixture
def bo_resolve(sidekick):
    Character.objects.filter(pk=sidekick.pk).update(resolve=2, resolve_max=3)


def test_rs_01_an_ally_who_assists_beside_the_rollers_own_advantage_spends_resolve(
    table, gm, player, player2, hero, sidekick, bo_resolve
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    made = roll(
        table,
        player,
        hero,
        [1, 2, 3, 4, 6],
        advantage_sources=["boon"],
        assist_id=assist.pk,
        resolve_spend=[(sidekick.pk, 1)],
    )
    assert made.result["pool"] == 5  # one Advantage (PM-06, PM-08)
    assert ledger(made.event) == [("Ash", "momentum", -1), ("Bo", "resolve", -1)]
    assert made.spec["resolve_spent"] == [[sidekick.pk, 1]]


def test_pm_06_a_characteristic_beside_an_accepted_assist_is_paid_by_the_helpers_1(
    table, gm, player, player2, hero, sidekick
):
    """PM-06, PM-08: one Advantage at the cheapest cost, the Assist's 1 from Bo; Ash
    pays nothing for the characteristic, and the Assist is used because it paid."""
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    before = pools(table)
    made = roll(
        table, player, hero, [1, 2, 3, 4, 6], advantage_sources=["characteristic"],
        assist_id=assist.pk,
    )  # fmt: skip
    assert made.result["pool"] == 5  # one Advantage
    assert ledger(made.event) == [("Bo", "momentum", -1)]
    assist.refresh_from_db()
    assert assist.state == AssistRequest.State.USED
    after = pools(table)
    assert after["Ash"] == before["Ash"]
    assert after["Bo"][0] == before["Bo"][0] - 1


def test_rs_01_a_helper_whose_called_test_failed_spends_no_resolve(
    table, gm, player, player2, hero, sidekick, bo_resolve
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "call_test")
    momenta.answer_assist(table.pk, gm, assist.pk, "test_failed")
    before = snapshot(table)
    with pytest.raises(ServiceError, match="Only the roller and an ally whose Assist landed"):
        roll(table, player, hero, [1] * 4, assist_id=assist.pk, resolve_spend=[(sidekick.pk, 1)])
    assert snapshot(table) == before


# --- PM-09 ------------------------------------------------------------------------------------


def test_pm_09_a_structured_roll_uses_the_helpers_action_whatever_the_assist_said(
    table, gm, player, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk, structured=False)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    made = roll(table, player, hero, [1] * 5, assist_id=assist.pk, play="structured")
    assert made.card["assist_uses_action"] is True
    assert any("PM-09" in n for n in roll_card(made.card)["momentum_notes"])
    # Asked "in structured time", then rolled in narrative play: no action is used.
    again = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk, structured=True)
    momenta.answer_assist(table.pk, gm, again.pk, "accept")
    calm = roll(table, player, hero, [1] * 5, assist_id=again.pk, play="narrative")
    assert calm.card["assist_uses_action"] is False


# --- What a player declares (PM-02, PM-03, PM-05): the GM's call by default -------------------


def test_by_default_a_player_cannot_declare_disadvantage_an_edge_or_trauma(table, gm, player, hero):
    assert Campaign.objects.get(pk=table.pk).players_declare_edges is False
    before = snapshot(table)
    with pytest.raises(ServiceError, match="the GM calls Disadvantage"):
        roll(table, player, hero, [1] * 3, disadvantage=True)
    with pytest.raises(ServiceError, match="the GM calls a GM-called edge"):
        roll(table, player, hero, [1] * 5, advantage_sources=["situational"])
    with pytest.raises(ServiceError, match="the GM records trauma"):
        momenta.record_trauma(table.pk, player, hero.pk, 2)
    assert snapshot(table) == before
    # The GM calls them for the player's character; the character gains as the rules say.
    made = roll(table, gm, hero, [1] * 3, disadvantage=True)
    assert ledger(made.event) == [("Ash", "momentum", 1)]
    assert ledger(momenta.record_trauma(table.pk, gm, hero.pk, 1)) == [("Ash", "momentum", 1)]


def test_a_campaign_may_let_players_declare_them(table, gm, player, hero):
    declare(table)
    made = roll(table, player, hero, [1] * 3, disadvantage=True)
    assert ledger(made.event) == [("Ash", "momentum", 1)]
    assert ledger(momenta.record_trauma(table.pk, player, hero.pk, 1)) == [("Ash", "momentum", 1)]


def test_the_composer_says_why_a_players_disadvantage_is_refused(table, client_for, hero):
    before = snapshot(table)
    data = {
        "character": hero.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "disadvantage": "on",
        "expected_momentum": 3,
        "expected_resolve": 3,
    }
    response = client_for("player").post(reverse("momenta_roll", args=[table.pk]), data, **HX)
    assert response.status_code == 200
    assert "At this table the GM calls Disadvantage" in response.content.decode()
    assert snapshot(table) == before


def test_the_setting_is_the_gms_on_the_settings_page(client_for, table):
    page = client_for("gm").get(reverse("campaign_settings", args=[table.pk])).content.decode()
    assert 'name="players_declare_edges"' in page


# --- D6-11: LUCK asked as an attack -------------------------------------------------------------


def test_d6_11_luck_asked_as_an_attack_is_refused_not_turned_into_a_luck_roll(
    table, player, hero, client_for
):
    before = snapshot(table)
    with pytest.raises(ServiceError, match="LUCK makes luck rolls only"):
        roll(table, player, hero, [5, 5], attribute="LUCK", kind="attack")
    data = {"character": hero.pk, "attribute": "LUCK", "kind": "attack", "play": "narrative"}
    response = client_for("player").post(reverse("momenta_roll", args=[table.pk]), data, **HX)
    assert "LUCK makes luck rolls only, never an attack" in response.content.decode()
    assert snapshot(table) == before
    # Asked as what it is, LUCK still makes its luck roll.
    assert roll(table, player, hero, [5, 1], attribute="LUCK").spec["kind"] == "luck"


# --- PM-13: a sheet's pools are the rules' and the GM's ---------------------------------------


def edit_data(character, **overrides):
    """What the edit page posts back (a disabled input is not posted by a browser)."""
    data = {"name": character.name, "notes": "", "resolve_max": character.resolve_max}
    for prefix in ("attributes", "threads"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return data | overrides


def test_a_player_cannot_set_their_own_momentum_or_resolve(table, client_for, hero):
    url = reverse("character_edit", args=[table.pk, hero.pk])
    page = client_for("player").get(url).content.decode()
    assert 'name="momentum"' in page and "disabled" in page.split('name="momentum"')[1][:80]
    assert "Changes through play and the GM" in page
    before = snapshot(table)
    for pool, value in (("momentum", 6), ("resolve", 4)):
        data = edit_data(hero, **{pool: value, f"initial-{pool}": getattr(hero, pool)})
        response = client_for("player").post(url, data)
        assert response.status_code == 400
        assert "changes through play and the GM, not the sheet" in response.content.decode()
        assert snapshot(table) == before
    # The rest of the sheet is theirs: the save goes through, the pools stay.
    assert client_for("player").post(url, edit_data(hero, notes="Scarred")).status_code == 302
    hero.refresh_from_db()
    assert (hero.notes, hero.momentum, hero.resolve) == ("Scarred", 3, 3)


def test_the_service_refuses_a_players_pool_change_and_ignores_new_sheet_pools(table, player, hero):
    fields = {"name": "Ash", "notes": "", "resolve_max": 4, "momentum": 6}
    with pytest.raises(ServiceError, match="Ash's Momentum changes through play and the GM"):
        save_character(table.pk, player, Sheet(fields, touched={"momentum": 3}), hero.pk)
    fresh = {"name": "Cass", "notes": "", "momentum": 6, "resolve": 0, "resolve_max": 2}
    cass = save_character(table.pk, player, Sheet(fresh))
    assert (cass.momentum, cass.resolve) == (3, 2)  # PM-01, full Resolve


def test_the_gm_still_sets_a_pool_on_the_sheet_with_a_ledger_line(table, client_for, hero):
    url = reverse("character_edit", args=[table.pk, hero.pk])
    data = edit_data(hero, momentum=5, resolve=3, **{"initial-momentum": 3, "initial-resolve": 3})
    assert client_for("gm").post(url, data).status_code == 302
    line = PoolChange.objects.get(reason="Sheet edited")
    assert (line.character_id, line.pool, line.delta, line.after) == (hero.pk, "momentum", 2, 5)


def test_a_players_composer_offers_only_what_they_may_declare(table, client_for):
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert 'value="situational"' not in page and 'value="boon"' in page
    box = (
        page.split('name="disadvantage"')[0].rsplit("<input", 1)[1]
        + page.split('name="disadvantage"')[1].split(">")[0]
    )
    assert "disabled" in box
    assert "Record trauma" not in page and "The GM records trauma" in page
    declare(table)
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert 'value="situational"' in page and "Record trauma" in page

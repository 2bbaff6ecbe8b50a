"""An attack's target (SC-02): named with the roll, applied by the GM once the roll has
resolved, Bonus Damage bought with Momentum where the line has it, and taken back when the
GM voids the roll. Every refusal changes nothing (events, tracks, ledgers, pools)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import (
    Campaign,
    Character,
    D20Test,
    HarmEntry,
    HarmTrack,
    MomentaRoll,
    TableEvent,
)
from tables.policy.game_lines import catalogue
from tables.services import corrections, harm, momenta, sessions
from tables.services import d20 as services_d20
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest
from tests.html_forms import form_fields
from tests.races import race
from tests.tables.d20_posts import roll_data
from tests.tables.test_harm import attack, snapshot

pytestmark = pytest.mark.django_db


def pools(campaign):
    row = Campaign.objects.get(pk=campaign.pk)
    return row.group_momentum, row.threat


@pytest.fixture
def raider(momenta_campaign, gm):
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True)
    npc.attributes.create(name="FIGHT", value=4)
    return npc


@pytest.fixture
def fight(momenta_campaign, gm, hero, raider):
    sessions.start_session(momenta_campaign.pk, gm)
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12)
    return momenta_campaign


SOLID_HIT = [6, 6, 5, 2, 5, 1]  # 4 dice, 2 opposition: 2 effective, band 3, Double 6: +6


def test_d6_09_pat_06_the_target_named_with_the_roll_takes_the_damage_including_n(
    fight, gm, hero, raider
):
    """D6-09/PAT-06 (SC-02): the Raider's attack names Ash as it is rolled; Solid Hit's +6
    with the band's 3 is 9; the GM confirms without naming anyone, Ash's track takes 9 and
    the roll's card records the harm event."""
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2, target_id=hero.pk)
    assert (made.card["target_id"], made.card["target"]) == (hero.pk, "Ash")
    assert TableEvent.objects.get(pk=made.event_id).payload["target"] == "Ash"
    event = harm.apply_momenta_hit(fight.pk, gm, made.pk)
    assert event.payload["target_id"] == hero.pk and event.payload["dealt"] == 9
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 9
    made.refresh_from_db()
    assert made.card["hit_seq"] == event.seq


def test_sc_02_a_target_is_refused_outside_the_campaign_for_oneself_or_on_an_action(
    fight, gm, hero, raider, d20_campaign, kara
):
    before = snapshot(fight), MomentaRoll.objects.count()
    cases = [
        ({"target_id": kara.pk}, "not in this campaign"),
        ({"target_id": raider.pk}, "themself"),
    ]
    for extra, message in cases:
        with pytest.raises(ServiceError, match=message):
            attack(fight, gm, raider, SOLID_HIT, **extra)
    action = RollRequest(attribute="FIGHT", kind="action", target_id=hero.pk)
    with pytest.raises(ServiceError, match="Only an attack"):
        momenta.roll_momenta(fight.pk, gm, raider.pk, action, rng=FixedDice(SOLID_HIT))
    assert (snapshot(fight), MomentaRoll.objects.count()) == before


def test_sc_02_a_roll_without_a_target_needs_the_gm_to_name_one(fight, gm, hero, raider):
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2)
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="Choose the target"):
        harm.apply_momenta_hit(fight.pk, gm, made.pk)
    assert snapshot(fight) == before


def test_sc_02_voiding_an_attack_takes_its_harm_back(fight, gm, hero, raider):
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2, target_id=hero.pk)
    hit = harm.apply_momenta_hit(fight.pk, gm, made.pk)
    void = corrections.void_event(fight.pk, gm, made.event.seq, "Wrong target")
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 0
    undo = TableEvent.objects.get(campaign=fight, seq=void.seq + 1)
    assert undo.kind == "harm_applied" and undo.audience == hit.audience
    assert undo.payload["moves"][0]["delta"] == -9 and "Wrong target" in undo.payload["reason"]
    assert list(HarmEntry.objects.filter(event=undo).values_list("delta", "after")) == [(-9, 0)]
    # A voided roll deals nothing again.
    before = snapshot(fight)
    with pytest.raises(ServiceError):
        harm.apply_momenta_hit(fight.pk, gm, made.pk)
    assert snapshot(fight) == before


def test_sc_02_a_voided_roll_is_never_applied(fight, gm, hero, raider):
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2, target_id=hero.pk)
    corrections.void_event(fight.pk, gm, made.event.seq, "Misclick")
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="voided"):
        harm.apply_momenta_hit(fight.pk, gm, made.pk)
    assert snapshot(fight) == before


def test_sc_02_a_void_the_track_cannot_give_back_exactly_is_refused_whole(fight, gm, hero, raider):
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2, target_id=hero.pk)
    harm.apply_momenta_hit(fight.pk, gm, made.pk)
    harm.recover(fight.pk, gm, hero.pk, "harm", 5, "Bandaged")
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="recovered since"):
        corrections.void_event(fight.pk, gm, made.event.seq, "Wrong target")
    assert snapshot(fight) == before
    assert TableEvent.objects.get(pk=made.event_id).voided_by_id is None


@pytest.mark.django_db(transaction=True)
def test_sc_02_two_gms_confirming_one_hit_at_once_apply_it_once(fight, gm, cogm, hero, raider):
    made = attack(fight, gm, raider, SOLID_HIT, opposition_pool=2, target_id=hero.pk)
    results = race(
        lambda: harm.apply_momenta_hit(fight.pk, gm, made.pk),
        lambda: harm.apply_momenta_hit(fight.pk, cogm, made.pk),
    )
    assert sorted(results) == ["ok", "refused"]
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 9
    assert HarmEntry.objects.filter(momenta_roll=made, hit=True).count() == 1


# --- 2d20: the target, Bonus Damage, the void ----------------------------------------------


@pytest.fixture
def sta(d20_campaign, gm, kara, marcus):
    Campaign.objects.filter(pk=d20_campaign.pk).update(game_line="sta1", group_momentum=0)
    d20_campaign.refresh_from_db()
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "stress", 8)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "injuries", 2)
    return d20_campaign


def aimed(campaign, actor, character, target, faces=(1, 1), difficulty=1):
    """Kara's attack at `target` (Power 7 + Communicate 6): two 1s with the focus, 4 successes."""
    request = services_d20.D20TestRequest(
        attribute="Power",
        skill="Communicate",
        focus="Persuasion",
        difficulty=difficulty,
        target_id=target.pk,
    )
    return services_d20.roll_d20_test(
        campaign.pk, actor, character.pk, request, rng=FixedDice(list(faces))
    )


def test_sc_02_bonus_damage_is_on_the_catalogue_of_lines_whose_books_have_it(
    d20_campaign, gm, kara
):
    """STA 1e's "Combat Momentum Spends": Bonus Damage, 1, repeatable, +1 damage each;
    the seeds name none (a GM adds it as a custom spend, MO-14)."""
    assert "bonus_damage" not in catalogue(d20_campaign)
    for line in ("sta1", "sta2", "conan", "achtung"):
        d20_campaign.game_line = line
        spend = catalogue(d20_campaign)["bonus_damage"]
        assert (spend.cost, spend.repeatable) == (1, True)
    for line in ("fallout", "dune"):
        d20_campaign.game_line = line
        assert "bonus_damage" not in catalogue(d20_campaign)


def test_sc_02_bonus_damage_bought_counts_in_the_hit_and_a_veto_refunds_it(
    sta, gm, player, kara, marcus
):
    """3 Momentum over Difficulty 1; two Bonus Damage, one vetoed (its point back, MO-12):
    the GM's hit counts 1 bonus: 3 rolled + 1 = 4 Stress, no Injury (under 5)."""
    test = aimed(sta, player, kara, marcus)
    assert test.spec["target_id"] == marcus.pk and test.ledger["roll_momentum"] == 3
    services_d20.spend_momentum(sta.pk, player, test.pk, "bonus_damage", from_pool=0)
    services_d20.spend_momentum(sta.pk, player, test.pk, "bonus_damage", from_pool=0)
    services_d20.veto_spend(sta.pk, gm, test.pk, 1, "Not with a rapier")
    test.refresh_from_db()
    assert test.ledger["roll_momentum"] == 2
    services_d20.resolve_test(sta.pk, player, test.pk)
    event = harm.apply_d20_hit(sta.pk, gm, test.pk, track="stress", total=3)
    assert event.payload["dealt"] == 4 and event.payload["target_id"] == marcus.pk
    assert [(m["track"], m["delta"]) for m in event.payload["moves"]] == [("stress", 4)]


def test_sc_02_bonus_damage_dealt_is_not_vetoed_after_the_hit(sta, gm, player, kara, marcus):
    test = aimed(sta, player, kara, marcus)
    services_d20.spend_momentum(sta.pk, player, test.pk, "bonus_damage", from_pool=0)
    harm.apply_d20_hit(sta.pk, gm, test.pk, track="stress", total=3)
    before = snapshot(sta), pools(sta)
    with pytest.raises(ServiceError, match="void the test"):
        services_d20.veto_spend(sta.pk, gm, test.pk, 0, "Too late")
    assert (snapshot(sta), pools(sta)) == before


def test_sc_02_voiding_a_2d20_attack_takes_back_its_stress_and_injury(
    sta, gm, player, kara, marcus
):
    test = aimed(sta, player, kara, marcus)
    hit = harm.apply_d20_hit(sta.pk, gm, test.pk, track="stress", total=6)
    assert [(m["track"], m["delta"]) for m in hit.payload["moves"]] == [
        ("stress", 6),
        ("injuries", 1),
    ]
    corrections.void_event(sta.pk, gm, test.event.seq, "The shot was stunned")
    taken = dict(HarmTrack.objects.filter(character=marcus).values_list("track", "taken"))
    assert taken == {"stress": 0, "injuries": 0}


def test_sc_02_a_failed_attack_with_a_target_deals_nothing(sta, gm, player, kara, marcus):
    test = aimed(sta, player, kara, marcus, faces=(19, 20), difficulty=2)
    before = snapshot(sta)
    with pytest.raises(ServiceError, match="passed attack"):
        harm.apply_d20_hit(sta.pk, gm, test.pk, track="stress", total=3)
    assert snapshot(sta) == before


def test_sc_02_a_2d20_target_outside_the_campaign_is_refused_and_nothing_is_rolled(
    sta, player, kara, hero
):
    before = snapshot(sta), pools(sta)
    with pytest.raises(ServiceError, match="not in this campaign"):
        aimed(sta, player, kara, hero)
    assert (snapshot(sta), pools(sta)) == before


# --- The composers and the roll's card over HTTP -------------------------------------------

HX = {"HTTP_HX_REQUEST": "true"}


def momenta_post(hero, **extra):
    data = {
        "character": hero.pk,
        "attribute": "GRIT",
        "kind": "attack",
        "play": "structured",
        "template": "",
        "modifiers": "",
        "thread": "",
        "assist": "",
        "expected_momentum": hero.momentum,
        "expected_resolve": hero.resolve,
    }
    return data | extra


def table_page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def test_sc_02_the_momenta_composer_offers_every_other_character_as_the_target(
    client_for, fight, hero, raider
):
    html = table_page(client_for("player"), fight)
    fields = form_fields(html, "momenta-roll")
    assert "target" in fields
    assert f'<option value="{raider.pk}">Raider</option>' in html


def test_sc_02_an_attack_posted_with_a_target_shows_the_gm_the_hit_to_apply(
    client_for, fight, hero, raider, d6_faces
):
    """Ash (GRIT 3) attacks the Raider, who has a track: the card says whom; the GMs'
    page offers "Apply to Raider" with the computed damage, the players' does not; the
    GM's press applies it and the push marks the card applied."""
    harm.set_track(fight.pk, fight.owner, raider.pk, "harm", 10)
    d6_faces([5, 6, 3])  # 2 successes, no pair: resolved at once
    answer = client_for("player").post(
        reverse("momenta_roll", args=[fight.pk]), momenta_post(hero, target=raider.pk), **HX
    )
    assert answer.status_code == 200
    made = MomentaRoll.objects.get()
    assert made.card["target_id"] == raider.pk and made.state == "resolved"
    damage = made.applied["damage"]
    gm_page = table_page(client_for("gm"), fight)
    assert f'data-hit-roll="{made.pk}"' in gm_page and "Apply to Raider" in gm_page
    player_page = table_page(client_for("player"), fight)
    assert "Attack on Raider." in player_page and "Apply to Raider" not in player_page
    data = {"action": "momenta_hit", "roll": made.pk, "target": raider.pk, "inline": "1"}
    applied = client_for("gm").post(
        reverse("harm_command", args=[fight.pk]), data | {"amount": damage}, **HX
    )
    html = applied.content.decode()
    assert 'id="harm-answer"' not in html  # the card's own answer, not a second board's id
    assert f"hx-swap-oob=\"outerHTML:[data-hit-roll='{made.pk}']\"" in html
    assert HarmTrack.objects.get(character=raider, track="harm").taken == damage
    assert "damage applied in #" in table_page(client_for("player"), fight)


def test_sc_02_the_momenta_composer_refuses_a_target_on_an_action(client_for, fight, hero, raider):
    before = snapshot(fight), MomentaRoll.objects.count()
    answer = client_for("player").post(
        reverse("momenta_roll", args=[fight.pk]),
        momenta_post(hero, kind="action", target=raider.pk),
        **HX,
    )
    assert "Only an attack names a target" in answer.content.decode()
    assert (snapshot(fight), MomentaRoll.objects.count()) == before


def test_sc_02_the_2d20_composer_sends_the_target_and_the_done_test_offers_the_hit(
    client_for, sta, gm, player, kara, marcus, d20_faces
):
    html = table_page(client_for("player"), sta)
    assert "target" in form_fields(html, "d20-composer")
    d20_faces([1, 1])
    client_for("player").post(
        reverse("d20_roll", args=[sta.pk]), roll_data(kara, target=marcus.pk), **HX
    )
    test = D20Test.objects.get()
    assert test.spec["target"] == "Marcus"
    assert "Apply to Marcus" not in table_page(client_for("gm"), sta)  # still spending
    services_d20.spend_momentum(sta.pk, player, test.pk, "bonus_damage", from_pool=0)
    services_d20.resolve_test(sta.pk, player, test.pk)
    gm_page = table_page(client_for("gm"), sta)
    assert "Apply to Marcus" in gm_page
    fields = form_fields(gm_page, f"hit-test-{test.pk}")
    assert fields["bonus"] == ["1"] and fields["track"] == ["stress"]


# --- Discord copies (issue 24): harm, tasks and a conflict's start, rounds and end --------


def hooked(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(
        discord_webhook_url="https://discord.test/table", discord_gm_webhook_url="https://g/"
    )
    campaign.refresh_from_db()
    return campaign


def test_a_hit_is_copied_to_the_table_channel_and_a_hidden_npcs_to_the_gms_only(
    sta, gm, player, kara, marcus
):
    from tables.discord import embeds

    c = hooked(sta)
    shown = harm.apply_d20_hit(c.pk, gm, aimed(c, player, kara, marcus).pk, track="stress", total=3)
    post = embeds.post_for(shown, c)
    assert post.target == embeds.PUBLIC
    assert post.body["embeds"][0]["title"] == "Marcus: Harm"
    assert "Marcus takes 3 Stress" in post.body["embeds"][0]["description"]
    harm.set_track(c.pk, gm, marcus.pk, "stress", 8, hidden=True)
    hidden = harm.apply_d20_hit(
        c.pk, gm, aimed(c, player, kara, marcus).pk, track="stress", total=2
    )
    assert embeds.post_for(hidden, c).target == embeds.GM  # never the table's channel


def test_a_conflicts_start_and_a_task_are_copied_but_not_each_turn(
    d20_campaign, gm, player, kara, marcus
):
    from tables.discord import embeds
    from tables.services import extended_tasks
    from tables.services.conflicts import turns

    c = hooked(d20_campaign)
    Campaign.objects.filter(pk=c.pk).update(game_line="sta1")
    c.refresh_from_db()
    sessions.start_scene(c.pk, gm, "Bridge")
    started = turns.start_conflict(c.pk, gm, [kara.pk, marcus.pk])
    assert embeds.post_for(started, c) is not None
    acting = turns.choose_next(c.pk, player, kara.pk)
    assert embeds.post_for(acting, c) is None
    task = extended_tasks.create_task(c.pk, gm, "Scan the nebula", work=5, magnitude=1)
    assert "Scan the nebula" in embeds.post_for(task, c).body["embeds"][0]["description"]


def test_sc_r1_is_a_campaign_setting_the_gm_changes(sta, gm, player, kara, marcus):
    """SC-R1 off: Kara's 6 on Marcus's 8-track at 3 (5+ and filled) inflicts one Injury."""
    from tables.services import campaigns

    campaigns.update_campaign_settings(sta.pk, gm, {"double_harm": False})
    harm.apply_d20_hit(sta.pk, gm, aimed(sta, player, kara, marcus).pk, track="stress", total=3)
    event = harm.apply_d20_hit(
        sta.pk, gm, aimed(sta, player, kara, marcus).pk, track="stress", total=5
    )
    assert [(m["track"], m["delta"]) for m in event.payload["moves"]] == [
        ("stress", 5),
        ("injuries", 1),
    ]
    with pytest.raises(PermissionDenied):
        campaigns.update_campaign_settings(sta.pk, player, {"double_harm": True})
    assert Campaign.objects.get(pk=sta.pk).double_harm is False

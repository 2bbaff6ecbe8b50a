"""Harm tracks at the table (SC-02, D6-09, PAT-06): the GM sets them, applies attacks'
damage and records recovery; each refusal changes nothing (events, tracks, ledger)."""

import pytest
from django.core.exceptions import PermissionDenied

from rules.dice import FixedDice
from tables.models import Character, D20Test, HarmEntry, HarmTrack, RollTemplate, TableEvent
from tables.services import d20 as services_d20
from tables.services import harm, momenta, sessions
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db


def snapshot(campaign):
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        list(HarmTrack.objects.filter(campaign=campaign).values_list("track", "taken", "maximum")),
        HarmEntry.objects.count(),
    )


@pytest.fixture
def raider(momenta_campaign, gm):
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True)
    npc.attributes.create(name="FIGHT", value=4)
    return npc


def attack(campaign, actor, character, faces, template="Attack (damage)", **kw):
    template_id = RollTemplate.objects.get(campaign=campaign, name=template).pk
    request = RollRequest(attribute="FIGHT", kind="attack", template_id=template_id, **kw)
    made = momenta.roll_momenta(campaign.pk, actor, character.pk, request, rng=FixedDice(faces))
    if made.awaiting:  # a pair to allocate: the pre-selected best (PAT-09)
        momenta.choose_allocation(campaign.pk, actor, made.pk, None)
    made.refresh_from_db()
    return made


@pytest.fixture
def fight(momenta_campaign, gm, hero, raider):
    sessions.start_session(momenta_campaign.pk, gm)
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12)
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "strain", 6)
    return momenta_campaign


def test_d6_09_pat_06_solid_hit_damage_including_n_goes_on_the_targets_track(
    fight, gm, hero, raider
):
    """D6-09/PAT-06 (SC-02): an opposed attack, 2 effective successes (band damage 3) with
    a Double 6 allocated to Solid Hit (+6): 9 harm on Ash's track, ledgered."""
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    assert made.applied["damage"] == 9 and made.applied["damage_bonus"] == 6
    event = harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    assert event.kind == "harm_applied" and event.audience == "all"
    assert event.payload["moves"] == [
        {"track": "harm", "label": "Harm", "delta": 9, "after": 9, "maximum": 12, "lost": 0}
    ]
    assert event.payload["target_id"] == hero.pk  # its numbers are pushed (test_harm_views)
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 9
    entry = HarmEntry.objects.get(event=event)
    assert (entry.delta, entry.after, entry.hit, entry.momenta_roll_id) == (9, 9, True, made.pk)


def test_sc_02_a_roll_is_applied_once_and_the_refusal_changes_nothing(fight, gm, hero, raider):
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="already been applied"):
        harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    assert snapshot(fight) == before


def test_sc_02_harm_stops_at_the_track_and_recovery_at_zero(fight, gm, hero, raider):
    harm.set_track(fight.pk, gm, hero.pk, "harm", 5)
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    event = harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    assert event.payload["moves"][0] | {} == {
        "track": "harm",
        "label": "Harm",
        "delta": 5,
        "after": 5,
        "maximum": 5,
        "lost": 4,
    }
    healed = harm.recover(fight.pk, gm, hero.pk, "harm", 8, "A night's rest")
    assert healed.payload["moves"][0]["after"] == 0 and healed.payload["moves"][0]["lost"] == 3
    assert healed.payload["reason"] == "A night's rest"
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 0


def test_sc_02_strain_attacks_go_on_strain_and_the_gm_adjusts_with_a_reason(
    fight, gm, hero, raider
):
    made = attack(fight, gm, raider, [5, 2, 3, 1], template="Attack (strain)")
    computed = made.applied["damage"]
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="reason"):
        harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk, amount=computed + 1)
    assert snapshot(fight) == before
    event = harm.apply_momenta_hit(
        fight.pk, gm, made.pk, hero.pk, amount=computed + 1, reason="Cornered"
    )
    assert event.payload["moves"][0]["track"] == "strain"
    assert event.payload["moves"][0]["delta"] == computed + 1
    assert event.payload["reason"] == "Cornered"


@pytest.mark.parametrize("who", ["player", "observer", "outsider"])
def test_sc_02_only_the_gm_applies_damage_sets_tracks_or_heals(
    request, who, fight, gm, hero, raider
):
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    actor = request.getfixturevalue(who)
    before = snapshot(fight)
    with pytest.raises(PermissionDenied):
        harm.apply_momenta_hit(fight.pk, actor, made.pk, hero.pk)
    with pytest.raises(PermissionDenied):
        harm.set_track(fight.pk, actor, hero.pk, "harm", 20)
    with pytest.raises(PermissionDenied):
        harm.recover(fight.pk, actor, hero.pk, "harm", 1, "Because")
    assert snapshot(fight) == before


def test_sc_02_refusals_change_nothing(fight, gm, hero, raider, d20_campaign, kara):
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    before = snapshot(fight)
    cases = [
        (lambda: harm.apply_momenta_hit(fight.pk, gm, made.pk, kara.pk), "not in this campaign"),
        (lambda: harm.apply_momenta_hit(fight.pk, gm, made.pk, raider.pk), "on the sheet first"),
        (lambda: harm.set_track(fight.pk, gm, hero.pk, "stress", 5), "no track"),
        (lambda: harm.set_track(fight.pk, gm, hero.pk, "harm", 0), "1 to"),
        (lambda: harm.recover(fight.pk, gm, hero.pk, "harm", 1, "  "), "reason"),
        (lambda: harm.recover(fight.pk, gm, hero.pk, "harm", 0, "x"), "1 or more"),
        (lambda: harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk, amount=-1), "0 or more"),
    ]
    for call, message in cases:
        with pytest.raises(ServiceError, match=message):
            call()
    # A GM of another campaign cannot reach this roll through their own campaign.
    with pytest.raises(ServiceError, match="not in this campaign"):
        harm.apply_momenta_hit(d20_campaign.pk, gm, made.pk, kara.pk)
    assert snapshot(fight) == before


def test_sc_02_a_track_is_not_lowered_under_the_harm_taken(fight, gm, hero, raider):
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2)
    harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    before = snapshot(fight)
    with pytest.raises(ServiceError, match="recover it"):
        harm.set_track(fight.pk, gm, hero.pk, "harm", 8)
    assert snapshot(fight) == before


def test_sc_02_hidden_npc_harm_stays_with_the_gm(fight, gm, hero, raider, player):
    harm.set_track(fight.pk, gm, raider.pk, "harm", 8, hidden=True)
    hero.attributes.create(name="FIGHT", value=3)
    made = attack(fight, player, hero, [6, 6, 5], template="Attack (damage)")
    event = harm.apply_momenta_hit(fight.pk, gm, made.pk, raider.pk)
    assert event.audience == "gm"
    assert TableEvent.objects.filter(kind="harm_track_set", audience="gm").count() == 1


# --- 2d20 -----------------------------------------------------------------------------------


@pytest.fixture
def sta(d20_campaign, gm, kara, marcus):
    d20_campaign.game_line = "sta1"
    d20_campaign.save(update_fields=["game_line"])
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "stress", 8)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "injuries", 2)
    return d20_campaign


def d20_attack(campaign, actor, character, faces, difficulty=1):
    request = services_d20.D20TestRequest(
        attribute="Power", skill="Communicate", difficulty=difficulty
    )
    return services_d20.roll_d20_test(
        campaign.pk, actor, character.pk, request, rng=FixedDice(faces)
    )


def test_sc_02_sta1_dice_plus_bonus_minus_soak_and_injuries(sta, gm, player, kara, marcus):
    """STA 1e (rules.harm FIVE_OR_EMPTY): 4 + 2 bonus - 1 soak = 5 Stress, an Injury (5+);
    then 3 more empties the 8 track: a second Injury."""
    test = d20_attack(sta, player, kara, [3, 15])
    assert test.result["passed"]
    event = harm.apply_d20_hit(
        sta.pk, gm, test.pk, marcus.pk, track="stress", total=4, bonus=2, soak=1
    )
    assert [(m["track"], m["delta"], m["after"]) for m in event.payload["moves"]] == [
        ("stress", 5, 5),
        ("injuries", 1, 1),
    ]
    assert event.payload["dealt"] == 5
    second = d20_attack(sta, player, kara, [2, 19])
    event = harm.apply_d20_hit(sta.pk, gm, second.pk, marcus.pk, track="stress", total=3)
    assert [(m["track"], m["delta"], m["after"]) for m in event.payload["moves"]] == [
        ("stress", 3, 8),
        ("injuries", 1, 2),
    ]


def test_sc_02_a_failed_2d20_attack_deals_nothing(sta, gm, player, kara, marcus):
    test = d20_attack(sta, player, kara, [19, 20], difficulty=2)
    assert not D20Test.objects.get(pk=test.pk).result["passed"]
    before = snapshot(sta)
    with pytest.raises(ServiceError, match="passed attack"):
        harm.apply_d20_hit(sta.pk, gm, test.pk, marcus.pk, track="stress", total=4)
    assert snapshot(sta) == before


def test_sc_02_a_secret_rolls_hit_stays_with_the_gm_until_revealed(fight, gm, hero, raider):
    """TB-03: applying a secret attack's damage does not tell players about the roll."""
    made = attack(fight, gm, raider, [6, 6, 5, 2, 5, 1], opposition_pool=2, secret=True)
    assert made.hidden
    event = harm.apply_momenta_hit(fight.pk, gm, made.pk, hero.pk)
    assert event.audience == "gm"


def _line(campaign, gm, marcus, line: str, tracks: dict):
    campaign.game_line = line
    campaign.save(update_fields=["game_line"])
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    for track, size in tracks.items():
        harm.set_track(campaign.pk, gm, marcus.pk, track, size)
    return campaign


def moves(event):
    return [(m["track"], m["delta"], m["after"]) for m in event.payload["moves"]]


def test_sc_06_sta2_stress_avoids_the_injury_and_a_part_absorbed_hit_is_a_complication(
    d20_campaign, gm, player, kara, marcus
):
    """SC-06 through the services (STA 2e core pp. 290, 292): 8 Stress taken to avoid an
    Injury, then a 4-point hit on the 2 boxes left fills the track: a complication, no
    Injury."""
    sta2 = _line(d20_campaign, gm, marcus, "sta2", {"stress": 10, "injuries": 2})
    first = d20_attack(sta2, player, kara, [3, 15])
    event = harm.apply_d20_hit(sta2.pk, gm, first.pk, marcus.pk, track="stress", total=8)
    assert moves(event) == [("stress", 8, 8)]
    second = d20_attack(sta2, player, kara, [2, 19])
    event = harm.apply_d20_hit(sta2.pk, gm, second.pk, marcus.pk, track="stress", total=4)
    assert moves(event) == [("stress", 2, 10)]
    assert event.payload.get("complication") is True


def test_sc_06_fallout_reaching_zero_hp_is_an_injury(d20_campaign, gm, player, kara, marcus):
    """SC-06 through the services (Fallout core, Damage and Injury): 7 taken in hits under
    5, then a 3 hit on a 10 HP track drops it to 0: one injury; another hit at 0 adds one."""
    fallout = _line(d20_campaign, gm, marcus, "fallout", {"hp": 10, "injuries": 5})
    hits = []
    for total in (4, 3, 3, 1):
        test = d20_attack(fallout, player, kara, [3, 15])
        hits.append(harm.apply_d20_hit(fallout.pk, gm, test.pk, marcus.pk, track="hp", total=total))
    assert [moves(e) for e in hits[:2]] == [[("hp", 4, 4)], [("hp", 3, 7)]]
    assert moves(hits[2]) == [("hp", 3, 10), ("injuries", 1, 1)]
    assert moves(hits[3])[-1] == ("injuries", 1, 2)


def test_sc_06_sta2_the_target_may_take_the_injury_instead_of_the_stress(
    d20_campaign, gm, player, kara, marcus
):
    """SC-06 through the services (STA 2e core pp. 290 and 292): a hit inflicts an Injury
    unless the target suffers Stress equal to its severity; a target that takes the
    Injury suffers no Stress, and the log says so."""
    sta2 = _line(d20_campaign, gm, marcus, "sta2", {"stress": 10, "injuries": 2})
    test = d20_attack(sta2, player, kara, [3, 15])
    event = harm.apply_d20_hit(
        sta2.pk, gm, test.pk, marcus.pk, track="stress", total=4, take_injury=True
    )
    assert moves(event) == [("stress", 0, 0), ("injuries", 1, 1)]
    assert event.payload["took_injury"] is True and event.payload["complication"] is False
    assert event.payload["summary"] == "Marcus takes an Injury instead of 4 Stress."


def test_sc_06_sta2_eight_of_ten_and_a_four_hit_fills_stress_and_the_log_names_the_complication(
    d20_campaign, gm, player, kara, marcus
):
    """SC-06 (STA 2e core pp. 290 and 292, and the line developer's clarification): the
    issue's case, 8 of 10 Stress and a 4-point hit: Stress full, 0 Injuries, and the log's
    words say the hit became a complication (not "0 Injuries")."""
    sta2 = _line(d20_campaign, gm, marcus, "sta2", {"stress": 10, "injuries": 1})
    first = d20_attack(sta2, player, kara, [3, 15])
    harm.apply_d20_hit(sta2.pk, gm, first.pk, marcus.pk, track="stress", total=8)
    second = d20_attack(sta2, player, kara, [2, 19])
    event = harm.apply_d20_hit(sta2.pk, gm, second.pk, marcus.pk, track="stress", total=4)
    assert moves(event) == [("stress", 2, 10)]
    assert HarmTrack.objects.get(character=marcus, track="injuries").taken == 0
    assert "complication instead of an Injury" in event.payload["summary"]


def test_sc_06_only_sta2_offers_taking_the_injury_and_the_refusal_changes_nothing(
    sta, gm, player, kara, marcus
):
    """SC-06: the choice is STA 2e's (core p. 290); on STA 1e it is refused, nothing
    changes, and the same test can still be applied."""
    test = d20_attack(sta, player, kara, [3, 15])
    before = snapshot(sta)
    with pytest.raises(ServiceError, match="2nd edition"):
        harm.apply_d20_hit(
            sta.pk, gm, test.pk, marcus.pk, track="stress", total=4, take_injury=True
        )
    assert snapshot(sta) == before
    harm.apply_d20_hit(sta.pk, gm, test.pk, marcus.pk, track="stress", total=4)


def test_sc_r19_sta1_a_second_injury_past_the_one_box_is_recorded_not_lost(
    d20_campaign, gm, player, kara, marcus
):
    """SC-R19 (STA 1e core rulebook, Injuries, pp. 176-177: a second Injury while injured
    is lethal, so each one counts): a 6 hit on 6 of 10 Stress is 5+ and empties the track,
    two Injuries (SC-R1); the one-box Injuries track grows to hold both, none lost, and
    voiding the hit takes both back."""
    from tables.services import corrections

    sta1 = _line(d20_campaign, gm, marcus, "sta1", {"stress": 10, "injuries": 1})
    first = d20_attack(sta1, player, kara, [3, 15])
    harm.apply_d20_hit(sta1.pk, gm, first.pk, marcus.pk, track="stress", total=4)
    second = d20_attack(sta1, player, kara, [2, 19])
    event = harm.apply_d20_hit(sta1.pk, gm, second.pk, marcus.pk, track="stress", total=6)
    assert moves(event) == [("stress", 6, 10), ("injuries", 2, 2)]
    injuries = event.payload["moves"][1]
    assert (injuries["maximum"], injuries["lost"]) == (2, 0)
    row = HarmTrack.objects.get(character=marcus, track="injuries")
    assert (row.taken, row.maximum) == (2, 2)
    corrections.void_event(sta1.pk, gm, second.event.seq, "Wrong target")
    assert HarmTrack.objects.get(character=marcus, track="injuries").taken == 0


def test_sc_r19_other_lines_still_report_harms_past_the_track_as_lost(
    d20_campaign, gm, player, kara, marcus
):
    """SC-R19 is STA 1e's: the seeds' 2d20 keeps its track and reports what did not fit."""
    seeds = _line(d20_campaign, gm, marcus, "seeds", {"stress": 10, "injuries": 1})
    test = d20_attack(seeds, player, kara, [3, 15])
    event = harm.apply_d20_hit(seeds.pk, gm, test.pk, marcus.pk, track="stress", total=10)
    assert event.payload["moves"][1]["lost"] == 1
    assert HarmTrack.objects.get(character=marcus, track="injuries").maximum == 1

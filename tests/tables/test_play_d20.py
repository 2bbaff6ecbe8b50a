"""2d20 play through the services: whole scenes from the seeds, then each clause and refusal.

Faces are injected with rules.dice.FixedDice (own dice first, then one per
assistant), so every roll here is the one the seed describes. After each step
the tests read back every pool, the event log (seq, kind, audience) and the
PoolChange ledger.
"""

import pytest
from django.core.exceptions import PermissionDenied

from rules.dice import FixedDice
from tables.models import Campaign, Character, Contest, D20Test, PoolChange, TableEvent
from tables.policy.game_lines import catalogue
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.core import ServiceError

ALL, GM = TableEvent.Audience.ALL, TableEvent.Audience.GM


# --- helpers ---------------------------------------------------------------------------


def pools(campaign):
    campaign.refresh_from_db()
    return campaign.group_momentum, campaign.threat


def last_event(campaign):
    return TableEvent.objects.filter(campaign=campaign).order_by("-seq").first()


def log_since(campaign, seq):
    """[(seq, kind, audience)] of the events after `seq`."""
    return list(
        TableEvent.objects.filter(campaign=campaign, seq__gt=seq)
        .order_by("seq")
        .values_list("seq", "kind", "audience")
    )


def ledger_lines(event):
    """[(character name or None, pool, delta, after, lost)] written with the event."""
    return [
        (c.character.name if c.character else None, c.pool, c.delta, c.after, c.lost)
        for c in PoolChange.objects.filter(event=event).select_related("character").order_by("id")
    ]


def head(campaign):
    campaign.refresh_from_db()
    return campaign.last_seq


def set_pools(campaign, *, momentum=None, threat=None):
    fields = {}
    if momentum is not None:
        fields["group_momentum"] = momentum
    if threat is not None:
        fields["threat"] = threat
    Campaign.objects.filter(pk=campaign.pk).update(**fields)
    campaign.refresh_from_db()


def sheet(character, attribute, attr_value, skill, skill_value, focuses=()):
    character.attributes.create(name=attribute, value=attr_value)
    character.skills.create(name=skill, value=skill_value)
    for focus in focuses:
        character.traits.create(kind="focus", text=focus)
    return character


def roll(campaign, actor, character, faces, **kw):
    params = {"attribute": "Power", "skill": "Communicate"} | kw
    return services_d20.roll_d20_test(
        campaign.pk,
        actor,
        character.pk,
        services_d20.D20TestRequest(**params),
        rng=FixedDice(faces),
    )


@pytest.fixture
def marcus_sheet(marcus):
    return sheet(marcus, "Power", 7, "Communicate", 5)  # target 12


@pytest.fixture
def anna(d20_campaign, gm):
    """Kara's handmaiden: a supporting character the GM plays."""
    anna = Character.objects.create(campaign=d20_campaign, owner=gm, name="Anna", is_npc=True)
    return sheet(anna, "Power", 5, "Communicate", 4)  # target 9


# --- Seed 003: Kara against Marcus ---------------------------------------------------------


def test_ct_01_kara_against_marcus_full_scene_from_seed_003(
    d20_campaign, gm, player, kara, marcus_sheet, anna
):
    """CT-01, CT-02, MO-08, MO-13, T-03, T-04, CT-03: the whole contest of seed 003."""
    campaign = d20_campaign
    set_pools(campaign, momentum=1, threat=4)
    seq = head(campaign)

    # 1. The GM rolls for Marcus first, spending Threat on a bought die (MO-08, MO-13):
    #    1 → 2 successes, 3 → 1, 10 → 1 against target 12: 4 successes.
    contest = services_d20.contest_opposer_roll(
        campaign.pk,
        gm,
        marcus_sheet.pk,
        kara.pk,
        attribute="Power",
        skill="Communicate",
        bought_dice=1,
        rng=FixedDice([1, 3, 10]),
    )
    assert contest.difficulty == 4 and contest.state == Contest.State.AWAITING
    assert pools(campaign) == (1, 3)
    opened = last_event(campaign)
    assert log_since(campaign, seq) == [(seq + 1, "contest_opened", ALL)]
    assert ledger_lines(opened) == [(None, "threat", -1, 3, 0)]
    assert opened.payload["result"]["successes"] == 4
    assert "Marcus" in PoolChange.objects.get(event=opened).reason

    # 2. Kara answers: hostile environment +1 → Difficulty 5. She buys 2 dice paid
    #    entirely in Threat (+3), Anna assists with one die (18: fails). Her pool
    #    of 4 scores 2 (4 and 11 hit, 17 and 19 miss).
    test = roll(
        campaign,
        player,
        kara,
        [4, 11, 17, 19, 18],
        factors=[1],
        bought_dice=2,
        buy_from_momentum=0,
        assistants=[(anna.pk, "Power", "Communicate")],
        contest_id=contest.pk,
    )
    assert test.role == D20Test.Role.ACTIVE and test.contest_id == contest.pk
    assert test.spec["final_difficulty"] == 5 and test.spec["dice"] == 4
    assert test.result["own_successes"] == 2 and test.result["assistance_successes"] == 0
    assert test.result["successes"] == 2 and not test.result["passed"]
    assert pools(campaign) == (1, 6)  # group pool untouched, Threat 3 + 3
    rolled = last_event(campaign)
    assert log_since(campaign, seq + 1) == [(seq + 2, "d20_test", ALL)]
    assert ledger_lines(rolled) == [(None, "threat", 3, 6, 0)]
    assert "Buy 2 bonus d20s (MO-08), paid in Threat" in PoolChange.objects.get(event=rolled).reason
    # For now the contest is lost: Marcus would hold 3 Momentum (CT-04).
    assert test.ledger["holder"] == "Marcus" and test.ledger["roll_momentum"] == 3

    # 3. The GM allows Determination (T-04); Kara rerolls the two misses, not
    #    Anna's die: 1 (2 successes) and 9 (1 success) → 5 successes, passes, 0 Momentum.
    services_gm.permit_determination(campaign.pk, gm, test.pk)
    assert log_since(campaign, seq + 2) == [(seq + 3, "determination_permitted", ALL)]
    with pytest.raises(ServiceError, match="Assistance dice"):
        services_d20.determination_reroll(campaign.pk, player, test.pk, [4], rng=FixedDice([1]))
    assert head(campaign) == seq + 3
    services_d20.determination_reroll(campaign.pk, player, test.pk, [2, 3], rng=FixedDice([1, 9]))
    test.refresh_from_db()
    kara.refresh_from_db()
    assert test.result["faces"] == [4, 11, 1, 9]
    assert test.result["successes"] == 5 and test.result["passed"]
    assert test.result["momentum"] == 0
    assert kara.determination == 0
    reroll = last_event(campaign)
    assert (reroll.seq, reroll.kind, reroll.audience) == (seq + 4, "d20_reroll", ALL)
    assert ledger_lines(reroll) == [("Kara", "determination", -1, 0, 0)]
    assert test.ledger["holder"] == "Kara" and test.ledger["roll_momentum"] == 0
    assert test.ledger["contest_won"] is True

    # 4. Done: Kara won the contest with nothing left to save.
    resolved = services_d20.resolve_test(campaign.pk, player, test.pk)
    assert (resolved.seq, resolved.kind, resolved.audience) == (seq + 5, "contest_resolved", ALL)
    assert ledger_lines(resolved) == []
    assert resolved.payload["summary"].startswith("Kara wins the contest")
    contest.refresh_from_db()
    assert contest.state == Contest.State.RESOLVED and contest.active_won is True
    assert pools(campaign) == (1, 6)
    assert PoolChange.objects.filter(campaign=campaign).count() == 3


def test_ct_04_failed_contest_gives_opposer_two_momentum_to_threat_ct_r1(
    d20_campaign, gm, player, kara, marcus_sheet
):
    """CT-04, CT-R1: Kara scores 2 against 4; Marcus gains 2 and, unspent, they become Threat."""
    campaign = d20_campaign
    set_pools(campaign, momentum=2, threat=0)
    # Marcus: 1 → 2 successes, 2 → 1 success: Difficulty 3.
    contest = services_d20.contest_opposer_roll(
        campaign.pk,
        gm,
        marcus_sheet.pk,
        kara.pk,
        attribute="Power",
        skill="Communicate",
        rng=FixedDice([1, 2]),
    )
    assert contest.difficulty == 3
    # Kara scores 1 (12 hits, 18 misses): 2 short, so Marcus gains 2 Momentum (CT-04).
    seq = head(campaign)
    test = roll(campaign, player, kara, [12, 18], contest_id=contest.pk)
    assert test.result["successes"] == 1 and not test.result["passed"]
    assert test.ledger == test.ledger | {"holder": "Marcus", "roll_momentum": 2, "side": "gm"}
    assert test.ledger["holder_character_id"] == marcus_sheet.pk

    # Kara's player cannot spend or close Marcus's Momentum.
    with pytest.raises(PermissionDenied):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
    with pytest.raises(PermissionDenied):
        services_d20.resolve_test(campaign.pk, player, test.pk)
    assert head(campaign) == seq + 1

    event = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert (event.seq, event.kind, event.audience) == (seq + 2, "contest_resolved", ALL)
    assert ledger_lines(event) == [(None, "threat", 2, 2, 0)]
    assert "CT-R1" in PoolChange.objects.get(event=event).reason
    assert event.payload["resolution"]["saved"] == 2
    assert event.payload["resolution"]["saved_to"] == "threat"
    assert event.payload["summary"].startswith("Marcus wins the contest")
    assert pools(campaign) == (2, 2)  # the group pool never sees the opposer's Momentum
    contest.refresh_from_db()
    assert contest.active_won is False


def test_ct_r1_off_loses_the_gm_characters_unspent_momentum(
    d20_campaign, gm, player, kara, marcus_sheet
):
    """CT-R1 is a setting: switched off, a GM character's unspent Momentum is lost."""
    campaign = d20_campaign
    Campaign.objects.filter(pk=campaign.pk).update(gm_momentum_to_threat=False)
    contest = services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([1, 2]),
    )  # fmt: skip
    test = roll(campaign, player, kara, [12, 18], contest_id=contest.pk)
    event = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert ledger_lines(event) == []
    assert event.payload["resolution"]["lost_unsaved"] == 2
    assert pools(campaign) == (0, 0)


def test_ct_04_opposer_may_spend_the_momentum_at_once(d20_campaign, gm, player, kara, marcus_sheet):
    """CT-04: the opposer spends their Momentum as if they had passed; the rest goes to Threat."""
    campaign = d20_campaign
    contest = services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([1, 2]),
    )  # fmt: skip
    test = roll(campaign, player, kara, [12, 18], contest_id=contest.pk)
    event = services_d20.spend_momentum(
        campaign.pk, gm, test.pk, "obtain_information", note="Who sent her?"
    )
    assert event.kind == "d20_spend" and ledger_lines(event) == []
    assert event.payload["spend"]["from_roll"] == 1
    # A GM character cannot dip into the players' group pool.
    set_pools(campaign, momentum=3)
    with pytest.raises(ServiceError):
        services_d20.spend_momentum(campaign.pk, gm, test.pk, "create_trait", from_pool=1)
    event = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert ledger_lines(event) == [(None, "threat", 1, 1, 0)]
    assert pools(campaign) == (3, 1)


def test_ct_02_hindrances_lower_the_difficulty_not_below_zero(
    d20_campaign, gm, player, kara, marcus_sheet
):
    """CT-02: each factor hindering the opposer takes 1 off the Difficulty they set."""
    campaign = d20_campaign
    contest = services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate",
        hindrances=1, rng=FixedDice([1, 3]),
    )  # fmt: skip
    assert contest.difficulty == 2
    test = roll(campaign, player, kara, [20, 20], contest_id=contest.pk)
    assert test.result["difficulty"] == 2 and test.result["complications"] == 2
    with pytest.raises(ServiceError, match="already rolled"):
        roll(campaign, player, kara, [1, 1], contest_id=contest.pk)
    services_d20.resolve_test(campaign.pk, gm, test.pk)
    c2 = services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate",
        hindrances=5, rng=FixedDice([1, 3]),
    )  # fmt: skip
    assert c2.difficulty == 0


def test_ct_01_only_the_gm_opens_a_contest_and_only_the_active_character_answers(
    d20_campaign, gm, player, player2, kara, marcus_sheet
):
    campaign = d20_campaign
    seq = head(campaign)
    with pytest.raises(PermissionDenied):
        services_d20.contest_opposer_roll(
            campaign.pk, player, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate"
        )
    contest = services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([5, 5]),
    )  # fmt: skip
    with pytest.raises(ServiceError, match="already faces"):
        services_d20.contest_opposer_roll(
            campaign.pk, gm, marcus_sheet.pk, kara.pk, attribute="Power", skill="Communicate"
        )
    other = Character.objects.create(campaign=campaign, owner=player2, name="Bo")
    sheet(other, "Power", 5, "Communicate", 5)
    with pytest.raises(ServiceError, match="Kara's to roll"):
        roll(campaign, player2, other, [1, 1], contest_id=contest.pk)
    assert head(campaign) == seq + 1
    services_d20.cancel_contest(campaign.pk, gm, contest.pk)
    assert last_event(campaign).kind == "contest_cancelled"
    with pytest.raises(ServiceError, match="over"):
        roll(campaign, player, kara, [1, 1], contest_id=contest.pk)


# --- Seed 000: Kara's Obtain Information ----------------------------------------------------


def test_mo_11_kara_obtains_information_from_seed_000(d20_campaign, gm, player, kara):
    """MO-01, MO-02, MO-11, MO-04: 4 successes against 3 → 1 Momentum, spent on a question;
    a “you don't know” answer refunds its point; Done saves nothing left."""
    campaign = d20_campaign
    set_pools(campaign, momentum=2, threat=0)
    seq = head(campaign)
    # With her Persuasion focus every die ≤ 6 (her skill) is 2 successes: 2 and 5 → 4.
    test = roll(campaign, player, kara, [2, 5], focus="Persuasion", difficulty=3)
    assert test.spec["focus"] == 6 and test.spec["focus_name"] == "Persuasion"
    assert test.result["successes"] == 4 and test.result["momentum"] == 1
    assert log_since(campaign, seq) == [(seq + 1, "d20_test", ALL)]
    assert ledger_lines(last_event(campaign)) == []

    # First question: “Who is Marcus dealing with?” → “You don't know.” (refunded)
    first = services_d20.spend_momentum(
        campaign.pk, player, test.pk, "obtain_information", note="Who is he dealing with?"
    )
    assert (first.seq, first.kind) == (seq + 2, "d20_spend")
    assert first.payload["spend"] | {"from_roll": 1, "from_pool": 0} == first.payload["spend"]
    test.refresh_from_db()
    assert test.state == D20Test.State.SPENDING and test.ledger["roll_momentum"] == 0
    with pytest.raises(PermissionDenied):
        services_d20.refund_dont_know(campaign.pk, player, test.pk, 0)
    refund = services_d20.refund_dont_know(campaign.pk, gm, test.pk, 0)
    assert (refund.seq, refund.kind, refund.audience) == (seq + 3, "d20_refund", ALL)
    assert ledger_lines(refund) == []  # the point goes back to the roll, not a pool
    test.refresh_from_db()
    assert test.ledger["roll_momentum"] == 1 and test.ledger["spends"][0]["refunded"]

    # Second question, the seed's: “Is he here to kill someone?” → “Probably.”
    second = services_d20.spend_momentum(
        campaign.pk, player, test.pk, "obtain_information", note="Is he here to kill someone?"
    )
    assert second.payload["spend"]["from_roll"] == 1
    assert "Is he here to kill someone?" in second.payload["summary"]
    # A third question is paid from the group pool (MO-02), then refunded into it (MO-11).
    third = services_d20.spend_momentum(
        campaign.pk, player, test.pk, "obtain_information", expected_momentum=2
    )
    assert ledger_lines(third) == [(None, "group_momentum", -1, 1, 0)]
    assert pools(campaign) == (1, 0)
    back = services_d20.refund_dont_know(campaign.pk, gm, test.pk, 2)
    assert ledger_lines(back) == [(None, "group_momentum", 1, 2, 0)]
    assert pools(campaign) == (2, 0)

    done = services_d20.resolve_test(campaign.pk, player, test.pk)
    assert (done.seq, done.kind) == (seq + 7, "d20_resolved")
    assert ledger_lines(done) == []
    assert done.payload["resolution"]["summary"] == "nothing left to save"
    assert [k for _, k, _ in log_since(campaign, seq)] == [
        "d20_test",
        "d20_spend",
        "d20_refund",
        "d20_spend",
        "d20_spend",
        "d20_refund",
        "d20_resolved",
    ]
    with pytest.raises(ServiceError, match="already been resolved"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")


def test_mo_11_only_obtain_information_is_refunded_as_dont_know(d20_campaign, gm, player, kara):
    test = roll(d20_campaign, player, kara, [1, 1], difficulty=1)  # 4 successes → 3 Momentum
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_trait")
    with pytest.raises(ServiceError, match="Only an Obtain Information"):
        services_d20.refund_dont_know(d20_campaign.pk, gm, test.pk, 0)


# --- Momentum clauses ---------------------------------------------------------------------


def test_mo_04_unspent_momentum_saves_to_the_pool_and_overflow_is_lost(d20_campaign, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=5)
    test = roll(campaign, player, kara, [1, 1], difficulty=1)  # 4 successes → 3 Momentum
    event = services_d20.resolve_test(campaign.pk, player, test.pk)
    assert ledger_lines(event) == [(None, "group_momentum", 1, 6, 2)]
    res = event.payload["resolution"]
    assert (res["saved"], res["lost_overflow"], res["lost"]) == (1, 2, 2)
    assert "2 lost (pool full)" in event.payload["summary"]
    assert pools(campaign) == (6, 0)


def test_mo_05_bonus_momentum_pays_first_is_restricted_and_never_saved(d20_campaign, player, kara):
    campaign = d20_campaign
    test = roll(
        campaign, player, kara, [1, 15], difficulty=2,
        bonus_momentum=2, bonus_restricted_to=["obtain_information"],
    )  # fmt: skip
    assert test.result["momentum"] == 0 and test.result["bonus_momentum"] == 2
    # Restricted bonus cannot pay for Create Trait, and the roll has nothing else.
    with pytest.raises(ServiceError, match="only 0 Momentum"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "create_trait", from_pool=0)
    event = services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
    assert event.payload["spend"]["from_bonus"] == 1
    event = services_d20.resolve_test(campaign.pk, player, test.pk)
    assert event.payload["resolution"]["lost_bonus"] == 1
    assert ledger_lines(event) == []
    assert pools(campaign) == (0, 0)


def test_mo_03_a_once_per_test_spend_cannot_repeat(d20_campaign, player, kara):
    test = roll(d20_campaign, player, kara, [1, 1], difficulty=0)  # 4 Momentum
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_trait")
    seq = head(d20_campaign)
    with pytest.raises(ServiceError, match="only once per test"):
        services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_trait")
    assert head(d20_campaign) == seq


def test_mo_09_mo_10_trait_and_asset_spends_cost_two(d20_campaign, player, kara):
    test = roll(d20_campaign, player, kara, [1, 1], difficulty=0)  # 4 Momentum
    a = services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_trait")
    b = services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset")
    assert a.payload["spend"]["cost"] == b.payload["spend"]["cost"] == 2
    with pytest.raises(ServiceError, match="only 0 Momentum"):
        services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "make_asset_permanent", from_pool=0
        )


def test_mo_02_the_group_pool_pays_when_the_roll_runs_out(d20_campaign, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=3)
    test = roll(campaign, player, kara, [1, 15], difficulty=1)  # 2 successes → 1 Momentum
    event = services_d20.spend_momentum(
        campaign.pk, player, test.pk, "create_trait", expected_momentum=3
    )
    assert event.payload["spend"]["from_roll"] == 1 and event.payload["spend"]["from_pool"] == 1
    assert ledger_lines(event) == [(None, "group_momentum", -1, 2, 0)]
    assert pools(campaign) == (2, 0)


def test_mo_02_spending_momentum_that_is_not_there_is_refused(d20_campaign, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=0)
    test = roll(campaign, player, kara, [1, 15], difficulty=1)  # 1 Momentum
    seq = head(campaign)
    with pytest.raises(ServiceError, match="Not enough Group Momentum|holds 0"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "create_trait")
    assert head(campaign) == seq and pools(campaign) == (0, 0)
    test.refresh_from_db()
    assert test.state == D20Test.State.ROLLED and test.ledger["roll_momentum"] == 1


def test_mo_02_a_failed_test_has_no_momentum_to_spend(d20_campaign, player, kara):
    test = roll(d20_campaign, player, kara, [19, 20], difficulty=2)
    with pytest.raises(ServiceError, match="failed"):
        services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "obtain_information")
    event = services_d20.resolve_test(d20_campaign.pk, player, test.pk)
    assert event.payload["resolution"]["saved"] == 0


def test_mo_02_stale_group_pool_on_a_spend_changes_nothing(d20_campaign, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=0)
    test = roll(campaign, player, kara, [15, 15], difficulty=0)  # 0 Momentum
    seq = head(campaign)
    # The page showed 4 in the pool; it is empty now, so the spend is no longer covered.
    with pytest.raises(ServiceError, match="group Momentum pool holds 0; this needs 1"):
        services_d20.spend_momentum(
            campaign.pk, player, test.pk, "obtain_information", expected_momentum=4
        )
    assert head(campaign) == seq and pools(campaign) == (0, 0)


def test_mo_02_moved_group_pool_that_still_covers_the_spend_goes_through(
    d20_campaign, player, kara
):
    campaign = d20_campaign
    set_pools(campaign, momentum=3)
    test = roll(campaign, player, kara, [15, 15], difficulty=0)  # 0 Momentum
    seq = head(campaign)
    services_d20.spend_momentum(
        campaign.pk, player, test.pk, "obtain_information", expected_momentum=4
    )
    assert head(campaign) == seq + 1 and pools(campaign) == (2, 0)


def test_mo_12_gm_veto_refunds_every_point_where_it_came_from(d20_campaign, gm, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=2, threat=1)
    test = roll(campaign, player, kara, [1, 15], difficulty=1)  # 1 Momentum
    # Create Asset: 1 from the roll, 1 paid in Threat (MO-13: players add to Threat).
    spent = services_d20.spend_momentum(
        campaign.pk, player, test.pk, "create_asset", from_pool=0, to_threat=1
    )
    assert ledger_lines(spent) == [(None, "threat", 1, 2, 0)]
    with pytest.raises(PermissionDenied):
        services_d20.veto_spend(campaign.pk, player, test.pk, 0)
    veto = services_d20.veto_spend(campaign.pk, gm, test.pk, 0, reason="No such asset here")
    assert (veto.kind, veto.audience) == ("d20_veto", ALL)
    assert ledger_lines(veto) == [(None, "threat", -1, 1, 0)]
    assert "No such asset here" in veto.payload["summary"]
    test.refresh_from_db()
    assert test.ledger["roll_momentum"] == 1
    assert pools(campaign) == (2, 1)
    with pytest.raises(ServiceError, match="already refunded"):
        services_d20.veto_spend(campaign.pk, gm, test.pk, 0)


def test_mo_14_custom_spends_join_the_catalogue(d20_campaign, gm, player, kara):
    campaign = d20_campaign
    with pytest.raises(PermissionDenied):
        services_gm.save_custom_spend(campaign.pk, player, name="Disarm", cost=2)
    disarm = services_gm.save_custom_spend(campaign.pk, gm, name="Disarm", cost=2)
    services_gm.save_custom_spend(campaign.pk, gm, name="Extra damage", cost=1, repeatable=True)
    assert last_event(campaign).kind == "custom_spend_saved"
    with pytest.raises(ServiceError, match="already a spend"):
        services_gm.save_custom_spend(campaign.pk, gm, name="disarm!", cost=1)
    with pytest.raises(ServiceError, match="already a spend"):
        services_gm.save_custom_spend(campaign.pk, gm, name="Create Trait", cost=1)
    keys = catalogue(campaign)
    assert {"custom:disarm", "custom:extra_damage"} <= set(keys)

    test = roll(campaign, player, kara, [1, 1], difficulty=0)  # 4 Momentum
    services_d20.spend_momentum(campaign.pk, player, test.pk, "custom:extra_damage")
    services_d20.spend_momentum(campaign.pk, player, test.pk, "custom:extra_damage")
    services_d20.spend_momentum(campaign.pk, player, test.pk, "custom:disarm")
    with pytest.raises(ServiceError, match="only once per test"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "custom:disarm")
    # Editing keeps the name free for itself; deleting leaves past uses alone.
    services_gm.save_custom_spend(campaign.pk, gm, name="Disarm", cost=3, spend_id=disarm.pk)
    services_gm.delete_custom_spend(campaign.pk, gm, disarm.pk)
    assert "custom:disarm" not in catalogue(campaign)
    test.refresh_from_db()
    assert [s["name"] for s in test.ledger["spends"]] == ["Extra damage", "Extra damage", "Disarm"]
    with pytest.raises(ServiceError, match="from the list"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "custom:disarm")


# --- Buying dice (MO-08) ------------------------------------------------------------------


def test_mo_08_cost_splits_between_group_pool_and_threat(d20_campaign, player, kara):
    campaign = d20_campaign
    set_pools(campaign, momentum=4, threat=0)
    test = roll(
        campaign, player, kara, [20, 20, 20, 20, 20],
        bought_dice=3, buy_from_momentum=4, expected_momentum=4,
    )  # fmt: skip
    assert test.spec["dice"] == 5 and test.spec["paid"] == {
        "cost": 6,
        "from_momentum": 4,
        "to_threat": 2,
        "threat_spent": 0,
    }
    assert ledger_lines(test.event) == [
        (None, "group_momentum", -4, 0, 0),
        (None, "threat", 2, 2, 0),
    ]
    assert pools(campaign) == (0, 2)


def test_mo_08_a_fourth_bought_die_is_refused(d20_campaign, player, kara):
    campaign = d20_campaign
    seq = head(campaign)
    with pytest.raises(ServiceError, match="At most 3 bonus d20s"):
        roll(campaign, player, kara, [1] * 6, bought_dice=4)
    assert head(campaign) == seq and pools(campaign) == (0, 0)


def test_mo_08_stale_group_pool_refuses_the_purchase_and_changes_nothing(
    d20_campaign, player, kara
):
    campaign = d20_campaign
    set_pools(campaign, momentum=0, threat=5)
    seq = head(campaign)
    with pytest.raises(ServiceError, match="group Momentum pool holds 0; this needs 1"):
        roll(
            campaign, player, kara, [1, 1, 1],
            bought_dice=1, buy_from_momentum=1, expected_momentum=3,
        )  # fmt: skip
    assert head(campaign) == seq and pools(campaign) == (0, 5)
    assert not D20Test.objects.exists()


def test_mo_08_paying_more_momentum_than_the_pool_holds_is_refused(d20_campaign, player, kara):
    set_pools(d20_campaign, momentum=1)
    with pytest.raises(ServiceError, match="holds 1"):
        roll(d20_campaign, player, kara, [1, 1, 1, 1], bought_dice=2, buy_from_momentum=3)
    assert pools(d20_campaign) == (1, 0)


def test_mo_13_gm_buys_npc_dice_with_threat_only(d20_campaign, gm, marcus_sheet):
    campaign = d20_campaign
    set_pools(campaign, momentum=3, threat=2)
    with pytest.raises(ServiceError, match="Threat holds 2"):
        roll(campaign, gm, marcus_sheet, [1] * 4, bought_dice=2)
    with pytest.raises(ServiceError, match="with Threat, not Momentum"):
        roll(campaign, gm, marcus_sheet, [1] * 3, bought_dice=1, buy_from_momentum=1)
    test = roll(campaign, gm, marcus_sheet, [1, 1, 1], bought_dice=1)
    assert ledger_lines(test.event) == [(None, "threat", -1, 1, 0)]
    assert pools(campaign) == (3, 1)
    # An NPC's Momentum is the GM's: unspent, it becomes Threat (CT-R1).
    event = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert ledger_lines(event) == [(None, "threat", 5, 6, 0)]
    assert pools(campaign) == (3, 6)


# --- Tests: target, focus, assistance, Determination ------------------------------------


def test_t_r1_target_is_attribute_plus_skill_and_focus_needs_the_trait(d20_campaign, player, kara):
    campaign = d20_campaign
    test = roll(campaign, player, kara, [13, 14], difficulty=1)
    assert test.spec["target"] == 13 and test.spec["focus"] == 1
    assert test.result["successes"] == 1
    with pytest.raises(ServiceError, match="no focus called “Knives”"):
        roll(campaign, player, kara, [1, 1], focus="Knives")
    with pytest.raises(ServiceError, match="no attribute called “Grace”"):
        roll(campaign, player, kara, [1, 1], attribute="Grace")
    with pytest.raises(ServiceError, match="no skill called “Fight”"):
        roll(campaign, player, kara, [1, 1], skill="Fight")


def test_t_r2_factors_move_the_difficulty_and_it_stays_in_range(d20_campaign, player, kara):
    test = roll(d20_campaign, player, kara, [13, 14], difficulty=1, factors=[-1, -1])
    assert test.result["difficulty"] == 0 and test.result["momentum"] == 1
    with pytest.raises(ServiceError, match="Difficulty must be between 0 and 5"):
        roll(d20_campaign, player, kara, [1, 1], difficulty=6)


def test_t_03_assistance_counts_only_when_the_leader_scores(d20_campaign, player, kara, anna):
    campaign = d20_campaign
    test = roll(campaign, player, kara, [19, 19, 1], difficulty=1, assistants=[anna.pk])
    assert test.result["assistance_successes"] == 2
    assert not test.result["assistance_counted"] and not test.result["passed"]
    test = roll(campaign, player, kara, [1, 19, 5], difficulty=1, assistants=[anna.pk])
    assert test.result["successes"] == 3 and test.result["momentum"] == 2
    assert test.result["assist_dice"] == [
        {"name": "Anna", "face": 5, "successes": 1, "complication": False}
    ]
    with pytest.raises(ServiceError, match="already rolling"):
        roll(campaign, player, kara, [1, 1, 1], assistants=[kara.pk])


def test_t_04_determination_needs_the_gms_leave_and_a_point(d20_campaign, gm, player, kara):
    campaign = d20_campaign
    test = roll(campaign, player, kara, [19, 19], difficulty=1)
    seq = head(campaign)
    with pytest.raises(ServiceError, match="has not allowed"):
        services_d20.determination_reroll(campaign.pk, player, test.pk, [0], rng=FixedDice([1]))
    with pytest.raises(PermissionDenied):
        services_gm.permit_determination(campaign.pk, player, test.pk)
    services_gm.permit_determination(campaign.pk, gm, test.pk)
    Character.objects.filter(pk=kara.pk).update(determination=0)
    with pytest.raises(ServiceError, match="no Determination left"):
        services_d20.determination_reroll(campaign.pk, player, test.pk, [0], rng=FixedDice([1]))
    assert head(campaign) == seq + 1


def test_t_04_no_reroll_once_momentum_is_spent(d20_campaign, gm, player, kara):
    campaign = d20_campaign
    test = roll(campaign, player, kara, [1, 19], difficulty=1)
    services_gm.permit_determination(campaign.pk, gm, test.pk)
    services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
    with pytest.raises(ServiceError, match="before Momentum is spent"):
        services_d20.determination_reroll(campaign.pk, player, test.pk, [1], rng=FixedDice([1]))


# --- Permissions --------------------------------------------------------------------------


def test_a_player_cannot_roll_someone_elses_character(d20_campaign, player2, kara, marcus_sheet):
    seq = head(d20_campaign)
    with pytest.raises(PermissionDenied):
        roll(d20_campaign, player2, kara, [1, 1])
    with pytest.raises(PermissionDenied):
        roll(d20_campaign, player2, marcus_sheet, [1, 1])  # NPCs are the GM's
    assert head(d20_campaign) == seq


@pytest.mark.parametrize("who", ["observer", "outsider"])
def test_observers_and_outsiders_cannot_roll_or_spend(d20_campaign, player, kara, who, request):
    user = request.getfixturevalue(who)
    test = roll(d20_campaign, player, kara, [1, 1], difficulty=0)
    with pytest.raises(PermissionDenied):
        roll(d20_campaign, user, kara, [1, 1])
    with pytest.raises(PermissionDenied):
        services_d20.spend_momentum(d20_campaign.pk, user, test.pk, "obtain_information")
    with pytest.raises(PermissionDenied):
        services_d20.resolve_test(d20_campaign.pk, user, test.pk)


def test_anonymous_cannot_roll(d20_campaign, kara):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        roll(d20_campaign, AnonymousUser(), kara, [1, 1])


def test_another_player_cannot_spend_karas_momentum(d20_campaign, player, player2, kara):
    test = roll(d20_campaign, player, kara, [1, 1], difficulty=0)
    with pytest.raises(PermissionDenied):
        services_d20.spend_momentum(d20_campaign.pk, player2, test.pk, "obtain_information")


def test_d20_play_needs_a_2d20_campaign(momenta_campaign, player, hero):
    with pytest.raises(ServiceError, match="d20 dice system"):
        services_d20.roll_d20_test(
            momenta_campaign.pk,
            player,
            hero.pk,
            services_d20.D20TestRequest(attribute="GRIT", skill="x"),
        )


# --- Secret rolls (TB-03) ------------------------------------------------------------------


def test_tb_03_secret_roll_reaches_gms_only_until_revealed(d20_campaign, gm, player, marcus_sheet):
    campaign = d20_campaign
    seq = head(campaign)
    with pytest.raises(PermissionDenied):
        roll(campaign, player, marcus_sheet, [1, 1], secret=True)
    test = roll(campaign, gm, marcus_sheet, [1, 15], difficulty=1, secret=True)
    assert log_since(campaign, seq) == [(seq + 1, "d20_test", GM)]
    # Players cannot even find it.
    with pytest.raises(ServiceError, match="no such test"):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
    spend = services_d20.spend_momentum(campaign.pk, gm, test.pk, "obtain_information")
    assert spend.audience == GM
    with pytest.raises(PermissionDenied):
        services_gm.reveal_test(campaign.pk, player, test.pk)
    revealed = services_gm.reveal_test(campaign.pk, gm, test.pk)
    assert (revealed.kind, revealed.audience) == ("roll_revealed", ALL)
    assert revealed.payload["revealed_seq"] == seq + 1
    assert "2 successes" in revealed.payload["summary"]
    done = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert done.audience == ALL
    with pytest.raises(ServiceError, match="already revealed"):
        services_gm.reveal_test(campaign.pk, gm, test.pk)


def test_tb_03_a_secret_test_moves_no_pool_the_players_see(d20_campaign, gm, kara, marcus_sheet):
    """Like a secret Momenta roll: while hidden, a test buys dice only with Threat the
    players cannot see, spends only its own Momentum, and is revealed before a
    Determination reroll or before its Momentum is saved to the group pool."""
    campaign = d20_campaign
    set_pools(campaign, momentum=3, threat=2)

    def state():
        kara.refresh_from_db()
        return head(campaign), pools(campaign), kara.determination, PoolChange.objects.count()

    before = state()
    with pytest.raises(ServiceError, match="cannot change Group Momentum"):
        roll(campaign, gm, kara, [1, 2, 3], bought_dice=1, buy_from_momentum=1, secret=True)
    Campaign.objects.filter(pk=campaign.pk).update(threat_visible=True)
    with pytest.raises(ServiceError, match="cannot change Threat"):
        roll(campaign, gm, marcus_sheet, [1, 2, 3], bought_dice=1, secret=True)
    assert state() == before and not D20Test.objects.exists()
    # Hidden Threat is the GM's own: a secret test may pay its dice with it.
    Campaign.objects.filter(pk=campaign.pk).update(threat_visible=False)
    roll(campaign, gm, marcus_sheet, [1, 2, 3], bought_dice=1, secret=True)
    roll(campaign, gm, kara, [1, 2, 3], bought_dice=1, secret=True)
    assert pools(campaign) == (3, 2)  # Marcus spent 1 Threat, Kara's die added 1
    # Kara's secret test: 3 successes against Difficulty 1, 2 Momentum of its own.
    test = roll(campaign, gm, kara, [1, 2], difficulty=1, secret=True)
    services_gm.permit_determination(campaign.pk, gm, test.pk)
    before = state()
    with pytest.raises(ServiceError, match="cannot change Determination"):
        services_d20.determination_reroll(campaign.pk, gm, test.pk, [1], rng=FixedDice([3]))
    with pytest.raises(ServiceError, match="cannot change Group Momentum"):
        services_d20.spend_momentum(campaign.pk, gm, test.pk, "obtain_information", from_pool=1)
    assert state() == before
    spend = services_d20.spend_momentum(campaign.pk, gm, test.pk, "obtain_information")
    assert spend.audience == GM and state()[1:] == before[1:]
    with pytest.raises(ServiceError, match="Reveal the test before its unspent Momentum"):
        services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert pools(campaign) == (3, 2)
    services_gm.reveal_test(campaign.pk, gm, test.pk)
    done = services_d20.resolve_test(campaign.pk, gm, test.pk)
    assert done.audience == ALL and pools(campaign) == (4, 2)


def test_tb_02_rolls_use_the_system_random_source_by_default(
    d20_campaign, player, kara, monkeypatch
):
    """TB-02: with no source given, the faces come from the OS CSPRNG.

    secrets.SystemRandom draws every bit from os.urandom through getrandbits. When
    that yields only zeros, each d20 must show 1; a seeded random.Random (or any
    other source) never asks it, so its faces would differ and nothing is drawn.
    """
    import secrets

    drawn = []

    def zero_bits(self, k):
        drawn.append(k)
        return 0

    monkeypatch.setattr(secrets.SystemRandom, "getrandbits", zero_bits)
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate"),
    )
    assert list(test.result["faces"]) == [1, 1]
    assert len(drawn) >= 2


def test_t_05_preview_odds_match_the_rules(d20_campaign, kara):
    from fractions import Fraction

    request = services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1)
    spec, odds = services_d20.preview_odds(d20_campaign, kara, request, sees_hidden=False)
    # target 13: P(no success on 2d20) = (7/20)^2
    assert odds.pass_chance == 1 - Fraction(7, 20) ** 2
    assert spec["target"] == 13


def test_mo_08_paying_more_from_the_pool_than_the_dice_cost_is_refused(d20_campaign, player, kara):
    # One bought die costs 1: paying 2 of it from the group pool has nothing to pay for.
    set_pools(d20_campaign, momentum=5)
    with pytest.raises(ServiceError, match="Pay between 0 and 1 of the 1 from"):
        roll(d20_campaign, player, kara, [1, 1, 1], bought_dice=1, buy_from_momentum=2)
    assert pools(d20_campaign) == (5, 0)
    assert not D20Test.objects.exists()

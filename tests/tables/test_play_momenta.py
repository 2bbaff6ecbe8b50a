"""Momenta play through the services: rolls, patterns, Assists, Resolve, trauma, secrets.

Dice are injected (rules.dice.FixedDice): the pool's faces first, then the
opposition's. Each refusal is checked to change nothing: same events, same pools.
"""

import pytest
from django.core.exceptions import PermissionDenied

from rules.dice import FixedDice
from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    MomentaRoll,
    PoolChange,
    RollTemplate,
    TableEvent,
)
from tables.services import campaigns, momenta, sessions
from tables.services.core import ServiceError, StaleState
from tables.services.momenta import RollRequest
from tables.services.roll_templates import roll_templates
from tables.templatetags.momenta import roll_card

pytestmark = pytest.mark.django_db

ALL, GM = "all", "gm"


# --- helpers ---------------------------------------------------------------------------


def log(campaign):
    return list(
        TableEvent.objects.filter(campaign=campaign)
        .order_by("seq")
        .values_list("seq", "kind", "audience")
    )


def pools(campaign):
    return {
        c.name: (c.momentum, c.resolve)
        for c in Character.objects.filter(campaign=campaign).order_by("name")
    }


def ledger(campaign, seq):
    return sorted(
        PoolChange.objects.filter(campaign=campaign, event__seq=seq).values_list(
            "character__name", "pool", "delta", "after", "lost"
        )
    )


def roll(campaign, actor, character, faces, **kw):
    kw.setdefault("attribute", "WITS")
    request = RollRequest(**kw)
    return momenta.roll_momenta(campaign.pk, actor, character.pk, request, rng=FixedDice(faces))


def words(made):
    """The roll's card as the log words it (templatetags.momenta)."""
    return roll_card(made.card)


def snapshot(campaign):
    return (log(campaign), pools(campaign), PoolChange.objects.count(), MomentaRoll.objects.count())


def template_id(campaign, name):
    return RollTemplate.objects.get(campaign=campaign, name=name).pk


@pytest.fixture
def raider(momenta_campaign, gm):
    """A GM's NPC with FIGHT 4 and LUCK 2."""
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True)
    npc.attributes.create(name="FIGHT", value=4)
    npc.attributes.create(name="LUCK", value=2)
    return npc


@pytest.fixture
def table(momenta_campaign, hero, sidekick, raider, gm):
    """A session has started: everyone holds 3 Momentum (PM-01). These tests are about
    the rules, so players declare Disadvantage, edges and trauma themselves; who may
    is tested in test_play_momenta_consent.py."""
    Campaign.objects.filter(pk=momenta_campaign.pk).update(players_declare_edges=True)
    momenta_campaign.refresh_from_db()
    sidekick.attributes.create(name="GRIT", value=2)
    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


# --- The scene ---------------------------------------------------------------------------


def test_a_full_momenta_scene(table, gm, player, player2, hero, sidekick, raider):
    """Session start (PM-01), then rolls with Advantage paid (PM-05), Disadvantage (PM-02),
    an accepted Assist (PM-08) with Resolve spent (RS-01) and refunded by Effortless
    (PAT-08), Extra Success (PAT-07, PAT-09), an opposed attack (D6-10) with Solid Hit
    (PAT-06), trauma with cap loss (PM-03, PM-04), and a secret roll revealed (TB-03):
    pools, log and ledger after each step."""
    c = table
    assert log(c) == [(1, "session_started", ALL)]
    assert pools(c) == {"Ash": (3, 3), "Bo": (3, 2), "Raider": (3, 0)}

    # PM-05: Ash pays 1 for a Boon's Advantage (+1d, PM-R1): WITS 4 + 1 = 5 dice.
    first = roll(c, player, hero, [5, 5, 2, 3, 1], advantage_sources=["boon"])
    assert first.result["faces"] == [5, 5, 2, 3, 1]
    assert first.spec["advantage"] is True and first.result["pool"] == 5
    assert first.result["outcome"] == "Success" and first.awaiting
    assert log(c)[-1] == (2, "momenta_roll", ALL)
    assert ledger(c, 2) == [("Ash", "momentum", -1, 2, 0)]
    assert pools(c)["Ash"] == (2, 3)
    assert first.event.payload["paid_by"] == "Ash"
    assert first.event.payload["advantage_sources"] == ["boon"]
    assert words(first)["advantage_sources"] == ["a Boon"]

    # PAT-07, PAT-09: the default allocation is the Extra Success on the 5s.
    patterns = momenta.choose_allocation(c.pk, player, first.pk, None)
    first.refresh_from_db()
    assert (patterns.seq, patterns.kind, patterns.audience) == (3, "momenta_patterns", ALL)
    assert first.applied["allocation"] == [["Extra Success", 5]]
    assert first.applied["outcome"] == "Success with a Bonus"
    assert patterns.payload["roll_seq"] == 2
    assert ledger(c, 3) == []

    # PM-02: GRIT 3 - 1 with Disadvantage; no pair, so resolved at once; +1 after.
    second = roll(c, player, hero, [6, 1], attribute="GRIT", disadvantage=True)
    assert second.result["pool"] == 2 and second.state == MomentaRoll.State.RESOLVED
    assert second.applied["outcome"] == "Success at a Cost"
    assert log(c)[-1] == (4, "momenta_roll", ALL)
    assert ledger(c, 4) == [("Ash", "momentum", 1, 3, 0)]
    assert pools(c)["Ash"] == (3, 3)

    # PM-08: Bo offers an Assist, the GM accepts it.
    assist = momenta.request_assist(c.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(c.pk, gm, assist.pk, "accept")
    assert log(c)[-2:] == [(5, "assist_requested", ALL), (6, "assist_answered", ALL)]
    assert pools(c) == {"Ash": (3, 3), "Bo": (3, 2), "Raider": (3, 0)}

    # Bo funds the Advantage; Ash and Bo each spend 1 Resolve (RS-01).
    third = roll(
        c,
        player,
        hero,
        [3, 3, 3, 5, 6],
        assist_id=assist.pk,
        resolve_spend=[(hero.pk, 1), (sidekick.pk, 1)],
    )
    assert third.result["pool"] == 5 and third.result["outcome"] == "Success"
    assert third.spec["resolve_spent"] == [[hero.pk, 1], [sidekick.pk, 1]]
    assert log(c)[-1] == (7, "momenta_roll", ALL)
    assert ledger(c, 7) == [
        ("Ash", "resolve", -1, 2, 0),
        ("Bo", "momentum", -1, 2, 0),
        ("Bo", "resolve", -1, 1, 0),
    ]
    assert pools(c) == {"Ash": (3, 2), "Bo": (2, 1), "Raider": (3, 0)}
    assert AssistRequest.objects.get(pk=assist.pk).state == AssistRequest.State.USED
    # PAT-09 prefers the better outcome (Extra Success on the 3s) ...
    assert MomentaRoll.objects.get(pk=third.pk).result["default_allocation"] == [
        ["Extra Success", 3]
    ]
    # ... but Ash takes Effortless and gives the Resolve back to Bo (PAT-08).
    momenta.choose_allocation(c.pk, player, third.pk, [("Effortless", 3)], refund_to=[sidekick.pk])
    assert log(c)[-1] == (8, "momenta_patterns", ALL)
    assert ledger(c, 8) == [("Bo", "resolve", 1, 2, 0)]
    assert pools(c) == {"Ash": (3, 2), "Bo": (2, 2), "Raider": (3, 0)}

    # D6-10, PAT-06: the Raider attacks, opposed by a 2d defence roll made now.
    attack = roll(
        c,
        gm,
        raider,
        [6, 6, 5, 2, 5, 1],
        attribute="FIGHT",
        kind="attack",
        template_id=template_id(c, "Attack (damage)"),
        opposition_pool=2,
    )
    assert attack.result["opposition_faces"] == [5, 1]
    assert attack.result["successes"] == 3 and attack.result["effective_successes"] == 2
    assert attack.result["damage"] == 3
    momenta.choose_allocation(c.pk, gm, attack.pk, None)
    attack.refresh_from_db()
    assert attack.applied["allocation"] == [["Solid Hit", 6]]
    assert attack.applied["damage"] == 9 and attack.applied["damage_bonus"] == 6
    assert log(c)[-2:] == [(9, "momenta_roll", ALL), (10, "momenta_patterns", ALL)]
    assert ledger(c, 9) == ledger(c, 10) == []

    # PM-03, PM-04: 4 trauma points on 3 Momentum: +3, 1 lost, and the log says so.
    trauma = momenta.record_trauma(c.pk, gm, hero.pk, 4)
    assert (trauma.seq, trauma.kind, trauma.audience) == (11, "trauma", ALL)
    assert ledger(c, 11) == [("Ash", "momentum", 3, 6, 1)]
    line = PoolChange.objects.get(event=trauma)
    assert "PM-03" in line.reason and "1 lost" in line.reason
    assert pools(c)["Ash"] == (6, 2)

    # TB-03: a secret roll reaches GMs only, until revealed.
    secret = roll(c, gm, raider, [1, 2, 4, 4], attribute="FIGHT", secret=True)
    assert secret.state == MomentaRoll.State.RESOLVED  # a graze: no pattern (PAT-04)
    assert secret.applied["outcome"] == "Setback"
    assert log(c)[-1] == (12, "momenta_roll", GM)
    reveal = momenta.reveal_roll(c.pk, gm, secret.pk)
    assert (reveal.seq, reveal.kind, reveal.audience) == (13, "roll_revealed", ALL)
    assert reveal.payload["revealed_seq"] == 12
    assert reveal.payload["faces"] == [1, 2, 4, 4]
    assert pools(c) == {"Ash": (6, 2), "Bo": (2, 2), "Raider": (3, 0)}
    assert [seq for seq, *_ in log(c)] == list(range(1, 14))


# --- Personal Momentum (PM) ----------------------------------------------------------------


def test_pm_02_disadvantage_roll_gains_one_at_the_table(table, player, hero):
    made = roll(table, player, hero, [1, 2, 3], disadvantage=True)
    assert made.spec["disadvantage"] is True and made.result["pool"] == 3
    assert pools(table)["Ash"] == (4, 3)
    assert "PM-02" in PoolChange.objects.get(event=made.event).reason


def test_pm_04_disadvantage_gain_at_the_cap_is_lost_and_logged(table, gm, player, hero):
    sessions.adjust_pool(table.pk, gm, "momentum", 3, "test", character_id=hero.pk)
    made = roll(table, player, hero, [1, 2, 3], disadvantage=True)
    assert ledger(table, made.event.seq) == [("Ash", "momentum", 0, 6, 1)]
    assert "lost above the cap" in PoolChange.objects.get(event=made.event).reason


def test_pm_05_characteristic_advantage_costs_two(table, player, hero):
    made = roll(table, player, hero, [1, 2, 3, 4, 6], advantage_sources=["characteristic"])
    assert made.result["pool"] == 5
    assert ledger(table, made.event.seq) == [("Ash", "momentum", -2, 1, 0)]


def test_pm_06_several_sources_give_one_advantage_at_the_cheapest_cost(table, player, hero):
    made = roll(table, player, hero, [1, 2, 3, 4, 6], advantage_sources=["characteristic", "boon"])
    assert made.result["pool"] == 5  # one Advantage: +1d, not +2d
    assert ledger(table, made.event.seq) == [("Ash", "momentum", -1, 2, 0)]


def test_pm_07_without_enough_momentum_the_roll_is_made_normally(table, gm, player, hero):
    sessions.adjust_pool(table.pk, gm, "momentum", -2, "test", character_id=hero.pk)
    made = roll(table, player, hero, [1, 2, 3, 4], advantage_sources=["characteristic"])
    assert made.result["pool"] == 4 and made.spec["advantage"] is False
    assert ledger(table, made.event.seq) == []
    assert any("PM-07" in note for note in words(made)["momentum_notes"])
    assert pools(table)["Ash"] == (1, 3)


def test_pm_08_assist_cannot_stack_on_advantage_the_roller_pays(
    table, gm, player, player2, hero, sidekick
):
    """One Advantage (+1d), paid by the roller; the helper's Momentum is not spent."""
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    made = roll(table, player, hero, [1] * 5, advantage_sources=["boon"], assist_id=assist.pk)
    assert made.result["pool"] == 5
    assert ledger(table, made.event.seq) == [("Ash", "momentum", -1, 2, 0)]
    assert pools(table)["Bo"] == (3, 2)


def test_pm_08_an_assist_counts_only_once_the_gm_accepts_it(table, player, player2, hero, sidekick):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    before = snapshot(table)
    with pytest.raises(ServiceError, match="accepted"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    assert snapshot(table) == before


def test_pm_08_one_open_assist_per_roller(table, player, player2, hero, sidekick, raider):
    momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    with pytest.raises(ServiceError, match="one Assist per roll"):
        momenta.request_assist(table.pk, player, hero.pk, raider.pk)


def test_pm_08_a_helper_without_momentum_cannot_assist(table, gm, player, player2, hero, sidekick):
    """Spending Momentum that is not there: a clear message, nothing changed."""
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    sessions.adjust_pool(table.pk, gm, "momentum", -3, "test", character_id=sidekick.pk)
    before = snapshot(table)
    with pytest.raises(ServiceError, match="Bo has no Momentum to lend"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)
    assert snapshot(table) == before


def test_pm_08_only_the_gm_accepts_an_assist(table, player, player2, hero, sidekick):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    with pytest.raises(PermissionDenied):
        momenta.answer_assist(table.pk, player, assist.pk, "accept")
    # The helper's own player may withdraw.
    momenta.answer_assist(table.pk, player2, assist.pk, "decline")
    assert AssistRequest.objects.get(pk=assist.pk).state == AssistRequest.State.DECLINED


def test_pm_09_a_structured_assist_is_the_helpers_action(
    table, gm, player, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk, structured=True)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    made = roll(table, player, hero, [1] * 5, assist_id=assist.pk, play="structured")
    assert any("PM-09" in note for note in words(made)["momentum_notes"])


def test_pm_10_the_roll_waits_for_the_test_the_gm_called(
    table, gm, player, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "call_test")
    with pytest.raises(ServiceError, match="The GM called a test from the helper: roll it first"):
        roll(table, player, hero, [1] * 5, assist_id=assist.pk)


def test_pm_10_a_failed_test_costs_the_helper_nothing(table, gm, player, player2, hero, sidekick):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "call_test")
    momenta.answer_assist(table.pk, gm, assist.pk, "test_failed")
    made = roll(table, player, hero, [1, 2, 3, 4], assist_id=assist.pk)
    assert made.result["pool"] == 4 and ledger(table, made.event.seq) == []
    assert AssistRequest.objects.get(pk=assist.pk).state == AssistRequest.State.FAILED
    assert pools(table)["Bo"] == (3, 2)


def test_pm_10_a_passed_test_pays_the_assist(table, gm, player, player2, hero, sidekick):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "call_test")
    momenta.answer_assist(table.pk, gm, assist.pk, "test_passed")
    made = roll(table, player, hero, [1, 2, 3, 4, 4], assist_id=assist.pk)
    assert made.result["pool"] == 5
    assert ledger(table, made.event.seq) == [("Bo", "momentum", -1, 2, 0)]


def test_pm_11_advantage_and_disadvantage_cancel(table, player, hero):
    made = roll(table, player, hero, [1, 2, 3, 4], advantage_sources=["boon"], disadvantage=True)
    assert made.result["pool"] == 4
    assert ledger(table, made.event.seq) == []
    assert made.card["cancelled"] is True


def test_pm_12_in_creation_advantage_applies_without_momentum(table, player, hero):
    Character.objects.filter(pk=hero.pk).update(in_creation=True)
    made = roll(table, player, hero, [1, 2, 3, 4, 5], advantage_sources=["characteristic"])
    assert made.result["pool"] == 5 and ledger(table, made.event.seq) == []
    made = roll(table, player, hero, [1, 2, 3], disadvantage=True)
    assert made.result["pool"] == 3 and ledger(table, made.event.seq) == []


def test_pm_12_trauma_in_creation_gains_no_momentum(table, gm, hero):
    Character.objects.filter(pk=hero.pk).update(in_creation=True)
    event = momenta.record_trauma(table.pk, gm, hero.pk, 2)
    assert event.payload["creation"] is True and ledger(table, event.seq) == []
    assert pools(table)["Ash"] == (3, 3)


def test_pm_03_the_owner_records_trauma_but_not_on_others(table, player, hero, sidekick):
    event = momenta.record_trauma(table.pk, player, hero.pk, 1)
    assert ledger(table, event.seq) == [("Ash", "momentum", 1, 4, 0)]
    with pytest.raises(PermissionDenied):
        momenta.record_trauma(table.pk, player, sidekick.pk, 1)


def test_pm_r1_advantage_and_disadvantage_dice_follow_the_campaign(table, gm, player, hero):
    campaigns.update_campaign_settings(table.pk, gm, {"advantage_dice": 2, "disadvantage_dice": 3})
    made = roll(table, player, hero, [1] * 6, advantage_sources=["boon"])
    assert made.result["pool"] == 6
    made = roll(table, player, hero, [1], disadvantage=True)
    assert made.result["pool"] == 1


# --- Resolve (RS-01) -------------------------------------------------------------------------


def test_rs_01_spending_resolve_that_is_not_there_changes_nothing(table, player, hero):
    before = snapshot(table)
    with pytest.raises(ServiceError, match="Ash has 3 Resolve"):
        roll(table, player, hero, [1] * 4, resolve_spend=[(hero.pk, 4)])
    assert snapshot(table) == before


def test_rs_01_resolve_is_spent_on_narrative_action_rolls_only(table, player, hero):
    with pytest.raises(ServiceError, match="Resolve is spent on narrative action rolls only"):
        roll(table, player, hero, [1] * 4, play="structured", resolve_spend=[(hero.pk, 1)])


def test_rs_01_only_the_roller_and_the_assisting_ally_spend_resolve(table, player, hero, sidekick):
    with pytest.raises(ServiceError, match="Only the roller and an ally whose Assist landed"):
        roll(table, player, hero, [1] * 4, resolve_spend=[(sidekick.pk, 1)])


def test_pat_08_effortless_goes_back_only_to_who_spent(table, player, hero, sidekick):
    made = roll(table, player, hero, [2, 2, 2, 5], resolve_spend=[(hero.pk, 1)])
    before = snapshot(table)
    with pytest.raises(ServiceError, match="Bo spent no Resolve"):
        momenta.choose_allocation(
            table.pk, player, made.pk, [("Effortless", 2)], refund_to=[sidekick.pk]
        )
    assert snapshot(table) == before
    momenta.choose_allocation(table.pk, player, made.pk, [("Effortless", 2)])
    assert pools(table)["Ash"] == (3, 3)


# --- Dice pools and patterns (D6, PAT) ---------------------------------------------------------


def test_pat_02_an_illegal_allocation_is_refused_and_changes_nothing(table, player, hero):
    made = roll(table, player, hero, [5, 5, 2, 3])
    before = snapshot(table)
    with pytest.raises(ServiceError, match="each die may serve only one pattern"):
        momenta.choose_allocation(table.pk, player, made.pk, [("Extra Success", 5)] * 2)
    with pytest.raises(ServiceError, match="Solid Hit"):
        momenta.choose_allocation(table.pk, player, made.pk, [("Solid Hit", 5)])
    with pytest.raises(ServiceError, match="no pattern called"):
        momenta.choose_allocation(table.pk, player, made.pk, [("Lucky Streak", 5)])
    assert snapshot(table) == before
    assert MomentaRoll.objects.get(pk=made.pk).awaiting


def test_pat_02_the_roller_may_allocate_nothing(table, player, hero):
    made = roll(table, player, hero, [5, 5, 2, 3])
    event = momenta.choose_allocation(table.pk, player, made.pk, [])
    assert event.payload["applied"]["outcome"] == "Success"


def test_patterns_are_chosen_once(table, player, hero):
    """A double click: the second allocation is refused, nothing applied twice."""
    made = roll(table, player, hero, [5, 5, 2, 3])
    momenta.choose_allocation(table.pk, player, made.pk, None)
    with pytest.raises(ServiceError, match="already chosen"):
        momenta.choose_allocation(table.pk, player, made.pk, None)


def test_only_the_roller_chooses_the_patterns(table, player, player2, hero):
    made = roll(table, player, hero, [5, 5, 2, 3])
    with pytest.raises(PermissionDenied):
        momenta.choose_allocation(table.pk, player2, made.pk, None)


def test_pat_r1_extra_success_stacks_only_when_the_ruling_is_on(table, gm, player, hero):
    made = roll(table, player, hero, [5, 1, 1, 2, 2], modifiers=[1])  # 1 success, two Doubles
    momenta.choose_allocation(table.pk, player, made.pk, None)
    assert MomentaRoll.objects.get(pk=made.pk).applied["outcome"] == "Success with a Bonus"
    campaigns.update_campaign_settings(table.pk, gm, {"extra_success_stacks": False})
    made = roll(table, player, hero, [5, 1, 1, 2, 2], modifiers=[1])
    both = [("Extra Success", 1), ("Extra Success", 2)]
    momenta.choose_allocation(table.pk, player, made.pk, both)
    assert MomentaRoll.objects.get(pk=made.pk).applied["outcome"] == "Success"


def test_pat_r2_the_narrative_template_reads_the_campaign_labels(table, gm, player, hero):
    campaigns.update_campaign_settings(table.pk, gm, {"band_label_0": "Trouble"})
    made = roll(table, player, hero, [1, 2, 3, 4])
    assert made.result["outcome"] == "Trouble"


def test_d6_06_modifiers_net_together(table, player, hero):
    made = roll(table, player, hero, [1] * 5, modifiers=[2, -1])
    assert made.result["pool"] == 5
    assert words(made)["pool_parts"] == ["WITS 4d", "+2d modifier", "-1d modifier"]


@pytest.mark.parametrize("modifiers", [[21], [1] * 11])
def test_d6_06_the_service_refuses_modifiers_beyond_the_tables_limits(
    table, player, hero, modifiers
):
    """The form says so first; a caller without it gets the same refusal."""
    before = snapshot(table)
    with pytest.raises(ServiceError, match="At most 10 modifiers, each of at most 20 dice"):
        roll(table, player, hero, [1] * 40, modifiers=modifiers)
    assert snapshot(table) == before


def test_d6_07_a_zero_dice_roll_keeps_the_lowest_and_has_no_patterns(table, player, hero):
    made = roll(table, player, hero, [6, 6], modifiers=[-4])
    assert made.result["zero_dice"] is True and made.result["kept"] == [6]
    assert made.state == MomentaRoll.State.RESOLVED and made.applied["allocation"] == []


def test_d6_08_a_thread_adds_two_dice_in_narrative_play(table, player, hero):
    thread = hero.traits.create(kind="thread", text="Owes the Guild")
    made = roll(table, player, hero, [1] * 6, thread=thread.pk)
    assert made.result["pool"] == 6
    assert "+2d Thread: Owes the Guild" in words(made)["pool_parts"]


def test_d6_09_threads_never_apply_to_attacks(table, player, hero):
    thread = hero.traits.create(kind="thread", text="Owes the Guild")
    with pytest.raises(ServiceError, match="Threads never apply to attacks"):
        roll(table, player, hero, [1] * 6, thread=thread.pk, kind="attack")


def test_d6_10_opposition_successes_reduce_the_effective_successes(table, gm, hero):
    made = roll(table, gm, hero, [5, 6, 1, 1], opposition_successes=1)
    assert made.result["effective_successes"] == 1
    assert made.result["outcome"] == "Success at a Cost"


def test_d6_11_luck_makes_a_straight_luck_roll(table, player, hero):
    made = roll(table, player, hero, [5, 5], attribute="LUCK")
    assert made.spec["kind"] == "luck" and made.result["pool"] == 2
    with pytest.raises(ServiceError, match="A luck roll is a straight roll of LUCK"):
        roll(table, player, hero, [1, 1, 1], attribute="LUCK", modifiers=[1])
    with pytest.raises(ServiceError, match="A luck roll is a straight roll of LUCK"):
        roll(table, player, hero, [1, 1, 1], attribute="LUCK", advantage_sources=["boon"])
    with pytest.raises(ServiceError, match="A luck roll uses the LUCK attribute"):
        roll(table, player, hero, [1] * 3, attribute="GRIT", kind="luck")


def test_tb_02_production_rolls_use_the_system_random_source(table, player, hero, monkeypatch):
    """TB-02: with no source given, the faces come from the OS CSPRNG.

    secrets.SystemRandom draws every bit from os.urandom through getrandbits. When
    that yields only zeros, each d6 must show 1; a seeded random.Random (or any
    other source) never asks it, so its faces would differ and nothing is drawn.
    """
    import secrets

    drawn = []

    def zero_bits(self, k):
        drawn.append(k)
        return 0

    monkeypatch.setattr(secrets.SystemRandom, "getrandbits", zero_bits)
    made = momenta.roll_momenta(table.pk, player, hero.pk, momenta.RollRequest(attribute="WITS"))
    assert list(made.result["faces"]) == [1, 1, 1, 1]
    assert len(drawn) >= 4


# --- Secret rolls (TB-03) -------------------------------------------------------------------


def test_tb_03_a_secret_roll_and_its_patterns_stay_with_the_gm(table, gm, player, raider):
    made = roll(table, gm, raider, [5, 5, 1, 2], attribute="FIGHT", secret=True)
    assert made.event.audience == GM
    event = momenta.choose_allocation(table.pk, gm, made.pk, None)
    assert event.audience == GM
    momenta.reveal_roll(table.pk, gm, made.pk)
    with pytest.raises(ServiceError, match="already revealed"):
        momenta.reveal_roll(table.pk, gm, made.pk)


def test_tb_03_players_neither_reveal_nor_touch_a_hidden_roll(table, gm, player, hero):
    made = roll(table, gm, hero, [5, 5, 1, 2], secret=True)
    with pytest.raises(ServiceError, match="not at this table"):
        momenta.choose_allocation(table.pk, player, made.pk, None)
    with pytest.raises(PermissionDenied):
        momenta.reveal_roll(table.pk, player, made.pk)


def test_tb_03_a_secret_roll_changes_no_pool(table, gm, raider):
    """PM-13: every member sees every pool, so a pool change would betray the roll."""
    before = snapshot(table)
    with pytest.raises(ServiceError, match="every member sees every pool"):
        roll(table, gm, raider, [1] * 5, attribute="FIGHT", secret=True, disadvantage=True)
    assert snapshot(table) == before


def test_only_the_gm_rolls_in_secret_or_sets_the_opposition(table, player, hero):
    with pytest.raises(PermissionDenied):
        roll(table, player, hero, [1] * 4, secret=True)
    with pytest.raises(PermissionDenied):
        roll(table, player, hero, [1] * 4, opposition_successes=1)


# --- Who may roll -----------------------------------------------------------------------------


def test_a_player_cannot_roll_for_someone_elses_character(table, player2, hero):
    before = snapshot(table)
    with pytest.raises(PermissionDenied):
        roll(table, player2, hero, [1] * 4)
    assert snapshot(table) == before


@pytest.mark.parametrize("who", ["observer", "outsider"])
def test_observers_and_outsiders_cannot_roll(table, hero, who, request):
    with pytest.raises(PermissionDenied):
        roll(table, request.getfixturevalue(who), hero, [1] * 4)


def test_a_stale_form_is_refused_with_the_new_value(table, gm, player, hero):
    sessions.adjust_pool(table.pk, gm, "momentum", -3, "test", character_id=hero.pk)
    before = snapshot(table)
    # The form was drawn while Ash had 3; with 0 the Boon's Advantage would be dropped
    # (PM-07), which matters: refused, nothing happens.
    with pytest.raises(StaleState, match=r"Ash's Momentum is now 0 \(your page showed 3\)"):
        roll(table, player, hero, [1] * 5, advantage_sources=["boon"], expected_momentum=3)
    assert snapshot(table) == before


def test_a_moved_pool_that_still_pays_does_not_refuse_the_roll(table, gm, player, hero):
    """Ash's Momentum moved since the form was drawn (3 → 2), but still pays the Advantage."""
    sessions.adjust_pool(table.pk, gm, "momentum", -1, "test", character_id=hero.pk)
    roll(table, player, hero, [1] * 5, advantage_sources=["boon"], expected_momentum=3)
    hero.refresh_from_db()
    assert hero.momentum < 2


def test_a_2d20_campaign_has_no_momenta_rolls(d20_campaign, gm, kara):
    with pytest.raises(ServiceError, match="2d20"):
        momenta.roll_momenta(d20_campaign.pk, gm, kara.pk, RollRequest(attribute="Power"))


# --- GM: templates and custom patterns -------------------------------------------------------


DEFAULT_NAMES = ["Narrative action", "Attack (damage)", "Attack (strain)"]


def test_d6_04_a_new_d6_campaign_has_the_default_templates(gm):
    campaign = campaigns.create_campaign(gm, "Salt", Campaign.Preset.MOMENTA)
    assert [t.name for t in roll_templates(campaign)] == DEFAULT_NAMES
    d20 = campaigns.create_campaign(gm, "Dune", Campaign.Preset.D20)
    assert roll_templates(d20) == []


def test_d6_04_switching_to_d6_dice_seeds_the_default_templates_once(gm):
    campaign = campaigns.create_campaign(gm, "Dune", Campaign.Preset.D20)
    campaigns.update_campaign_settings(campaign.pk, gm, {"dice_system": "d6"})
    assert [t.name for t in roll_templates(campaign)] == DEFAULT_NAMES
    campaigns.update_campaign_settings(campaign.pk, gm, {"dice_system": "d20"})
    campaigns.update_campaign_settings(campaign.pk, gm, {"dice_system": "d6"})
    assert [t.name for t in roll_templates(campaign)] == DEFAULT_NAMES


def test_reading_the_templates_writes_nothing(momenta_campaign):
    """The composer reads them on a GET: a campaign without any (made outside the
    services) stays without until a command seeds them under the lock."""
    RollTemplate.objects.filter(campaign=momenta_campaign).delete()
    assert roll_templates(momenta_campaign) == []
    assert not RollTemplate.objects.filter(campaign=momenta_campaign).exists()


def test_d6_04_the_gm_saves_a_template_the_rules_accept(table, gm, player, hero):
    data = {"name": "Hack", "bands": ["Alarm", "Slow", "In", "Root"], "overflow": "+1 file"}
    event = momenta.save_roll_template(table.pk, gm, data)
    assert event.kind == "roll_template_saved"
    made = roll(
        table, player, hero, [5] * 4 + [6], template_id=event.payload["template_id"], modifiers=[1]
    )
    assert made.result["outcome"] == "Root" and made.result["overflow"] == 2
    with pytest.raises(ServiceError, match="four whole numbers"):
        momenta.save_roll_template(table.pk, gm, data | {"name": "Bad", "damage": [1, 2]})
    with pytest.raises(PermissionDenied):
        momenta.save_roll_template(table.pk, player, data | {"name": "Mine"})


def test_pat_01_a_custom_pattern_triggers_like_the_builtins(table, gm, player, hero):
    data = {"name": "Lucky Streak", "kind": "quad", "effect": "text", "description": "Find a clue"}
    momenta.save_custom_pattern(table.pk, gm, data)
    made = roll(table, player, hero, [2, 2, 2, 2, 5], modifiers=[1])
    momenta.choose_allocation(table.pk, player, made.pk, [("Lucky Streak", 2)])
    assert MomentaRoll.objects.get(pk=made.pk).applied["texts"] == ["Find a clue"]
    with pytest.raises(ServiceError, match="every character has"):
        momenta.save_custom_pattern(table.pk, gm, data | {"name": "Solid Hit"})
    with pytest.raises(ServiceError, match="kind must be"):
        momenta.save_custom_pattern(table.pk, gm, data | {"name": "X", "kind": "pair"})

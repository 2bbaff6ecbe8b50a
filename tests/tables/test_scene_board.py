"""The scene board (issue 23): traits the GM notes, Create Trait spends (MO-09, MO-09b),
scene assets (MO-10) and what ends with the scene.

Kara (Power 7 + Communicate 6 = 13, focus 1) rolls two 1s at Difficulty 0: 4 successes,
so 4 Momentum to spend (MO-01).
"""

import pytest
from django.core.exceptions import PermissionDenied

from rules.dice import FixedDice
from tables.models import Campaign, PoolChange, SceneTrait, TableEvent
from tables.policy.play import current_scene
from tables.services import d20 as services_d20
from tables.services import scene_board, sessions
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db


def passed_test(campaign, player, kara):
    return services_d20.roll_d20_test(
        campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
        rng=FixedDice([1, 1]),
    )


def board(campaign):
    """The standing entries' texts, oldest first."""
    return list(
        SceneTrait.objects.filter(campaign=campaign, removed_at__isnull=True).values_list(
            "text", flat=True
        )
    )


def state(campaign):
    """Everything a refused command must leave as it was."""
    traits = SceneTrait.objects.filter(campaign=campaign)
    return (
        TableEvent.objects.filter(campaign=campaign).count(),
        PoolChange.objects.filter(campaign=campaign).count(),
        sorted(traits.values_list("pk", "text", "hidden", "removed_at")),
    )


# --- GM tools and permissions -------------------------------------------------------------


def test_mo_09b_gm_puts_a_trait_on_the_board_as_an_ordered_event(d20_campaign, gm):
    event = scene_board.add_trait(d20_campaign.pk, gm, "  The guards are   Distracted ")
    assert board(d20_campaign) == ["The guards are Distracted"]
    assert event.kind == "board_trait" and event.audience == "all"
    assert event.payload["action"] == "added" and event.payload["text"] == (
        "The guards are Distracted"
    )
    trait = SceneTrait.objects.get()
    assert trait.scene == current_scene(d20_campaign)


@pytest.mark.parametrize("text", ["", "   ", "x" * 201])
def test_mo_09b_empty_or_too_long_trait_text_is_refused_and_changes_nothing(d20_campaign, gm, text):
    before = state(d20_campaign)
    with pytest.raises(ServiceError, match="trait"):
        scene_board.add_trait(d20_campaign.pk, gm, text)
    assert state(d20_campaign) == before


def test_mo_09b_a_trait_of_200_characters_is_allowed(d20_campaign, gm):
    scene_board.add_trait(d20_campaign.pk, gm, "x" * 200)
    assert board(d20_campaign) == ["x" * 200]


def test_mo_09b_editing_a_trait_of_another_campaign_is_refused(d20_campaign, momenta_campaign, gm):
    other = scene_board.add_trait(momenta_campaign.pk, gm, "Fog")
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="not on this table's board"):
        scene_board.edit_trait(d20_campaign.pk, gm, other.payload["trait_id"], "Clear skies")
    with pytest.raises(ServiceError, match="not on this table's board"):
        scene_board.remove_trait(d20_campaign.pk, gm, other.payload["trait_id"])
    assert state(momenta_campaign) == before


def test_mo_09b_a_player_cannot_remove_or_edit_a_gm_trait(d20_campaign, gm, player):
    d20_campaign.players_note_traits = True
    d20_campaign.save()
    trait_id = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    before = state(d20_campaign)
    with pytest.raises(PermissionDenied):
        scene_board.remove_trait(d20_campaign.pk, player, trait_id)
    with pytest.raises(PermissionDenied):
        scene_board.edit_trait(d20_campaign.pk, player, trait_id, "Clear")
    assert state(d20_campaign) == before


def test_mo_09b_players_note_traits_only_where_the_campaign_allows(d20_campaign, player):
    with pytest.raises(PermissionDenied):
        scene_board.add_trait(d20_campaign.pk, player, "My Thread", kind="thread")
    Campaign.objects.filter(pk=d20_campaign.pk).update(players_note_traits=True)
    trait_id = scene_board.add_trait(d20_campaign.pk, player, "My Thread", kind="thread")
    trait_id = trait_id.payload["trait_id"]
    scene_board.edit_trait(d20_campaign.pk, player, trait_id, "My old debt")
    scene_board.remove_trait(d20_campaign.pk, player, trait_id)
    assert board(d20_campaign) == []


def test_mo_09b_observers_and_outsiders_change_nothing(d20_campaign, gm, observer, outsider):
    trait_id = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    before = state(d20_campaign)
    for who in (observer, outsider):
        with pytest.raises(PermissionDenied):
            scene_board.add_trait(d20_campaign.pk, who, "Rain")
        with pytest.raises(PermissionDenied):
            scene_board.remove_trait(d20_campaign.pk, who, trait_id)
        with pytest.raises(PermissionDenied):
            scene_board.reveal_trait(d20_campaign.pk, who, trait_id)
    assert state(d20_campaign) == before


def test_mo_09b_a_trait_removed_meanwhile_is_refused_with_a_message(d20_campaign, gm, cogm):
    trait_id = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.remove_trait(d20_campaign.pk, cogm, trait_id)
    before = state(d20_campaign)
    with pytest.raises(ServiceError, match="removed from the board meanwhile"):
        scene_board.edit_trait(d20_campaign.pk, gm, trait_id, "Thick fog")
    assert state(d20_campaign) == before


def test_mo_09b_a_hidden_trait_is_the_gms_until_revealed_in_one_action(d20_campaign, gm, player):
    added = scene_board.add_trait(d20_campaign.pk, gm, "Ambush ahead", hidden=True)
    assert added.audience == "gm"
    trait_id = added.payload["trait_id"]
    # A player naming it is told it is not there, as for any trait not theirs to see.
    Campaign.objects.filter(pk=d20_campaign.pk).update(players_note_traits=True)
    with pytest.raises(ServiceError, match="not on this table's board"):
        scene_board.remove_trait(d20_campaign.pk, player, trait_id)
    revealed = scene_board.reveal_trait(d20_campaign.pk, gm, trait_id)
    assert revealed.audience == "all" and revealed.payload["text"] == "Ambush ahead"
    assert not SceneTrait.objects.get(pk=trait_id).hidden


def test_mo_09b_hiding_a_trait_tells_players_nothing_of_it(d20_campaign, gm):
    trait_id = scene_board.add_trait(d20_campaign.pk, gm, "Ambush ahead").payload["trait_id"]
    event = scene_board.hide_trait(d20_campaign.pk, gm, trait_id)
    assert event.audience == "all"  # their boards must drop it
    assert "Ambush" not in str(event.payload)


# --- MO-09: Create a Trait ------------------------------------------------------------------


def test_mo_09_create_trait_spend_puts_the_trait_on_the_board(d20_campaign, player, kara):
    test = passed_test(d20_campaign, player, kara)
    event = services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "create_trait", note="The guards are Distracted"
    )
    assert board(d20_campaign) == ["The guards are Distracted"]
    assert event.payload["trait"]["action"] == "create"
    trait = SceneTrait.objects.get()
    assert trait.character == kara and trait.origin == "Kara's Create Trait spend"


def test_mo_09_create_trait_changes_or_removes_a_standing_trait(d20_campaign, gm, player, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    rain = scene_board.add_trait(d20_campaign.pk, gm, "Rain").payload["trait_id"]
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "create_trait", note="Thin fog", trait_id=fog
    )
    test2 = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(
        d20_campaign.pk, player, test2.pk, "create_trait", trait_id=rain, remove_trait=True
    )
    assert board(d20_campaign) == ["Thin fog"]


@pytest.mark.parametrize("text", ["   ", "x" * 201])
def test_mo_09_bad_trait_text_spends_nothing(d20_campaign, gm, player, kara, text):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    test = passed_test(d20_campaign, player, kara)
    before = state(d20_campaign), d20_campaign.group_momentum
    with pytest.raises(ServiceError, match="trait"):
        services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "create_trait", note=text, trait_id=fog
        )
    d20_campaign.refresh_from_db()
    assert (state(d20_campaign), d20_campaign.group_momentum) == before
    test.refresh_from_db()
    assert test.ledger.get("spends", []) == []


def test_mo_09_a_trait_removed_meanwhile_spends_nothing(d20_campaign, gm, player, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    test = passed_test(d20_campaign, player, kara)
    scene_board.remove_trait(d20_campaign.pk, gm, fog)
    before = state(d20_campaign)
    with pytest.raises(ServiceError, match="removed from the board meanwhile"):
        services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "create_trait", trait_id=fog, remove_trait=True
        )
    assert state(d20_campaign) == before
    test.refresh_from_db()
    assert test.ledger.get("spends", []) == []


def test_mo_09_mo_12_a_veto_undoes_exactly_that_change_and_says_so(d20_campaign, gm, player, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "create_trait", note="Distracted guards"
    )
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "obtain_information", note="Who?")
    test2 = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(
        d20_campaign.pk, player, test2.pk, "create_trait", note="Thick fog", trait_id=fog
    )
    assert board(d20_campaign) == ["Thick fog", "Distracted guards"]

    veto = services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0, reason="Too easy")
    assert board(d20_campaign) == ["Thick fog"]
    assert "“Distracted guards” leaves the board." in veto.payload["summary"]
    veto = services_d20.veto_spend(d20_campaign.pk, gm, test2.pk, 0)
    assert board(d20_campaign) == ["Fog"]
    assert "The trait reads “Fog” again." in veto.payload["summary"]


def test_mo_09_mo_12_vetoing_a_removal_puts_the_trait_back(d20_campaign, gm, player, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "create_trait", trait_id=fog, remove_trait=True
    )
    assert board(d20_campaign) == []
    veto = services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0)
    assert board(d20_campaign) == ["Fog"]
    assert "“Fog” is back on the board." in veto.payload["summary"]


def test_mo_09_a_secret_tests_trait_is_hidden(d20_campaign, gm, kara):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=0, secret=True
        ),
        rng=FixedDice([1, 1]),
    )
    event = services_d20.spend_momentum(
        d20_campaign.pk, gm, test.pk, "create_trait", note="Secret door"
    )
    assert event.audience == "gm"
    assert SceneTrait.objects.get().hidden


# --- MO-10: assets --------------------------------------------------------------------------


def test_mo_10_a_veto_removes_the_asset_even_after_make_permanent(d20_campaign, gm, player, kara):
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset", note="Ally")
    services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "make_asset_permanent", note="Ally"
    )
    assert kara.assets.filter(name="Ally", permanent=True).exists()
    services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0)
    assert not kara.assets.filter(name="Ally").exists()


# --- Scene end ------------------------------------------------------------------------------


def test_mo_09b_traits_end_with_the_scene_unless_kept(d20_campaign, gm, player, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.add_trait(d20_campaign.pk, gm, "Rain")
    scene_board.add_trait(d20_campaign.pk, gm, "Curfew", lasting=True)
    scene_board.add_trait(d20_campaign.pk, gm, "Spy", hidden=True)
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset", note="Ally")
    ally = kara.assets.get(name="Ally")  # and the fixture's "Quiet corner" is not kept

    event = sessions.end_scene(d20_campaign.pk, gm, keep_traits=[fog], keep_assets=[ally.pk])
    assert board(d20_campaign) == ["Fog", "Curfew"]
    assert sorted(kara.assets.values_list("name", flat=True)) == ["Ally", "Signet ring"]
    assert event.payload["ended_traits"] == ["Rain"]  # never the hidden one
    assert event.payload["kept_traits"] == ["Fog", "Curfew"]
    # The next scene's board starts from what was kept.
    scene = sessions.start_scene(d20_campaign.pk, gm, "Night")
    assert set(
        SceneTrait.objects.filter(removed_at__isnull=True).values_list("scene", flat=True)
    ) == {scene.pk}


def test_mo_09b_a_trait_that_ended_with_its_scene_is_refused_by_name(d20_campaign, gm):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    sessions.end_scene(d20_campaign.pk, gm)
    with pytest.raises(ServiceError, match="ended with its scene"):
        scene_board.edit_trait(d20_campaign.pk, gm, fog, "More fog")


# --- Rolling on the board (MO-09b) ----------------------------------------------------------


def roll_marked(campaign, who, kara, traits, *, difficulty=1, secret=False, faces=(1, 20)):
    return services_d20.roll_d20_test(
        campaign.pk,
        who,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power",
            skill="Communicate",
            difficulty=difficulty,
            traits=traits,
            secret=secret,
        ),
        rng=FixedDice(list(faces)),
    )


def test_mo_09b_a_hindering_trait_is_one_difficulty_step_harder_and_the_card_names_it(
    d20_campaign, gm, player, kara
):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    rain = scene_board.add_trait(d20_campaign.pk, gm, "Rain").payload["trait_id"]
    test = roll_marked(d20_campaign, player, kara, [(fog, 1)])
    assert test.spec["final_difficulty"] == 2
    assert test.spec["traits"] == [{"trait_id": fog, "text": "Fog", "effect": 1}]
    assert test.event.payload["spec"]["traits"][0]["text"] == "Fog"
    both = roll_marked(d20_campaign, player, kara, [(fog, 1), (rain, -1)], difficulty=2)
    assert both.spec["final_difficulty"] == 2
    helped = roll_marked(d20_campaign, player, kara, [(rain, -1)])
    assert helped.spec["final_difficulty"] == 0


def test_mo_09b_the_odds_follow_the_traits_marked(d20_campaign, gm, kara):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]

    def pass_chance(traits):
        request = services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=1, traits=traits
        )
        return services_d20.preview_odds(d20_campaign, kara, request, sees_hidden=False)[
            1
        ].pass_chance

    plain = services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=2)
    assert (
        pass_chance([(fog, 1)])
        == services_d20.preview_odds(d20_campaign, kara, plain, sees_hidden=False)[1].pass_chance
    )
    assert pass_chance([(fog, 1)]) < pass_chance([]) < pass_chance([(fog, -1)])


@pytest.mark.parametrize("gone", ["removed", "scene_ended", "other_campaign"])
def test_mo_09b_marking_a_trait_gone_or_of_another_scene_spends_nothing(
    d20_campaign, momenta_campaign, gm, player, kara, gone
):
    target = d20_campaign if gone != "other_campaign" else momenta_campaign
    trait_id = scene_board.add_trait(target.pk, gm, "Fog").payload["trait_id"]
    if gone == "removed":
        scene_board.remove_trait(d20_campaign.pk, gm, trait_id)
    elif gone == "scene_ended":
        sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    before = state(d20_campaign), d20_campaign.threat
    message = {
        "removed": "removed from the board meanwhile",
        "scene_ended": "ended with its scene",
        "other_campaign": "not on this table's board",
    }[gone]
    with pytest.raises(ServiceError, match=message):
        services_d20.roll_d20_test(
            d20_campaign.pk,
            player,
            kara.pk,
            services_d20.D20TestRequest(
                attribute="Power",
                skill="Communicate",
                difficulty=1,
                bought_dice=1,  # would add 1 to Threat: it must not
                traits=[(trait_id, 1)],
            ),
            rng=FixedDice([1, 2, 3]),
        )
    d20_campaign.refresh_from_db()
    assert (state(d20_campaign), d20_campaign.threat) == before


def test_mo_09b_a_hidden_trait_is_refused_to_players_and_only_counts_on_a_secret_gm_roll(
    d20_campaign, gm, player, kara
):
    spy = scene_board.add_trait(d20_campaign.pk, gm, "Spy", hidden=True).payload["trait_id"]
    with pytest.raises(ServiceError, match="not on this table's board"):
        roll_marked(d20_campaign, player, kara, [(spy, 1)])
    with pytest.raises(ServiceError, match="reveal it first, or roll secretly"):
        roll_marked(d20_campaign, gm, kara, [(spy, 1)])
    test = roll_marked(d20_campaign, gm, kara, [(spy, 1)], secret=True)
    assert test.spec["final_difficulty"] == 2 and test.event.audience == "gm"


# --- Discord copies -------------------------------------------------------------------------


def test_mo_09b_discord_copies_show_traits_made_and_removed_never_hidden_ones(d20_campaign, gm):
    from tables.discord import embeds

    Campaign.objects.filter(pk=d20_campaign.pk).update(
        discord_webhook_url="https://discord.com/api/webhooks/1/table",
        discord_gm_webhook_url="https://discord.com/api/webhooks/2/gm",
    )
    campaign = Campaign.objects.get(pk=d20_campaign.pk)
    made = scene_board.add_trait(campaign.pk, gm, "Heavy rain")
    gone = scene_board.remove_trait(campaign.pk, gm, made.payload["trait_id"])
    for event in (made, gone):
        post = embeds.post_for(event, campaign)
        assert post.target == embeds.PUBLIC and "Heavy rain" in str(post.body)
    spy = scene_board.add_trait(campaign.pk, gm, "Spy", hidden=True)
    hid = scene_board.hide_trait(
        campaign.pk, gm, scene_board.add_trait(campaign.pk, gm, "Fog").payload["trait_id"]
    )
    assert embeds.post_for(spy, campaign) is None  # not even the GM's channel
    assert embeds.post_for(hid, campaign) is None
    shown = scene_board.reveal_trait(campaign.pk, gm, spy.payload["trait_id"])
    assert "Spy" in str(embeds.post_for(shown, campaign).body)


def test_mo_09b_in_momenta_a_marked_trait_is_one_die_and_the_card_names_it(
    momenta_campaign, gm, player, hero
):
    from tables.services import momenta
    from tables.services.momenta import RollRequest

    fog = scene_board.add_trait(momenta_campaign.pk, gm, "Fog").payload["trait_id"]
    rain = scene_board.add_trait(momenta_campaign.pk, gm, "Rain").payload["trait_id"]
    plain = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, RollRequest(attribute="WITS"),
        rng=FixedDice([6, 5, 2, 2]),
    )  # fmt: skip
    helped = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, RollRequest(attribute="WITS", traits=[(fog, -1)]),
        rng=FixedDice([6, 5, 2, 2, 1]),
    )  # fmt: skip
    hindered = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk,
        RollRequest(attribute="WITS", traits=[(fog, 1), (rain, 1)]),
        rng=FixedDice([6, 5]),
    )  # fmt: skip
    pool = plain.event.payload["pool"]
    assert helped.event.payload["pool"] == pool + 1
    assert hindered.event.payload["pool"] == pool - 2
    assert helped.event.payload["traits"] == [{"trait_id": fog, "text": "Fog", "effect": -1}]
    assert "traits" not in plain.event.payload


def test_mo_09b_in_momenta_a_trait_removed_meanwhile_is_refused(momenta_campaign, gm, player, hero):
    from tables.services import momenta
    from tables.services.momenta import RollRequest

    fog = scene_board.add_trait(momenta_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.remove_trait(momenta_campaign.pk, gm, fog)
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="removed from the board meanwhile"):
        momenta.roll_momenta(
            momenta_campaign.pk, player, hero.pk, RollRequest(attribute="WITS", traits=[(fog, 1)]),
            rng=FixedDice([6, 5, 2]),
        )  # fmt: skip
    assert state(momenta_campaign) == before


def test_mo_09b_the_gm_rules_a_test_impossible_or_unnecessary_by_a_trait(
    d20_campaign, momenta_campaign, gm, player, kara, hero
):
    gate = scene_board.add_trait(d20_campaign.pk, gm, "The gate is open").payload["trait_id"]
    before = d20_campaign.group_momentum, d20_campaign.threat
    event = scene_board.settle_test(
        d20_campaign.pk, gm, gate, kara.pk, "unnecessary", "Power + Athletics"
    )
    assert event.payload["verdict"] == "unnecessary"
    assert event.payload["summary"] == (
        "Kara's Power + Athletics is unnecessary: “The gate is open” (it passes, no roll, "
        "no Momentum)."
    )
    assert not event.payload["changes"]
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == before
    with pytest.raises(PermissionDenied):
        scene_board.settle_test(d20_campaign.pk, player, gate, kara.pk, "impossible")
    with pytest.raises(ServiceError):
        scene_board.settle_test(d20_campaign.pk, gm, gate, kara.pk, "easy")
    fog = scene_board.add_trait(momenta_campaign.pk, gm, "Fog").payload["trait_id"]
    with pytest.raises(ServiceError, match="one die more or less"):
        scene_board.settle_test(momenta_campaign.pk, gm, fog, hero.pk, "impossible")


def test_mo_09b_the_gm_refuses_a_trait_for_rolls_and_a_roll_marking_it_spends_nothing(
    d20_campaign, gm, player, kara
):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    with pytest.raises(PermissionDenied):
        scene_board.refuse_for_rolls(d20_campaign.pk, player, fog)
    scene_board.refuse_for_rolls(d20_campaign.pk, gm, fog)
    d20_campaign.refresh_from_db()
    before = state(d20_campaign), d20_campaign.threat
    with pytest.raises(ServiceError, match="The GM does not let “Fog” count for rolls"):
        services_d20.roll_d20_test(
            d20_campaign.pk,
            player,
            kara.pk,
            services_d20.D20TestRequest(
                attribute="Power", skill="Communicate", bought_dice=1, traits=[(fog, -1)]
            ),
            rng=FixedDice([1, 2, 3]),
        )
    d20_campaign.refresh_from_db()
    assert (state(d20_campaign), d20_campaign.threat) == before
    scene_board.refuse_for_rolls(d20_campaign.pk, gm, fog, refused=False)
    assert roll_marked(d20_campaign, player, kara, [(fog, -1)]).spec["final_difficulty"] == 0

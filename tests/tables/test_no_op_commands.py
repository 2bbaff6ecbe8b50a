"""A command that would change nothing is refused with a message and writes no event
(issue 34): no TableEvent, no ledger line, no row touched. Commands that do change
something are shown to still work beside each refusal."""

import pytest
from django.urls import reverse

from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    CustomPattern,
    CustomSpend,
    HarmEntry,
    HarmTrack,
    Participant,
    PoolChange,
    RollTemplate,
    SceneTrait,
    TableEvent,
)
from tables.services import gm as services_gm
from tables.services import harm, momenta, scene_board, sessions
from tables.services.characters import Sheet, SheetRows, save_character
from tables.services.conflicts import turns
from tables.services.core import ServiceError
from tests.races import race

pytestmark = pytest.mark.django_db


def rows(obj) -> dict:
    """Every column of `obj` as the database holds it now."""
    return type(obj).objects.filter(pk=obj.pk).values().get()


def state(campaign, *objs):
    """What a refusal must leave as it was: the log, the ledgers and the rows named."""
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        PoolChange.objects.filter(campaign=campaign).count(),
        HarmEntry.objects.filter(campaign=campaign).count(),
        [rows(o) for o in (campaign, *objs)],
    )


def refused(campaign, objs, match, call):
    """`call()` is refused with `match`, and nothing of `campaign` or `objs` changed."""
    before = state(campaign, *objs)
    with pytest.raises(ServiceError, match=match):
        call()
    assert state(campaign, *objs) == before


# --- Harm tracks (SC-02) -----------------------------------------------------------------


@pytest.fixture
def track(momenta_campaign, gm, hero):
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12)
    return HarmTrack.objects.get(character=hero, track="harm")


@pytest.fixture
def raider(momenta_campaign, gm):
    return Character.objects.create(campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True)


def test_sc_02_recovering_a_track_at_0_is_refused_and_writes_nothing(
    momenta_campaign, gm, hero, track
):
    refused(
        momenta_campaign, [track], "Ash has taken no Harm: there is nothing to recover",
        lambda: harm.recover(momenta_campaign.pk, gm, hero.pk, "harm", 2, "A night's rest"),
    )  # fmt: skip
    # With harm taken, recovery (even one the 0 stops short) still writes.
    HarmTrack.objects.filter(pk=track.pk).update(taken=1)
    healed = harm.recover(momenta_campaign.pk, gm, hero.pk, "harm", 2, "A night's rest")
    move = healed.payload["moves"][0]
    assert (move["delta"], move["after"], move["lost"]) == (-1, 0, 1)


def test_sc_02_setting_a_track_to_what_it_is_is_refused(momenta_campaign, gm, hero, track, raider):
    refused(
        momenta_campaign, [track], "Ash's Harm is already set to 12",
        lambda: harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12),
    )  # fmt: skip
    # A player character's track is never hidden: asking for it changes nothing either.
    refused(
        momenta_campaign, [track], "already set to 12",
        lambda: harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12, hidden=True),
    )  # fmt: skip
    assert harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 10).payload["maximum"] == 10
    # An NPC's track set to hidden at the same maximum is a change (TB-03: who sees it).
    harm.set_track(momenta_campaign.pk, gm, raider.pk, "harm", 8)
    hidden = harm.set_track(momenta_campaign.pk, gm, raider.pk, "harm", 8, hidden=True)
    assert hidden.payload["hidden"] and hidden.audience == "gm"
    npc_track = HarmTrack.objects.get(character=raider, track="harm")
    refused(
        momenta_campaign, [npc_track], "Raider's Harm is already set to 8",
        lambda: harm.set_track(momenta_campaign.pk, gm, raider.pk, "harm", 8, hidden=True),
    )  # fmt: skip


def test_sc_02_the_harm_form_answers_a_no_op_with_its_message(
    client_for, momenta_campaign, hero, track
):
    before = state(momenta_campaign, track)
    response = client_for("gm").post(
        reverse("harm_command", args=[momenta_campaign.pk]),
        {"action": "recover", "character": hero.pk, "track": "harm", "amount": 1, "reason": "Rest"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "Ash has taken no Harm: there is nothing to recover." in response.content.decode()
    assert state(momenta_campaign, track) == before


@pytest.mark.django_db(transaction=True)
def test_sc_02_twenty_recoveries_at_once_write_as_many_events_as_they_heal(
    momenta_campaign, gm, cogm, hero
):
    """The race the audit found: 20 presses of "recover 1" on a track with 3 taken.
    Under the campaign lock each reads the track the last one left: 3 heal, 17 are
    refused, and the log and ledger hold exactly the 3 (not 17 more that change nothing)."""
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12)
    HarmTrack.objects.filter(character=hero, track="harm").update(taken=3)
    start = Campaign.objects.get(pk=momenta_campaign.pk).last_seq

    def press(actor):
        return lambda: harm.recover(momenta_campaign.pk, actor, hero.pk, "harm", 1, "Rest")

    results = race(*[press(actor) for actor in (gm, cogm) * 10])

    assert sorted(results) == ["ok"] * 3 + ["refused"] * 17
    written = TableEvent.objects.filter(campaign=momenta_campaign, seq__gt=start)
    assert list(written.values_list("kind", flat=True)) == ["harm_applied"] * 3
    assert list(HarmEntry.objects.order_by("id").values_list("delta", "after")) == [
        (-1, 2),
        (-1, 1),
        (-1, 0),
    ]
    assert HarmTrack.objects.get(character=hero, track="harm").taken == 0


# --- Pools by hand (PM-04, MO-06, RS-01) ---------------------------------------------------


def test_mo_06_a_hand_gain_the_cap_takes_whole_is_refused(d20_campaign, gm):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)
    refused(
        d20_campaign, [], "Group Momentum is already at its cap of 6. Nothing was changed.",
        lambda: sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "A haul"),
    )  # fmt: skip
    # A gain the cap takes in part still writes, with what the cap took (MO-06).
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=5)
    event = sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 3, "A haul")
    line = PoolChange.objects.get(event=event)
    assert (line.delta, line.after, line.lost) == (1, 6, 2)


def test_pm_04_rs_01_a_characters_full_pool_refuses_a_hand_gain(momenta_campaign, gm, hero):
    Character.objects.filter(pk=hero.pk).update(momentum=6, resolve=4)
    for pool, words in (("momentum", "Ash's Momentum .* cap of 6"), ("resolve", "cap of 4")):
        refused(
            momenta_campaign, [hero], words,
            lambda pool=pool: sessions.adjust_pool(
                momenta_campaign.pk, gm, pool, 1, "Rally", character_id=hero.pk
            ),
        )  # fmt: skip


# --- The scene board (MO-09b) -----------------------------------------------------------


@pytest.fixture
def trait(momenta_campaign, gm):
    scene_board.add_trait(momenta_campaign.pk, gm, "Thick fog")
    return SceneTrait.objects.get(campaign=momenta_campaign, text="Thick fog")


def test_mo_09b_giving_a_trait_its_own_text_is_refused(momenta_campaign, gm, trait):
    refused(
        momenta_campaign, [trait], "The trait already reads “Thick fog”.",
        # The text as cleaned: the spaces a form adds are not a change.
        lambda: scene_board.edit_trait(momenta_campaign.pk, gm, trait.pk, "  Thick   fog "),
    )  # fmt: skip
    scene_board.edit_trait(momenta_campaign.pk, gm, trait.pk, "Thin fog")
    assert SceneTrait.objects.get(pk=trait.pk).text == "Thin fog"


def test_mo_09b_keeping_a_kept_trait_or_letting_go_a_passing_one_is_refused(
    momenta_campaign, gm, trait
):
    refused(
        momenta_campaign, [trait], "“Thick fog” already ends with the scene.",
        lambda: scene_board.set_lasting(momenta_campaign.pk, gm, trait.pk, False),
    )  # fmt: skip
    scene_board.set_lasting(momenta_campaign.pk, gm, trait.pk, True)
    refused(
        momenta_campaign, [trait], "“Thick fog” is already kept past the scene.",
        lambda: scene_board.set_lasting(momenta_campaign.pk, gm, trait.pk, True),
    )  # fmt: skip


def test_mo_09b_refusing_a_refused_trait_or_allowing_an_allowed_one_is_refused(
    momenta_campaign, gm, trait
):
    refused(
        momenta_campaign, [trait], "“Thick fog” already counts for rolls.",
        lambda: scene_board.refuse_for_rolls(momenta_campaign.pk, gm, trait.pk, False),
    )  # fmt: skip
    scene_board.refuse_for_rolls(momenta_campaign.pk, gm, trait.pk, True)
    refused(
        momenta_campaign, [trait], "“Thick fog” already does not count for rolls.",
        lambda: scene_board.refuse_for_rolls(momenta_campaign.pk, gm, trait.pk, True),
    )  # fmt: skip


# --- The turn order (SC-01) ---------------------------------------------------------------


def test_sc_01_reordering_a_conflict_into_its_own_order_is_refused(
    client_for, momenta_campaign, gm, hero, sidekick
):
    turns.start_conflict(momenta_campaign.pk, gm, [sidekick.pk, hero.pk])
    participants = list(Participant.objects.filter(conflict__campaign=momenta_campaign))
    refused(
        momenta_campaign, participants, "The conflict is already in that order.",
        lambda: turns.reorder(momenta_campaign.pk, gm, [sidekick.pk, hero.pk]),
    )  # fmt: skip
    # The tracker's "up" on the first one asks for that same order: refused, with the words.
    before = state(momenta_campaign, *participants)
    response = client_for("gm").post(
        reverse("turn_command", args=[momenta_campaign.pk]),
        {"action": "up", "character": sidekick.pk},
        HTTP_HX_REQUEST="true",
    )
    assert "The conflict is already in that order." in response.content.decode()
    assert state(momenta_campaign, *participants) == before
    turns.reorder(momenta_campaign.pk, gm, [hero.pk, sidekick.pk])
    conflict = turns.running_conflict(momenta_campaign)
    assert list(conflict.participants.values_list("character_id", flat=True)) == [
        hero.pk,
        sidekick.pk,
    ]


# --- The GM's named records (MO-14, D6-04, PAT-01) -----------------------------------------


def test_mo_14_saving_a_custom_spend_unchanged_is_refused(d20_campaign, gm):
    spend = services_gm.save_custom_spend(d20_campaign.pk, gm, name="Disarm", cost=2)
    refused(
        d20_campaign, [spend], "“Disarm” already reads like this. Nothing was changed.",
        lambda: services_gm.save_custom_spend(
            d20_campaign.pk, gm, name=" Disarm ", cost=2, spend_id=spend.pk
        ),
    )  # fmt: skip
    services_gm.save_custom_spend(d20_campaign.pk, gm, name="Disarm", cost=3, spend_id=spend.pk)
    assert CustomSpend.objects.get(pk=spend.pk).cost == 3


def test_d6_04_saving_a_roll_template_unchanged_is_refused(momenta_campaign, gm):
    data = {"name": "Haggle", "bands": ["No", "Pricey", "Fair", "Steal"], "overflow": "+1"}
    made = momenta.save_roll_template(momenta_campaign.pk, gm, data)
    template = RollTemplate.objects.get(pk=made.payload["template_id"])
    refused(
        momenta_campaign, [template], "“Haggle” already reads like this.",
        lambda: momenta.save_roll_template(momenta_campaign.pk, gm, data, template_id=template.pk),
    )  # fmt: skip
    # The campaign's labels are part of the template: switching them is a change.
    momenta.save_roll_template(
        momenta_campaign.pk, gm, data, template_id=template.pk, campaign_labels=True
    )
    assert RollTemplate.objects.get(pk=template.pk).campaign_labels


def test_pat_01_saving_a_custom_pattern_unchanged_is_refused(momenta_campaign, gm):
    data = {"name": "Salt Luck", "kind": "quad", "effect": "text", "description": "Gift"}
    made = momenta.save_custom_pattern(momenta_campaign.pk, gm, data)
    pattern = CustomPattern.objects.get(pk=made.payload["pattern_id"])
    refused(
        momenta_campaign, [pattern], "“Salt Luck” already reads like this.",
        lambda: momenta.save_custom_pattern(momenta_campaign.pk, gm, data, pattern_id=pattern.pk),
    )  # fmt: skip
    momenta.save_custom_pattern(momenta_campaign.pk, gm, data, pattern_id=pattern.pk, active=False)
    assert not CustomPattern.objects.get(pk=pattern.pk).active


# --- Assists (PM-08, PM-10) ----------------------------------------------------------------


def test_pm_08_pm_10_answering_an_assist_as_it_stands_is_refused(
    momenta_campaign, gm, player, hero, sidekick
):
    assist = momenta.request_assist(momenta_campaign.pk, player, hero.pk, sidekick.pk)
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "accept")
    assist = AssistRequest.objects.get(pk=assist.pk)
    refused(
        momenta_campaign, [assist], "Bo's Assist is already accepted.",
        lambda: momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "accept"),
    )  # fmt: skip
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "call_test")  # PM-10: a change
    refused(
        momenta_campaign, [assist], "A test from Bo is already called for this Assist.",
        lambda: momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "call_test"),
    )  # fmt: skip
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "test_passed")
    refused(
        momenta_campaign, [assist], "That result is already recorded for Bo's Assist.",
        lambda: momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "test_passed"),
    )  # fmt: skip
    # The other result is a change (the GM corrects it).
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "test_failed")
    assert AssistRequest.objects.get(pk=assist.pk).test_passed is False


# --- Character sheets --------------------------------------------------------------------


def _fields(character, **changed):
    return {"name": character.name, "notes": character.notes, **changed}


def test_saving_a_sheet_as_it_stands_is_refused(momenta_campaign, gm, player, hero):
    grit = hero.attributes.get(name="GRIT")
    same_row = SheetRows("attributes", save=((grit.pk, {"name": "GRIT", "value": 3}),))
    for actor in (player, gm):
        refused(
            momenta_campaign, [hero, grit], "Nothing to save: Ash's sheet is as it was.",
            lambda actor=actor: save_character(
                momenta_campaign.pk, actor, Sheet(_fields(hero), rows=(same_row,)), hero.pk
            ),
        )  # fmt: skip
    # A row given another value, a new row or a removed one is a change.
    changes = (
        SheetRows("attributes", save=((grit.pk, {"name": "GRIT", "value": 4}),)),
        SheetRows("attributes", save=((None, {"name": "HEART", "value": 2}),)),
        SheetRows("attributes", delete=(grit.pk,)),
    )
    for change in changes:
        save_character(momenta_campaign.pk, player, Sheet(_fields(hero), rows=(change,)), hero.pk)
    assert dict(hero.attributes.values_list("name", "value")) == {"WITS": 4, "LUCK": 2, "HEART": 2}
    save_character(momenta_campaign.pk, player, Sheet(_fields(hero, notes="Limps")), hero.pk)
    assert Character.objects.get(pk=hero.pk).notes == "Limps"
    assert TableEvent.objects.filter(kind="character_updated").count() == 4


def test_the_sheet_page_answers_an_unchanged_save_with_its_message(
    client_for, momenta_campaign, hero
):
    """What the edit page posts back when nothing was edited, as the GM sends it (every
    field, the pools as shown, every row): refused on the page, nothing written."""
    attributes = list(hero.attributes.all())
    data = {
        "name": hero.name,
        "notes": hero.notes,
        "momentum": hero.momentum,
        "resolve": hero.resolve,
        "resolve_max": hero.resolve_max,
        "initial-momentum": hero.momentum,
        "initial-resolve": hero.resolve,
        "attributes-TOTAL_FORMS": len(attributes),
        "attributes-INITIAL_FORMS": len(attributes),
        "threads-TOTAL_FORMS": 0,
        "threads-INITIAL_FORMS": 0,
    }
    for i, a in enumerate(attributes):
        data |= {f"attributes-{i}-id": a.pk, f"attributes-{i}-name": a.name}
        data[f"attributes-{i}-value"] = a.value
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    before = state(momenta_campaign, hero, *attributes)
    response = client_for("gm").post(url, data)
    assert response.status_code == 400
    assert "Nothing to save: Ash&#x27;s sheet is as it was." in response.content.decode()
    assert state(momenta_campaign, hero, *attributes) == before
    assert client_for("gm").post(url, data | {"notes": "Limps"}).status_code == 302

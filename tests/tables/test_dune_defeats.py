"""SC-06, Dune (Dune: Adventures in the Imperium core rulebook, Conflict chapter): a minor
foe is defeated by one successful attack; the GM flags an NPC minor on its sheet, and
marks by hand the defeat of any other foe (the book's extended task)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules import harm as rules_harm
from rules.dice import FixedDice
from tables.models import Character, HarmEntry, HarmTrack, TableEvent
from tables.services import d20 as services_d20
from tables.services import harm, harm_marks
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dune(d20_campaign, gm, kara, marcus):
    d20_campaign.game_line = "dune"
    d20_campaign.save(update_fields=["game_line"])
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "defeats", 1)
    return d20_campaign


def _attack(campaign, player, kara, target, faces=(3, 15)):
    request = services_d20.D20TestRequest(
        attribute="Power", skill="Communicate", difficulty=1, target_id=target.pk
    )
    return services_d20.roll_d20_test(
        campaign.pk, player, kara.pk, request, rng=FixedDice(list(faces))
    )


def _snapshot(campaign):
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        list(HarmTrack.objects.filter(campaign=campaign).values_list("track", "taken")),
        HarmEntry.objects.count(),
    )


def _minor(character):
    Character.objects.filter(pk=character.pk).update(minor_foe=True)
    character.refresh_from_db()


def test_sc_06_dune_rule_a_minor_foe_falls_to_one_hit_another_is_refused():
    """SC-06 (Dune core, Conflict): rules.harm.defeat_hit."""
    hit = rules_harm.defeat_hit(0, 1, minor=True)
    assert (hit.step.delta, hit.step.after, hit.harms) == (1, 1, 0)
    assert rules_harm.defeat_hit(1, 1, minor=True).step.delta == 0
    with pytest.raises(rules_harm.InvalidHarm):
        rules_harm.defeat_hit(0, 1, minor=False)
    assert rules_harm.HARM_RULE["dune"] == rules_harm.MINOR_FOE


def test_sc_06_dune_one_successful_attack_defeats_a_minor_foe(dune, gm, player, kara, marcus):
    """SC-06 through the services: the passed attack's hit marks Defeats 1 of 1, ledgered
    as the test's hit; the same test cannot defeat twice."""
    _minor(marcus)
    test = _attack(dune, player, kara, marcus)
    assert test.result["passed"]
    event = harm.apply_d20_hit(dune.pk, gm, test.pk, track="defeats", total=0)
    moves = [(m["track"], m["delta"], m["after"]) for m in event.payload["moves"]]
    assert moves == [("defeats", 1, 1)]
    assert "a minor foe, is defeated" in event.payload["summary"]
    entry = HarmEntry.objects.get(event=event)
    assert entry.hit and entry.d20_test_id == test.pk
    with pytest.raises(ServiceError, match="already been applied"):
        harm.apply_d20_hit(dune.pk, gm, test.pk, track="defeats", total=0)


def test_sc_06_dune_a_foe_not_minor_is_not_defeated_by_one_attack(dune, gm, player, kara, marcus):
    test = _attack(dune, player, kara, marcus)
    before = _snapshot(dune)
    with pytest.raises(ServiceError, match="Only a minor foe is defeated by one attack"):
        harm.apply_d20_hit(dune.pk, gm, test.pk, track="defeats", total=0)
    assert _snapshot(dune) == before


def test_sc_06_the_gm_marks_a_defeat_by_hand(dune, gm, player, marcus):
    """SC-06: a foe defeated through an extended task: the GM marks it, with a reason;
    a player cannot, a missing reason or a full track is refused, nothing changes."""
    before = _snapshot(dune)
    with pytest.raises(PermissionDenied):
        harm_marks.mark_harm(dune.pk, player, marcus.pk, "defeats", 1, "Outwitted")
    with pytest.raises(ServiceError, match="reason"):
        harm_marks.mark_harm(dune.pk, gm, marcus.pk, "defeats", 1, "")
    with pytest.raises(ServiceError, match="1 or more"):
        harm_marks.mark_harm(dune.pk, gm, marcus.pk, "defeats", 0, "Outwitted")
    assert _snapshot(dune) == before
    event = harm_marks.mark_harm(dune.pk, gm, marcus.pk, "defeats", 1, "Outwitted")
    assert [(m["delta"], m["after"]) for m in event.payload["moves"]] == [(1, 1)]
    assert event.payload["reason"] == "Outwitted"
    before = _snapshot(dune)
    with pytest.raises(ServiceError, match="is full"):
        harm_marks.mark_harm(dune.pk, gm, marcus.pk, "defeats", 1, "Again")
    assert _snapshot(dune) == before


def test_sc_06_the_gm_marks_a_defeat_in_the_harm_form(dune, marcus, client_for):
    url = reverse("harm_command", args=[dune.pk])
    data = {"action": "mark", "character": marcus.pk, "track": "defeats", "amount": 1}
    data["reason"] = "Outwitted"
    assert client_for("player").post(url, data, **HX).status_code == 403
    assert HarmTrack.objects.get(character=marcus).taken == 0
    assert client_for("gm").post(url, data, **HX).status_code == 200
    assert HarmTrack.objects.get(character=marcus).taken == 1


def test_sc_06_the_card_offers_the_gm_the_defeat_of_a_minor_foe(
    dune, player, kara, marcus, client_for
):
    """The passed attack's card (the GMs' copy) has one button, no damage fields; pressing
    it defeats the minor foe."""
    _minor(marcus)
    test = _attack(dune, player, kara, marcus)
    services_d20.resolve_test(dune.pk, player, test.pk)
    page = client_for("gm").get(reverse("table", args=[dune.pk])).content.decode()
    form = page.split(f'id="hit-test-{test.pk}"', 1)[1].split("</form>", 1)[0]
    assert "Defeat Marcus (a minor foe)" in form
    assert 'name="soak"' not in form and 'value="defeats"' in form
    player_page = client_for("player").get(reverse("table", args=[dune.pk])).content.decode()
    assert f'id="hit-test-{test.pk}"' not in player_page
    url = reverse("harm_command", args=[dune.pk])
    data = {"action": "d20_hit", "inline": "1", "test": test.pk, "target": marcus.pk}
    data.update(track="defeats", total=0)
    assert client_for("gm").post(url, data, **HX).status_code == 200
    assert HarmTrack.objects.get(character=marcus).taken == 1


def test_sc_06_only_the_gm_flags_a_dune_npc_minor_on_its_sheet(dune, marcus, kara, client_for):
    gm_page = client_for("gm").get(reverse("character_edit", args=[dune.pk, marcus.pk]))
    assert 'name="minor_foe"' in gm_page.content.decode()
    mine = client_for("player").get(reverse("character_edit", args=[dune.pk, kara.pk]))
    assert 'name="minor_foe"' not in mine.content.decode()


def test_sc_06_a_player_cannot_flag_a_character_minor(dune, player, gm, kara, marcus):
    """The flag is the GM's: a player's sheet that carries it anyway leaves it off."""
    from tables.services import characters

    sheet = characters.Sheet(fields={"name": "Kara", "notes": "minor?", "minor_foe": True})
    characters.save_character(dune.pk, player, sheet, kara.pk)
    kara.refresh_from_db()
    assert (kara.notes, kara.minor_foe) == ("minor?", False)
    characters.save_character(dune.pk, gm, characters.Sheet(fields={"minor_foe": True}), marcus.pk)
    marcus.refresh_from_db()
    assert marcus.minor_foe

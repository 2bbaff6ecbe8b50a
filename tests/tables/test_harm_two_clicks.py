"""Issue 37, "Harm in two clicks": a passed 2d20 attack's card offers the GM "Apply N to
<target>", N the roller's Challenge dice roll made after the test plus its Bonus Damage
(SC-02, GL-04); the roll, made later, fills the GM's card live."""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import render as live
from tables.models import Campaign, HarmTrack
from tables.presenters.table import ALL, GM
from tables.services import d20 as services_d20
from tables.services import game_lines, harm
from tests.html_forms import form_fields
from tests.tables.test_attacks import aimed
from tests.tables.test_command_cost import statements

pytestmark = pytest.mark.django_db

HINT = "Roll the Challenge dice to fill this in."


@pytest.fixture
def sta(d20_campaign, gm, kara, marcus):
    """STA 1st edition (Challenge dice); Marcus has Stress 8 and Injuries 2."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(game_line="sta1", group_momentum=0)
    d20_campaign.refresh_from_db()
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "stress", 8)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "injuries", 2)
    return d20_campaign


def challenge(campaign, actor, character, faces=(1, 2)):
    """A Challenge dice roll for `character`: faces 1 and 2 total 3."""
    return game_lines.roll_challenge_dice(
        campaign.pk, actor, len(faces), character_id=character.pk, rng=FixedDice(list(faces))
    )


def resolved_attack(campaign, player, kara, marcus, bonus=0):
    test = aimed(campaign, player, kara, marcus)
    for _ in range(bonus):
        services_d20.spend_momentum(campaign.pk, player, test.pk, "bonus_damage", from_pool=0)
    services_d20.resolve_test(campaign.pk, player, test.pk)
    test.refresh_from_db()
    return test


def page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def test_the_challenge_roll_after_the_test_fills_the_gms_hit(
    sta,
    client_for,
    gm,
    player,
    kara,
    marcus,
):
    test = resolved_attack(sta, player, kara, marcus, bonus=1)
    challenge(sta, player, kara)  # 3
    html = page(client_for("gm"), sta)
    fields = form_fields(html, f"hit-test-{test.pk}")
    assert fields["total"] == ["3"] and fields["bonus"] == ["1"] and fields["soak"] == ["0"]
    assert "Apply 4 to Marcus" in html and HINT not in html
    # The players' card names the attack, never the GM's form.
    players = page(client_for("player"), sta)
    assert f'id="hit-test-{test.pk}"' not in players and "Apply 4 to Marcus" not in players
    assert "Attack on Marcus." in players


def test_without_a_roll_the_form_asks_for_it(sta, client_for, gm, player, kara, marcus):
    test = resolved_attack(sta, player, kara, marcus)
    html = page(client_for("gm"), sta)
    assert form_fields(html, f"hit-test-{test.pk}")["total"] == [""]
    assert HINT in html and "Apply to Marcus" in html
    assert HINT not in page(client_for("player"), sta)


def test_a_roll_before_the_test_or_anothers_or_after_the_next_test_is_not_taken(
    sta,
    client_for,
    gm,
    player,
    kara,
    marcus,
):
    challenge(sta, player, kara)  # before the test: another attack's
    test = resolved_attack(sta, player, kara, marcus)
    challenge(sta, gm, marcus)  # another character's
    aimed(sta, player, kara, marcus)  # Kara's next test: a roll now is for that one
    challenge(sta, player, kara)
    html = page(client_for("gm"), sta)
    assert form_fields(html, f"hit-test-{test.pk}")["total"] == [""]
    assert HINT in html


def test_the_filled_form_applies_in_one_press(sta, client_for, gm, player, kara, marcus):
    test = resolved_attack(sta, player, kara, marcus, bonus=1)
    challenge(sta, player, kara)
    fields = form_fields(page(client_for("gm"), sta), f"hit-test-{test.pk}")
    data = {name: values[0] for name, values in fields.items() if values}
    answer = client_for("gm").post(
        reverse("harm_command", args=[sta.pk]), data, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert HarmTrack.objects.get(character=marcus, track="stress").taken == 4


def test_the_challenge_roll_pushes_the_filled_form_to_the_gms_only(
    sta,
    gm,
    player,
    kara,
    marcus,
):
    test = resolved_attack(sta, player, kara, marcus)
    event = challenge(sta, player, kara)
    for_gms = live.render_event_fragments(event, GM)
    oob = f"hx-swap-oob=\"outerHTML:[data-hit-test='{test.pk}']\""
    assert oob in for_gms and "Apply 3 to Marcus" in for_gms
    assert form_fields(for_gms, f"hit-test-{test.pk}")["total"] == ["3"]
    for_players = live.render_event_fragments(event, ALL)
    assert oob not in for_players and f"hit-test-{test.pk}" not in for_players


def test_a_roll_for_nobody_or_after_the_hit_pushes_no_form(sta, gm, player, kara, marcus):
    test = resolved_attack(sta, player, kara, marcus)
    nobody = game_lines.roll_challenge_dice(sta.pk, player, 2, rng=FixedDice([1, 2]))
    assert f"hit-test-{test.pk}" not in live.render_event_fragments(nobody, GM)
    harm.apply_d20_hit(sta.pk, gm, test.pk, track="stress", total=3)
    late = challenge(sta, player, kara)
    assert f"hit-test-{test.pk}" not in live.render_event_fragments(late, GM)


def test_the_push_reads_at_most_one_more_statement(sta, gm, player, kara, marcus):
    """Cheap: a roll for nobody reads nothing more; a roll for a character awaiting a hit
    reads its last test once, and draws the form with the event's own total."""
    resolved_attack(sta, player, kara, marcus)
    nobody = game_lines.roll_challenge_dice(sta.pk, player, 2, rng=FixedDice([1, 2]))
    kara_roll = challenge(sta, player, kara)
    for event in (nobody, kara_roll):
        live.event_fragments(event, (GM, ALL))  # warm
    for_gms = statements(lambda: live.render_event_fragments(nobody, GM))
    assert statements(lambda: live.render_event_fragments(kara_roll, GM)) == for_gms + 1
    for_all = statements(lambda: live.render_event_fragments(nobody, ALL))
    assert statements(lambda: live.render_event_fragments(kara_roll, ALL)) == for_all

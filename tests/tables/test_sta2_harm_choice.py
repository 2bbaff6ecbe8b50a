"""SC-06, STA 2e (Star Trek Adventures 2nd edition core rulebook, pp. 290 and 292): a hit
inflicts an Injury unless the target suffers Stress equal to its severity. The target's
side chooses; the GM enters the choice with the hit (ruling SC-R18: avoiding with
Stress is the default), and only a GM may apply it, over HTTP as in the services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import HarmEntry, HarmTrack, TableEvent
from tables.services import d20 as services_d20
from tables.services import harm

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _sta(campaign, gm, marcus, line="sta2"):
    campaign.game_line = line
    campaign.save(update_fields=["game_line"])
    harm.set_track(campaign.pk, gm, marcus.pk, "stress", 10)
    harm.set_track(campaign.pk, gm, marcus.pk, "injuries", 1)
    return campaign


@pytest.fixture
def sta2(d20_campaign, gm, marcus):
    return _sta(d20_campaign, gm, marcus)


def _attack(campaign, player, kara, target):
    request = services_d20.D20TestRequest(
        attribute="Power", skill="Communicate", difficulty=1, target_id=target.pk
    )
    test = services_d20.roll_d20_test(campaign.pk, player, kara.pk, request, rng=FixedDice([3, 15]))
    services_d20.resolve_test(campaign.pk, player, test.pk)
    return test


def _snapshot(campaign):
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        list(HarmTrack.objects.filter(campaign=campaign).values_list("track", "taken")),
        HarmEntry.objects.count(),
    )


def _hit(test, marcus, **extra):
    data = {"action": "d20_hit", "inline": "1", "test": test.pk, "target": marcus.pk}
    return data | {"track": "stress", "total": 4} | extra


def _page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def test_sc_06_the_gms_hit_form_asks_the_targets_choice_avoiding_by_default(
    sta2, player, kara, marcus, client_for
):
    test = _attack(sta2, player, kara, marcus)
    page = _page(client_for("gm"), sta2)
    form = page.split(f'id="hit-test-{test.pk}"', 1)[1].split("</form>", 1)[0]
    assert 'name="harm_choice"' in form
    assert '<option value="stress" selected>' in form and 'value="injury"' in form
    assert page.count('name="harm_choice"') == 2  # the card's form and the harm tools


def test_sc_06_sta1_hit_forms_ask_no_choice(d20_campaign, gm, player, kara, marcus, client_for):
    sta1 = _sta(d20_campaign, gm, marcus, line="sta1")
    test = _attack(sta1, player, kara, marcus)
    page = _page(client_for("gm"), sta1)
    assert f'id="hit-test-{test.pk}"' in page and 'name="harm_choice"' not in page


def test_sc_06_the_gm_applies_the_injury_taken_and_a_player_cannot(
    sta2, player, kara, marcus, client_for
):
    """The choice is sent with the hit; a player's post of it is refused (SC-R2: only the
    GM moves a track) and changes nothing; the GM's takes the Injury, no Stress."""
    test = _attack(sta2, player, kara, marcus)
    url = reverse("harm_command", args=[sta2.pk])
    before = _snapshot(sta2)
    assert (
        client_for("player").post(url, _hit(test, marcus, harm_choice="injury"), **HX).status_code
        == 403
    )
    assert _snapshot(sta2) == before
    assert (
        client_for("gm").post(url, _hit(test, marcus, harm_choice="injury"), **HX).status_code
        == 200
    )
    tracks = dict(HarmTrack.objects.filter(character=marcus).values_list("track", "taken"))
    assert tracks == {"stress": 0, "injuries": 1}


def test_sc_06_the_default_avoids_the_injury_with_stress(sta2, player, kara, marcus, client_for):
    test = _attack(sta2, player, kara, marcus)
    url = reverse("harm_command", args=[sta2.pk])
    assert client_for("gm").post(url, _hit(test, marcus), **HX).status_code == 200
    tracks = dict(HarmTrack.objects.filter(character=marcus).values_list("track", "taken"))
    assert tracks == {"stress": 4, "injuries": 0}


def test_sc_06_an_unknown_choice_is_a_400_and_changes_nothing(
    sta2, player, kara, marcus, client_for
):
    test = _attack(sta2, player, kara, marcus)
    url = reverse("harm_command", args=[sta2.pk])
    before = _snapshot(sta2)
    answer = client_for("gm").post(url, _hit(test, marcus, harm_choice="both"), **HX)
    assert answer.status_code == 400
    assert _snapshot(sta2) == before

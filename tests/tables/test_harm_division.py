"""D6-05 at the table: a roll template that divides its harm (D6-R1: the whole harm, Solid
Hit's +N in), rounded as the template says; the card says so and the harm track takes
the divided number (SC-02)."""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Character, HarmTrack, RollTemplate, TableEvent
from tables.services import harm, momenta, sessions
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db

GM_TOOLS = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "momenta-gm-tools"}
PULLED = {
    "name": "Pulled blow",
    "bands": ["Graze", "Tap", "Bruise", "Drop"],
    "damage": [1, 2, 3, 4],
    "harm": "damage",
}


@pytest.fixture
def raider(momenta_campaign, gm):
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Raider", is_npc=True)
    npc.attributes.create(name="FIGHT", value=4)
    return npc


def _attack(campaign, gm, raider, template_id, faces):
    request = RollRequest(
        attribute="FIGHT", kind="attack", template_id=template_id, opposition_pool=2
    )
    made = momenta.roll_momenta(campaign.pk, gm, raider.pk, request, rng=FixedDice(faces))
    if made.awaiting:  # the pre-selected allocation: Solid Hit on the pair (PAT-09)
        momenta.choose_allocation(campaign.pk, gm, made.pk, None)
    made.refresh_from_db()
    return made


@pytest.mark.parametrize(("rounding", "dealt"), [("down", 4), ("up", 5), ("nearest", 5)])
def test_d6_05_d6_r1_a_halving_template_puts_half_the_hit_on_the_track(
    momenta_campaign, gm, hero, raider, client_for, rounding, dealt
):
    """D6-05, D6-R1, PAT-06, SC-02: 2 effective successes (band 2: 3) and Solid Hit on
    double 6 (+6) make 9; halved, 4 rounded down, 5 up or to the nearest."""
    sessions.start_session(momenta_campaign.pk, gm)
    harm.set_track(momenta_campaign.pk, gm, hero.pk, "harm", 12)
    saved = momenta.save_roll_template(
        momenta_campaign.pk, gm, PULLED | {"harm_divisor": 2, "rounding": rounding}
    )
    made = _attack(momenta_campaign, gm, raider, saved.payload["template_id"], [6, 6, 5, 2, 5, 1])
    assert (made.applied["damage_bonus"], made.applied["damage"]) == (6, dealt)
    harm.apply_momenta_hit(momenta_campaign.pk, gm, made.pk, hero.pk)
    assert HarmTrack.objects.get(character=hero, track="harm").taken == dealt
    page = client_for("gm").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert "harm ÷ 2, rounded " in page


def test_d6_05_the_gm_sets_the_divisor_on_the_template_form(momenta_campaign, hero, client_for):
    """The GM's form saves the divisor; an impossible one is explained and saves nothing."""
    url = reverse("momenta_template_save", args=[momenta_campaign.pk])
    data = {
        "name": "Pulled blow",
        **{f"band_{i}": text for i, text in enumerate(PULLED["bands"])},
        "damage": "1 2 3 4",
        "harm": "damage",
        "overflow_damage": 0,
        "rounding": "up",
    }
    client = client_for("gm")
    html = client.post(url, data | {"harm_divisor": 0}, **GM_TOOLS).content.decode()
    assert "Ensure this value is greater than or equal to 1" in html
    assert not RollTemplate.objects.filter(name="Pulled blow").exists()
    assert client_for("player").post(url, data | {"harm_divisor": 2}, **GM_TOOLS).status_code == 403
    client.post(url, data | {"harm_divisor": 2}, **GM_TOOLS)
    template = RollTemplate.objects.get(campaign=momenta_campaign, name="Pulled blow")
    assert template.to_rules().harm_divisor == 2 and template.data["rounding"] == "up"


def test_d6_05_the_service_refuses_an_impossible_divisor(momenta_campaign, gm):
    before = TableEvent.objects.count()
    with pytest.raises(ServiceError, match="harm divisor"):
        momenta.save_roll_template(momenta_campaign.pk, gm, PULLED | {"harm_divisor": 0})
    assert TableEvent.objects.count() == before

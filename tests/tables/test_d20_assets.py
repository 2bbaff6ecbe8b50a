"""MO-10: Create Asset and Make asset permanent put the asset on the character sheet.

Kara (Power 7 + Communicate 6 = 13, focus 1) rolls with fixed faces; two 1s at
Difficulty 0 are 4 successes, so 4 Momentum to spend (MO-01).
"""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import PoolChange, TableEvent
from tables.services import d20 as services_d20
from tables.services import sessions
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


def assets(kara):
    return sorted(kara.assets.values_list("name", "quality", "permanent"))


def test_mo_10_create_asset_puts_a_quality_0_asset_on_the_sheet_until_the_scene_ends(
    d20_campaign, gm, player, kara, client_for
):
    test = passed_test(d20_campaign, player, kara)
    event = services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "create_asset", note="Bribed steward"
    )
    assert event.payload["asset"] == {"name": "Bribed steward", "quality": 0, "permanent": False}
    assert ("Bribed steward", 0, False) in assets(kara)
    page = client_for("player").get(reverse("campaign_detail", args=[d20_campaign.pk]))
    assert "Bribed steward (Q0, this scene)" in page.content.decode()
    sessions.end_scene(d20_campaign.pk, gm)
    assert assets(kara) == [("Signet ring", 1, True)]  # the scene's assets are gone


def test_mo_10_a_scenes_asset_made_permanent_outlasts_the_scene(d20_campaign, gm, player, kara):
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset", note="Ally")
    event = services_d20.spend_momentum(
        d20_campaign.pk, player, test.pk, "make_asset_permanent", note="ally"
    )
    assert event.payload["asset"] == {"name": "Ally", "quality": 0, "permanent": True}
    sessions.end_scene(d20_campaign.pk, gm)
    assert assets(kara) == [("Ally", 0, True), ("Signet ring", 1, True)]


def test_mo_10_an_unnamed_asset_gets_a_name_and_permanence_takes_the_newest(
    d20_campaign, player, kara
):
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset")
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "make_asset_permanent")
    assert ("Scene asset", 0, True) in assets(kara)
    assert ("Quiet corner", 0, False) in assets(kara)


def test_mo_10_making_permanent_an_asset_that_is_not_there_spends_nothing(
    d20_campaign, player, kara
):
    kara.assets.filter(permanent=False).delete()
    test = passed_test(d20_campaign, player, kara)
    before = (TableEvent.objects.count(), PoolChange.objects.count(), assets(kara))
    with pytest.raises(ServiceError, match="no asset from this scene"):
        services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "make_asset_permanent")
    with pytest.raises(ServiceError, match="named Horse"):
        services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "make_asset_permanent", note="Horse"
        )
    test.refresh_from_db()
    assert test.ledger.get("spends", []) == []
    assert (TableEvent.objects.count(), PoolChange.objects.count(), assets(kara)) == before


def test_mo_10_mo_12_a_vetoed_asset_spend_takes_the_asset_back(d20_campaign, gm, player, kara):
    test = passed_test(d20_campaign, player, kara)
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset", note="Ally")
    services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0, reason="No one here would help")
    assert ("Ally", 0, False) not in assets(kara)

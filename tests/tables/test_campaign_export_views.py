"""The GM's download of the campaign (issue 15): GMs only, since it holds every secret."""

import json

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.exports.dump import dumps, export_campaign
from tables.services import momenta, sessions
from tables.services.momenta import RollRequest


@pytest.fixture
def secret_roll(momenta_campaign, gm, hero):
    """TB-03: the GM's secret roll for the player's own character."""
    sessions.start_session(momenta_campaign.pk, gm)
    request = RollRequest(attribute="WITS", secret=True)
    return momenta.roll_momenta(
        momenta_campaign.pk, gm, hero.pk, request, rng=FixedDice([5, 5, 1, 2])
    )


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["gm", "cogm"])
def test_a_gm_downloads_the_whole_campaign_secret_rolls_included(
    client_for, momenta_campaign, secret_roll, role
):
    response = client_for(role).get(reverse("campaign_export", args=[momenta_campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="the-drift-')
    assert response["Cache-Control"] == "no-store"
    assert response.content.decode() == dumps(export_campaign(momenta_campaign))
    document = json.loads(response.content)
    (roll,) = document["momenta_rolls"]
    assert roll["secret"] and not roll["revealed"]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["player", "player2", "observer", "outsider"])
def test_nobody_but_a_gm_gets_the_file(client_for, momenta_campaign, secret_roll, role):
    response = client_for(role).get(reverse("campaign_export", args=[momenta_campaign.pk]))
    assert response.status_code == 403
    assert b"WITS" not in response.content


@pytest.mark.django_db
def test_a_visitor_is_sent_to_log_in(client_for, momenta_campaign):
    url = reverse("campaign_export", args=[momenta_campaign.pk])
    response = client_for("anonymous").get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_no_such_campaign_is_404_and_a_post_is_405(client_for, momenta_campaign):
    assert client_for("gm").get(reverse("campaign_export", args=[999999])).status_code == 404
    url = reverse("campaign_export", args=[momenta_campaign.pk])
    assert client_for("gm").post(url).status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize("role, shown", [("gm", True), ("player", False), ("observer", False)])
def test_the_campaign_page_offers_the_download_to_gms(client_for, momenta_campaign, role, shown):
    page = client_for(role).get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    url = reverse("campaign_export", args=[momenta_campaign.pk])
    assert (f'href="{url}"' in page.content.decode()) is shown

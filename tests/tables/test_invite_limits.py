"""Invite links the GM limits (issue 12): an expiry, a number of joins, or both.

An expired or used-up link is refused with a clear message and changes nothing;
each join through a counted link takes one use, under the campaign lock.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from tables.models import Campaign, Membership, TableEvent
from tables.services import campaigns
from tables.services.core import ServiceError
from tests.conftest import make_user


def invite_url(campaign) -> str:
    return reverse("invite_regenerate", args=[campaign.pk])


def fresh(campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def limit(campaign, *, expires_at=None, uses_left=None) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(
        invite_expires_at=expires_at, invite_uses_left=uses_left
    )


def join(client, campaign, role="player"):
    return client.post(reverse("join", args=[fresh(campaign).invite_token]), {"role": role})


# --- The GM sets them -------------------------------------------------------------


def test_the_gm_makes_a_new_link_that_expires_and_counts_its_joins(client_for, momenta_campaign):
    old = momenta_campaign.invite_token
    before = timezone.now()
    response = client_for("gm").post(
        invite_url(momenta_campaign), {"expires_in": "24", "uses": "3"}
    )
    assert response.status_code == 302
    campaign = fresh(momenta_campaign)
    assert campaign.invite_token != old
    assert campaign.invite_uses_left == 3
    expected = before + timedelta(hours=24)
    assert expected <= campaign.invite_expires_at <= expected + timedelta(minutes=1)
    event = TableEvent.objects.get(campaign=campaign, kind="invite_regenerated")
    assert event.audience == "gm" and event.payload["uses_left"] == 3
    assert "for 3 joins" in event.payload["summary"] and old not in str(event.payload)
    # The campaign page says what the link allows.
    page = client_for("gm").get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "3 joins left" in page and "Works until" in page


def test_a_new_link_without_limits_clears_the_old_ones(client_for, momenta_campaign):
    limit(momenta_campaign, expires_at=timezone.now() - timedelta(days=1), uses_left=0)
    assert client_for("gm").post(invite_url(momenta_campaign)).status_code == 302
    campaign = fresh(momenta_campaign)
    assert campaign.invite_expires_at is None and campaign.invite_uses_left is None
    assert join(client_for("outsider"), campaign).status_code == 302
    assert campaign.memberships.filter(user__username="outsider").exists()


@pytest.mark.parametrize(
    "data, field",
    [
        ({"uses": "0"}, "uses"),
        ({"uses": "-2"}, "uses"),
        ({"uses": "1001"}, "uses"),
        ({"uses": "²"}, "uses"),
        ({"uses": "three"}, "uses"),
        ({"expires_in": "5"}, "expires_in"),
        ({"expires_in": "-24"}, "expires_in"),
        ({"expires_in": "24\x00"}, "expires_in"),
    ],
)
def test_bad_limits_get_a_message_and_change_nothing(client_for, momenta_campaign, data, field):
    response = client_for("gm").post(invite_url(momenta_campaign), data)
    assert response.status_code == 400
    assert response.context["invite_form"].errors[field]
    assert 'class="error"' in response.content.decode()
    campaign = fresh(momenta_campaign)
    assert campaign.invite_token == momenta_campaign.invite_token
    assert campaign.invite_expires_at is None and campaign.invite_uses_left is None
    assert not TableEvent.objects.filter(campaign=campaign).exists()


@pytest.mark.parametrize("role", ["player", "observer", "outsider", "anonymous"])
def test_only_the_gm_may_set_the_limits(client_for, momenta_campaign, role):
    response = client_for(role).post(invite_url(momenta_campaign), {"expires_in": "1", "uses": "1"})
    # Anonymous: sent to log in first.
    assert response.status_code == (302 if role == "anonymous" else 403)
    campaign = fresh(momenta_campaign)
    assert campaign.invite_token == momenta_campaign.invite_token
    assert campaign.invite_expires_at is None and campaign.invite_uses_left is None


def test_the_service_refuses_limits_from_a_player_and_limits_that_make_no_sense(
    momenta_campaign, gm, player
):
    with pytest.raises(PermissionDenied):
        campaigns.regenerate_invite(momenta_campaign.pk, player, uses_left=2)
    for bad in (
        {"uses_left": 0},
        {"uses_left": True},
        {"uses_left": "2"},
        {"expires_at": timezone.now() - timedelta(seconds=1)},
        {"expires_at": (timezone.now() + timedelta(hours=1)).replace(tzinfo=None)},
    ):
        with pytest.raises(ServiceError):
            campaigns.regenerate_invite(momenta_campaign.pk, gm, **bad)
    assert fresh(momenta_campaign).invite_token == momenta_campaign.invite_token


# --- Joining through a limited link --------------------------------------------------


def test_an_expired_link_says_so_and_changes_nothing(client_for, momenta_campaign):
    limit(momenta_campaign, expires_at=timezone.now() - timedelta(seconds=1))
    outsider = client_for("outsider")
    url = reverse("join", args=[momenta_campaign.invite_token])
    for response in (outsider.get(url), join(outsider, momenta_campaign)):
        assert response.status_code == 410
        assert "This invite link expired on" in response.content.decode()
    assert momenta_campaign.memberships.count() == 5
    assert not TableEvent.objects.exists()
    # The GM's page says it too, next to the way to make a new one.
    page = client_for("gm").get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    assert "This invite link expired on" in page.content.decode()


def test_a_used_up_link_says_so_and_changes_nothing(client_for, momenta_campaign):
    limit(momenta_campaign, uses_left=0)
    response = join(client_for("outsider"), momenta_campaign)
    assert response.status_code == 410
    assert "used as many times as the GM allowed" in response.content.decode()
    assert momenta_campaign.memberships.count() == 5
    assert fresh(momenta_campaign).invite_uses_left == 0
    assert not TableEvent.objects.exists()


def test_each_join_takes_one_use_until_none_is_left(client_for, momenta_campaign, outsider):
    limit(momenta_campaign, uses_left=2)
    assert join(client_for("outsider"), momenta_campaign).status_code == 302
    assert fresh(momenta_campaign).invite_uses_left == 1
    # A member opening the link again takes no use.
    join(client_for("outsider"), momenta_campaign)
    assert fresh(momenta_campaign).invite_uses_left == 1
    campaigns.join_campaign(momenta_campaign.invite_token, make_user("second"), "observer")
    assert fresh(momenta_campaign).invite_uses_left == 0
    with pytest.raises(campaigns.InviteSpent):
        campaigns.join_campaign(momenta_campaign.invite_token, make_user("third"), "player")
    assert not Membership.objects.filter(user__username="third").exists()
    assert fresh(momenta_campaign).invite_uses_left == 0


def test_an_unlimited_link_takes_no_count(client_for, momenta_campaign):
    assert join(client_for("outsider"), momenta_campaign).status_code == 302
    assert fresh(momenta_campaign).invite_uses_left is None


@pytest.mark.django_db(transaction=True)
def test_people_joining_at_once_through_the_last_use_cannot_all_get_in(momenta_campaign):
    """The campaign lock: of four joining at once through a link with one use
    left, one gets in, three are refused, and the count never goes below 0."""
    limit(momenta_campaign, uses_left=1)
    people = [make_user(f"racer{n}") for n in range(4)]
    token = momenta_campaign.invite_token
    barrier = threading.Barrier(len(people))
    results = [None] * len(people)

    def run(i, user):
        try:
            barrier.wait(timeout=10)
            campaigns.join_campaign(token, user, "player")
            results[i] = "ok"
        except ServiceError:
            results[i] = "refused"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(people)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(results) == ["ok", "refused", "refused", "refused"]
    assert Membership.objects.filter(user__in=people).count() == 1
    assert fresh(momenta_campaign).invite_uses_left == 0


def test_an_expired_link_says_so_in_the_readers_language_and_date_format(
    client_for, momenta_campaign
):
    """Issue 35: worded for the reader, not frozen in English with English months."""
    import datetime as dt

    limit(momenta_campaign, expires_at=dt.datetime(2020, 3, 5, 12, 0, tzinfo=dt.UTC))
    url = reverse("join", args=[momenta_campaign.invite_token])
    html = client_for("outsider").get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieser Einladungslink ist am 5. März 2020" in html
    assert "expired" not in html and "Mar 2020" not in html

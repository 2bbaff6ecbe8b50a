"""Accounts an operator can run (issue 27): password reset by email through Django's
own views, and sign-up that can be closed (REGISTRATION_OPEN=0) while a campaign's
invite link still lets its invitees make an account."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from tests.conftest import PASSWORD
from tests.tables.login_clock import failures

NEW_PASSWORD = "fresh-pass-456"
NEW_ACCOUNT = {"username": "newbie", "password1": "long-pass-987", "password2": "long-pass-987"}


def reset_link(message) -> str:
    """The path of the one reset link in a reset mail."""
    (path,) = re.findall(r"https?://[^/\s]+(/password/reset/[^\s]+/)", message.body)
    return path


def ask_reset(client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


@pytest.fixture
def gm_with_email(gm):
    gm.email = "gm@example.org"
    gm.save()
    return gm


# --- Password reset -----------------------------------------------------------------


def test_a_reset_mail_goes_to_the_accounts_address_with_a_link(client, gm_with_email):
    response = ask_reset(client, "GM@example.org")
    assert response["Location"] == reverse("password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["gm@example.org"]
    assert "gm" in message.body
    assert reset_link(message).startswith("/password/reset/")


def test_the_link_sets_a_new_password_once(client, gm_with_email):
    ask_reset(client, "gm@example.org")
    link = reset_link(mail.outbox[0])
    # Django swaps the token into the session and redirects to a token-less form URL.
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == reverse("password_reset_complete")
    gm_with_email.refresh_from_db()
    assert gm_with_email.check_password(NEW_PASSWORD)
    again = client.get(link, follow=True)
    assert not again.context["validlink"]
    assert "This link no longer works" in again.content.decode()


def test_a_mismatched_new_password_changes_nothing(client, gm_with_email):
    ask_reset(client, "gm@example.org")
    set_url = client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": "other"})
    assert response.status_code == 200
    assert response.context["form"].errors["new_password2"]
    gm_with_email.refresh_from_db()
    assert gm_with_email.check_password(PASSWORD)


def test_an_unknown_address_gets_the_same_page_and_no_mail(client, gm_with_email):
    response = ask_reset(client, "nobody@example.org")
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_second_request_soon_after_sends_no_second_mail(client, gm_with_email, player):
    player.email = "p@example.org"
    player.save()
    for _ in range(3):
        assert ask_reset(client, "gm@example.org")["Location"] == reverse("password_reset_done")
    ask_reset(client, "p@example.org")  # another account is its own count
    assert [m.to for m in mail.outbox] == [["gm@example.org"], ["p@example.org"]]


def test_a_forged_link_is_refused(client, gm_with_email):
    response = client.get("/password/reset/MQ/forged-token/")
    assert not response.context["validlink"]
    gm_with_email.refresh_from_db()
    assert gm_with_email.check_password(PASSWORD)


def test_a_reset_lifts_the_accounts_login_lockout(client, gm_with_email, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    assert locked.status_code == 429
    ask_reset(client, "gm@example.org")
    set_url = client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
    client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert failures(username="gm") == 0
    response = client.post(reverse("login"), {"username": "gm", "password": NEW_PASSWORD})
    assert response["Location"] == reverse("home")


def test_the_login_page_links_to_the_reset(client, db):
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()


def test_sign_up_keeps_an_email_address_for_resets(client, db):
    client.post(reverse("signup"), {**NEW_ACCOUNT, "email": "new@example.org"})
    assert get_user_model().objects.get(username="newbie").email == "new@example.org"


def test_sign_up_refuses_a_malformed_email_address(client, db):
    response = client.post(reverse("signup"), {**NEW_ACCOUNT, "email": "not-an-address"})
    assert response.context["form"].errors["email"]
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_a_person_sets_the_address_their_reset_goes_to(client_for, player):
    client = client_for("player")
    response = client.post(reverse("person_email"), {"email": "p@example.org"})
    assert response["Location"] == reverse("person_settings")
    player.refresh_from_db()
    assert player.email == "p@example.org"
    ask_reset(client, "p@example.org")
    assert mail.outbox[0].to == ["p@example.org"]


def test_a_malformed_address_is_refused_and_changes_nothing(client_for, player):
    player.email = "old@example.org"
    player.save()
    response = client_for("player").post(reverse("person_email"), {"email": "nope"})
    assert response.status_code == 400
    assert response.context["email_form"].errors["email"]
    player.refresh_from_db()
    assert player.email == "old@example.org"


def test_nobody_sets_an_address_without_logging_in(client, player):
    response = client.post(reverse("person_email"), {"email": "x@example.org"})
    assert response["Location"].startswith(reverse("login"))
    player.refresh_from_db()
    assert player.email == ""


def test_the_settings_page_shows_ones_own_address(client_for, player):
    player.email = "mine@example.org"
    player.save()
    page = client_for("player").get(reverse("person_settings")).content.decode()
    assert 'value="mine@example.org"' in page


# --- Closed sign-up -----------------------------------------------------------------


@pytest.fixture
def closed(settings):
    settings.REGISTRATION_OPEN = False


def test_closed_sign_up_refuses_with_a_page_that_says_so(client, db, closed):
    page = client.get(reverse("signup"))
    assert page.status_code == 403
    assert "Sign-up is closed" in page.content.decode()
    response = client.post(reverse("signup"), NEW_ACCOUNT)
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_closed_sign_up_hides_the_sign_up_links(client, db, closed):
    page = client.get(reverse("login")).content.decode()
    assert reverse("signup") not in page


def test_open_sign_up_shows_the_sign_up_links(client, db):
    page = client.get(reverse("login")).content.decode()
    assert reverse("signup") in page


def test_closed_sign_up_still_lets_an_invitee_make_an_account(client, momenta_campaign, closed):
    join = reverse("join", args=[momenta_campaign.invite_token])
    login_page = client.get(client.get(join)["Location"]).content.decode()
    assert reverse("signup") in login_page  # the way in is offered
    assert client.get(reverse("signup") + f"?next={join}").status_code == 200
    response = client.post(reverse("signup"), {**NEW_ACCOUNT, "next": join})
    assert response["Location"] == join
    client.post(join, {"role": "player"})
    assert momenta_campaign.memberships.filter(user__username="newbie").exists()


@pytest.mark.parametrize(
    "next_path",
    [
        "/join/not-a-token/",
        "/campaigns/1/",
        "/join/%00/",
        "https://evil.example/join/{token}/",
    ],
)
def test_closed_sign_up_needs_a_real_invite_link(client, momenta_campaign, closed, next_path):
    next_url = next_path.format(token=momenta_campaign.invite_token)
    response = client.post(reverse("signup"), {**NEW_ACCOUNT, "next": next_url})
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_closed_sign_up_refuses_an_expired_invite_link(client, momenta_campaign, closed):
    momenta_campaign.invite_expires_at = timezone.now() - timedelta(minutes=1)
    momenta_campaign.save()
    join = reverse("join", args=[momenta_campaign.invite_token])
    response = client.post(reverse("signup"), {**NEW_ACCOUNT, "next": join})
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newbie").exists()

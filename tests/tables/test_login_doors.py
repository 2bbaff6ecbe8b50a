"""One lockout for every login door (issue 26): the admin's login counts and refuses
like the site's, and one client address is bounded whatever usernames it names.
The clock is moved, not waited for: no test sleeps (tests/tables/login_clock.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.tables.login_clock import LoginClock, failures

WINDOW = 600
GUESSER = "203.0.113.7"


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_LOCKOUT_SECONDS = 3, WINDOW
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4


@pytest.fixture
def staff(gm):
    gm.is_staff = gm.is_superuser = True
    gm.save()
    return gm


def post(door: str, username: str, password: str, address: str = "198.51.100.1", **headers):
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse(door), {"username": username, "password": password}, **headers)
    return client, response


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_a_username_locked_on_the_site_cannot_log_in_through_the_admin(staff, limits):
    for _ in range(3):
        post("login", "gm", "wrong-guess")
    client, response = post("admin:login", "gm", PASSWORD)
    assert not logged_in(client)
    assert "Too many failed logins for this account" in response.content.decode()


def test_wrong_passwords_on_the_admin_count_toward_the_site_lockout(staff, limits):
    for _ in range(3):
        client, response = post("admin:login", "gm", "wrong-guess")
        assert response.status_code == 200 and not logged_in(client)
    assert failures(username="gm") == 3
    client, response = post("login", "gm", PASSWORD)
    assert response.status_code == 429 and not logged_in(client)


def test_the_admin_still_lets_staff_in_and_a_success_clears_the_count(staff, limits):
    post("admin:login", "gm", "wrong-guess")
    client, response = post("admin:login", "gm", PASSWORD)
    assert response.status_code == 302 and logged_in(client)
    assert failures(username="gm") == 0


def test_rotating_made_up_usernames_from_one_address_is_throttled(gm, limits):
    for n in range(4):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    # That address is now refused for any account, even with the right password...
    client, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert response.status_code == 429 and not logged_in(client)
    assert "Too many failed logins from your address" in response.content.decode()
    # ... and on the admin's door too; other addresses are not affected.
    client, response = post("admin:login", "gm", PASSWORD, address=GUESSER)
    assert "Too many failed logins from your address" in response.content.decode()
    client, response = post("login", "gm", PASSWORD, address="198.51.100.2")
    assert response.status_code == 302 and logged_in(client)


def test_a_forwarded_for_header_does_not_change_the_address_counted(gm, limits):
    """Only the server (uvicorn behind a trusted proxy) may say who the client is."""
    for n in range(4):
        post("login", f"nobody-{n}", "x", address=GUESSER, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    _, response = post("login", "gm", PASSWORD, address=GUESSER, HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert response.status_code == 429


def test_an_ipv6_client_counts_by_its_64_network(gm, limits):
    for n in range(4):
        post("login", f"nobody-{n}", "wrong-guess", address=f"2001:db8:1:2::{n + 1:x}")
    _, response = post("login", "gm", PASSWORD, address="2001:db8:1:2:ffff::9")
    assert response.status_code == 429
    _, response = post("login", "gm", PASSWORD, address="2001:db8:1:3::1")
    assert response.status_code == 302


def test_a_success_does_not_clear_its_addresses_count(gm, player, limits):
    """Or a guesser with an account of its own would reset the count between guesses."""
    for n in range(3):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    _, response = post("login", "player", PASSWORD, address=GUESSER)
    assert response.status_code == 302
    post("login", "nobody-3", "wrong-guess", address=GUESSER)
    _, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert response.status_code == 429


def test_an_address_limit_of_zero_counts_no_addresses(gm, limits, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 0
    for n in range(6):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    _, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert response.status_code == 302


def test_the_address_lockout_ends_with_its_window(gm, limits):
    for n in range(4):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    LoginClock()(WINDOW + 1)
    _, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert response.status_code == 302


def test_a_door_without_our_form_is_refused_too_and_its_tries_do_not_count(gm, limits):
    """axes' backend guards every authenticate(): a locked username does not get in, and
    tries while locked neither count nor make the lockout longer."""
    for _ in range(3):
        post("login", "gm", "wrong-guess")
    request = RequestFactory().post("/elsewhere/", REMOTE_ADDR="198.51.100.9")
    assert authenticate(request, username="gm", password=PASSWORD) is None
    assert failures(username="gm") == 3


def test_the_refusal_says_when_the_oldest_failure_that_locks_is_forgotten(gm, limits):
    at = LoginClock()
    for n in range(2):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    at(WINDOW / 2)
    for n in range(2, 4):
        post("login", f"nobody-{n}", "wrong-guess", address=GUESSER)
    _, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert "Try again in 5 minutes." in response.content.decode()
    at(WINDOW + 1)  # the first two are forgotten: the address is under its limit
    _, response = post("login", "gm", PASSWORD, address=GUESSER)
    assert response.status_code == 302

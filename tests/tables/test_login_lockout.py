"""Login lockout in the database (issue 12, django-axes): it holds across server
processes without Redis, and it ends with its window. The clock is moved, not waited
for: no test sleeps (tests/tables/login_clock.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.tables.login_clock import LoginClock, failures

WINDOW = 600


@pytest.fixture
def at(settings):
    """at(seconds): set the clock that many seconds after the start of the test."""
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_LOCKOUT_SECONDS = 3, WINDOW
    return LoginClock()


def login(client, password, username="gm") -> int:
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code


@pytest.fixture
def use_cache(settings, request):
    """use_cache(name): a cache of its own, as another server process without Redis has."""

    def _use(name: str) -> None:
        backend = "django.core.cache.backends.locmem.LocMemCache"
        location = f"{request.node.nodeid}:{name}"  # never shared with another test
        settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": location}}

    return _use


def test_a_lockout_holds_in_another_process_with_its_own_cache(gm, use_cache, at):
    use_cache("process-a")
    first = Client()
    for _ in range(3):
        assert login(first, "wrong-guess") == 200
    # Another process: another cache, another client. The lockout is still there.
    use_cache("process-b")
    assert login(Client(), PASSWORD) == 429
    use_cache("process-a")
    assert login(first, PASSWORD) == 429


def test_failures_in_two_processes_add_up(gm, use_cache, at):
    use_cache("process-a")
    login(Client(), "wrong-guess")
    login(Client(), "wrong-guess")
    use_cache("process-b")
    login(Client(), "wrong-guess")
    use_cache("process-a")
    assert login(Client(), PASSWORD) == 429


def test_the_lockout_ends_when_the_window_of_its_failures_does(client, gm, at):
    for _ in range(3):
        login(client, "wrong-guess")
    response = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    assert "Try again in 10 minutes" in response.content.decode()
    at(WINDOW - 1)
    response = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    assert response.status_code == 429
    assert "Try again in 1 minute." in response.content.decode()
    at(WINDOW)
    assert login(client, PASSWORD) == 302


def test_tries_while_locked_out_do_not_make_the_lockout_longer(client, gm, at):
    for _ in range(3):
        login(client, "wrong-guess")
    at(WINDOW / 2)
    for _ in range(5):
        assert login(client, "wrong-guess") == 429
    at(WINDOW)
    assert login(client, PASSWORD) == 302


def test_failures_older_than_the_window_no_longer_count(client, gm, at):
    login(client, "wrong-guess")
    login(client, "wrong-guess")
    at(WINDOW + 1)
    login(client, "wrong-guess")
    assert login(client, PASSWORD) == 302
    # And they are gone from the table, which stays small.
    assert failures() == 0


def test_the_count_is_per_username_whatever_its_case(client, gm, player, at):
    for name in ("GM", "gm", "Gm"):
        login(client, "wrong-guess", username=name)
    assert login(client, PASSWORD) == 429
    # Someone else's account is not affected by the guesser.
    assert login(Client(), PASSWORD, username="player") == 302


def test_a_success_clears_the_failures(client, gm, at):
    login(client, "wrong-guess")
    login(client, "wrong-guess")
    assert login(client, PASSWORD) == 302
    client.logout()
    login(client, "wrong-guess")
    login(client, "wrong-guess")
    assert login(client, PASSWORD) == 302

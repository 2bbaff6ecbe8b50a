"""manage.py unlock_login (issue 27): the operator lifts a lockout at once, for a
username or a client address, without the admin (deploy/README.md, "Accounts")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.tables.login_clock import failures


def login(username: str, password: str, address: str = "203.0.113.7") -> int:
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code


def unlock(*args: str) -> str:
    out = StringIO()
    call_command("unlock_login", *args, stdout=out)
    return out.getvalue()


def test_a_locked_username_logs_in_after_unlock(gm, player, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        login("gm", "wrong")
    login("player", "wrong")
    assert login("gm", PASSWORD) == 429
    assert unlock("GM") == "GM: 2 failed logins forgotten.\n"
    assert login("gm", PASSWORD) == 302
    # Only the name given: another person's failures still count.
    assert failures(username="player") == 1


def test_a_locked_address_logs_in_after_unlock(gm, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    for name in ("x1", "x2"):
        login(name, "wrong", address="2001:db8:1:2::5")
    login("x3", "wrong", address="198.51.100.1")
    assert login("gm", PASSWORD, address="2001:db8:1:2::9") == 429
    # Any address of the /64 names the network its failures are counted by.
    assert unlock("--address", "2001:db8:1:2::1") == "2001:db8:1:2::1: 2 failed logins forgotten.\n"
    assert login("gm", PASSWORD, address="2001:db8:1:2::9") == 302
    assert failures(ip_address="198.51.100.1") == 1


@pytest.mark.parametrize("args", [(), ("--address", "not-an-ip")])
def test_unlock_needs_a_name_or_a_real_address(gm, args):
    login("gm", "wrong")
    with pytest.raises(CommandError):
        unlock(*args)
    assert failures() == 1

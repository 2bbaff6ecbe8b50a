"""`manage.py host`: bad input is one line and creates nothing; the first run makes the
GM, a campaign and its invite once; later runs make nothing."""

from __future__ import annotations

import io
import os
import socket
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from momenta_site import hosting, release
from tables.management.commands import host
from tables.models import Campaign, Membership

from .conftest import run_from_a_gm_shell

ROOT = Path(__file__).resolve().parents[2]
GOOD_PASSWORD = "a-long-table-pass-8"


@pytest.fixture
def execs(monkeypatch):
    """What the command would replace itself with, instead of doing it."""
    calls = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((argv, env)))
    monkeypatch.setattr(os, "execv", lambda path, argv: calls.append((argv, None)))
    return calls


@pytest.fixture
def port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def step_one(folder, port, *args, **kwargs):
    call_command(
        "host", "--data", str(folder), "--port", str(port), "--bind", "127.0.0.1", *args, **kwargs
    )


def test_step_one_keeps_a_key_and_hands_the_table_its_environment(
    tmp_path, port, execs, monkeypatch
):
    monkeypatch.delenv(hosting.DATA_VARIABLE, raising=False)
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    folder = tmp_path / "table"
    step_one(folder, port, "--host", "table.test", "--gm-username", "gm")
    [(argv, env)] = execs
    assert argv[1:4] == [str(ROOT / "manage.py"), "host", "--data"]
    assert ["--gm-username", "gm"] == argv[argv.index("--gm-username") :][:2]
    assert env[hosting.DATA_VARIABLE] == str(folder)
    assert env["ALLOWED_HOSTS"].split(",")[0] == "table.test"
    assert env[hosting.PASSWORD_VARIABLE] == GOOD_PASSWORD
    key = env["SECRET_KEY"]
    assert (folder / hosting.KEY_FILE).read_text().strip() == key
    # The next run finds the same key: sessions and invite links outlive a restart.
    step_one(folder, port, "--gm-username", "gm")
    assert execs[1][1]["SECRET_KEY"] == key


def assert_refused(folder, port, args, message, execs):
    with pytest.raises(CommandError, match=message):
        step_one(folder, port, *args)
    assert execs == []
    assert not folder.exists()


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.delenv(hosting.DATA_VARIABLE, raising=False)
    monkeypatch.delenv(hosting.PASSWORD_VARIABLE, raising=False)
    return tmp_path / "table"


def test_a_gm_username_without_the_password_variable_is_refused(fresh, port, execs):
    assert_refused(fresh, port, ["--gm-username", "gm"], "needs the password in", execs)


def test_a_weak_gm_password_is_refused_before_anything_is_made(fresh, port, execs, monkeypatch):
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, "12345678")
    assert_refused(fresh, port, ["--gm-username", "gm"], "too common", execs)


def test_half_of_tls_is_refused(fresh, port, execs, tmp_path):
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    assert_refused(fresh, port, ["--tls-cert", str(cert)], "both --tls-cert and --tls-key", execs)
    assert_refused(fresh, port, ["--tls-key", str(cert)], "both --tls-cert and --tls-key", execs)
    missing = ["--tls-cert", str(cert), "--tls-key", str(tmp_path / "nope.pem")]
    assert_refused(fresh, port, missing, "no such file", execs)


def test_a_port_in_use_is_refused(fresh, execs, monkeypatch):
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        assert_refused(fresh, busy, ["--gm-username", "gm"], f"port {busy} is in use", execs)


def test_an_unwritable_data_folder_is_refused(tmp_path, port, execs, monkeypatch):
    monkeypatch.delenv(hosting.DATA_VARIABLE, raising=False)
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a folder under a file: refused even for root
    with pytest.raises(CommandError, match="cannot write in the data folder"):
        step_one(blocker / "table", port, "--gm-username", "gm")
    assert execs == []


def test_no_terminal_and_no_gm_username_is_refused(fresh, port, execs, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert_refused(fresh, port, [], "give --gm-username", execs)


def test_bad_input_exits_non_zero_with_one_line(tmp_path, port):
    folder = tmp_path / "table"
    done = run_from_a_gm_shell("host", "--data", str(folder), "--gm-username", "gm")
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"CommandError: --gm-username needs the password in ${hosting.PASSWORD_VARIABLE}"
    ]
    assert not folder.exists()


@pytest.mark.django_db
def test_the_first_run_makes_the_gm_a_campaign_and_an_invite_once(
    tmp_path, port, execs, monkeypatch
):
    ran = []
    monkeypatch.setattr(host, "call_command", lambda *a, **k: ran.append(a[0]))
    monkeypatch.setattr(host, "compile_catalogues", lambda: None)
    folder = tmp_path / "table"
    monkeypatch.setenv(hosting.DATA_VARIABLE, str(folder))
    monkeypatch.setenv("ALLOWED_HOSTS", "table.test,192.168.1.20,localhost")
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    out = io.StringIO()
    args = ["--data", str(folder), "--port", str(port), "--gm-username", "gm"]
    call_command("host", *args, "--campaign", "Friday night", stdout=out)
    assert ran == ["migrate", "collectstatic"]
    gm = get_user_model().objects.get()
    assert gm.username == "gm" and gm.check_password(GOOD_PASSWORD) and gm.is_superuser
    campaign = Campaign.objects.get()
    assert campaign.name == "Friday night" and campaign.owner == gm
    assert Membership.objects.get(campaign=campaign).role == Membership.Role.GM
    assert campaign.invite_uses_left == 12 and campaign.invite_expires_at is not None
    printed = out.getvalue()
    assert f"http://table.test:{port}/join/{campaign.invite_token}/" in printed
    assert f"GM login: http://table.test:{port}/login/" in printed
    assert f"  http://192.168.1.20:{port}/" in printed
    assert f"Momenta Table {release.label()}, data in {folder}" in printed
    # The password is not handed on to the server process.
    assert hosting.PASSWORD_VARIABLE not in os.environ
    [(argv, _)] = execs
    assert argv[2:4] == ["uvicorn", "momenta_site.asgi:application"]
    assert argv[argv.index("--host") + 1] == "0.0.0.0"

    # A later run: the same table, nothing made, no invite printed.
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    out = io.StringIO()
    call_command("host", *args, "--campaign", "Another", stdout=out)
    assert get_user_model().objects.count() == 1 and Campaign.objects.count() == 1
    assert "/join/" not in out.getvalue()
    assert f"http://table.test:{port}/" in out.getvalue()


@pytest.mark.django_db
def test_tls_is_handed_to_uvicorn(tmp_path, port, execs, monkeypatch):
    monkeypatch.setattr(host, "call_command", lambda *a, **k: None)
    monkeypatch.setattr(host, "compile_catalogues", lambda: None)
    get_user_model().objects.create_user("gm", password=GOOD_PASSWORD)
    folder = tmp_path / "table"
    monkeypatch.setenv(hosting.DATA_VARIABLE, str(folder))
    monkeypatch.setenv("ALLOWED_HOSTS", "table.test")
    out = io.StringIO()
    call_command(
        "host", "--data", str(folder), "--port", "8443", "--tls-cert", "c.pem", "--tls-key",
        "k.pem", stdout=out,
    )  # fmt: skip
    [(argv, _)] = execs
    assert argv[argv.index("--ssl-certfile") + 1] == "c.pem"
    assert argv[argv.index("--ssl-keyfile") + 1] == "k.pem"
    assert "https://table.test:8443/" in out.getvalue()


@pytest.fixture
def terminal(monkeypatch):
    """A person at a terminal typing `answers` in turn (username, password, again)."""
    answers = []
    monkeypatch.setattr(sys, "stdin", type("Tty", (io.StringIO,), {"isatty": lambda s: True})())
    monkeypatch.setattr("builtins.input", lambda prompt: answers.pop(0))
    monkeypatch.setattr(host.getpass, "getpass", lambda prompt: answers.pop(0))
    return answers


def test_the_first_run_asks_for_the_gm_at_a_terminal(fresh, port, execs, terminal):
    terminal += ["gm", GOOD_PASSWORD, GOOD_PASSWORD]
    step_one(fresh, port, stdout=io.StringIO())
    [(argv, env)] = execs
    assert argv[argv.index("--gm-username") + 1] == "gm"
    assert env[hosting.PASSWORD_VARIABLE] == GOOD_PASSWORD  # for step 2, not on argv
    assert GOOD_PASSWORD not in argv


def test_two_different_passwords_at_the_terminal_create_nothing(fresh, port, execs, terminal):
    terminal += ["gm", GOOD_PASSWORD, GOOD_PASSWORD + "x"]
    assert_refused(fresh, port, [], "the two passwords differ", execs)


def test_a_campaign_name_too_long_is_refused(fresh, port, execs, monkeypatch):
    monkeypatch.setenv(hosting.PASSWORD_VARIABLE, GOOD_PASSWORD)
    args = ["--gm-username", "gm", "--campaign", "x" * 101]
    assert_refused(fresh, port, args, "--campaign needs a name of 1 to 100", execs)

"""Production hardening (issue 12): the secret key, deploy checks, CSP, login throttling,
strong passwords and a dead database connection."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.urls import reverse

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k9-" + "production-secret-" * 4,
    "ALLOWED_HOSTS": "table.example.org",
    "HTTPS": "1",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """manage.py in a fresh process, outside pytest (no PYTEST_VERSION), with `env`."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTEST_VERSION", "SECRET_KEY", "DEBUG", "HTTPS", "DATABASE_URL", "REDIS_URL")
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=base | {"DJANGO_SETTINGS_MODULE": "momenta_site.settings"} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_mode_without_secret_key_refuses_to_start(tmp_path):
    done = manage("check", DEBUG="0", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "SECRET_KEY is not set" in done.stderr


def test_development_mode_without_secret_key_starts(tmp_path):
    done = manage("check", DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 0, done.stderr


def test_the_demo_keeps_a_random_key_of_its_own_beside_its_database(tmp_path):
    from momenta_site.secret_key import DEVELOPMENT_KEY, demo_key

    database = tmp_path / "db.sqlite3"
    key = demo_key(database)
    assert key != DEVELOPMENT_KEY and len(key) >= 50
    assert demo_key(database) == key  # kept: sessions outlive a restart
    assert (tmp_path / "db.sqlite3.secret-key").stat().st_mode & 0o077 == 0


def test_check_deploy_is_clean_in_the_documented_production_environment(tmp_path):
    done = manage("check", "--deploy", SQLITE_PATH=str(tmp_path / "db.sqlite3"), **PRODUCTION)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr + done.stdout, done.stderr
    assert "no issues" in done.stdout


def test_every_page_carries_a_content_security_policy_without_inline_code(
    client_for, momenta_campaign
):
    for url in (reverse("login"), reverse("table", args=[momenta_campaign.pk])):
        policy = client_for("gm").get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        assert sorted(policy.split("; ")) == sorted(POLICY.split("; "))


# The whole policy, as the pages have needed it since issue 12 (settings.py).
POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def test_a_view_that_sets_its_own_policy_keeps_it(rf):
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse

    def view(request):
        answer = HttpResponse("")
        answer["Content-Security-Policy"] = "default-src 'none'"
        return answer

    answer = CSPMiddleware(view)(rf.get("/"))
    assert answer["Content-Security-Policy"] == "default-src 'none'"


# --- Logins -------------------------------------------------------------------------------


def login(client, password):
    return client.post(reverse("login"), {"username": "gm", "password": password})


def test_logins_are_refused_after_too_many_wrong_passwords_even_the_right_one(client, gm, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        assert login(client, "wrong-guess").status_code == 200
    locked = login(client, PASSWORD)
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_ends_with_its_window(client, gm, settings):
    from tests.tables.login_clock import LoginClock

    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_LOCKOUT_SECONDS = 2, 600
    at = LoginClock()
    for _ in range(2):
        login(client, "wrong-guess")
    at(599)
    assert login(client, PASSWORD).status_code == 429
    at(600)
    assert login(client, PASSWORD).status_code == 302


def test_a_successful_login_clears_the_count(client, gm, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    login(client, "wrong-guess")
    assert login(client, PASSWORD).status_code == 302
    client.logout()
    login(client, "wrong-guess")
    assert login(client, PASSWORD).status_code == 302


@pytest.mark.parametrize("password", ["80417592", "password123", "gmgmgmgm1"])
def test_signup_refuses_weak_passwords(client, db, password):
    response = client.post(
        reverse("signup"), {"username": "gmgmgmgm", "password1": password, "password2": password}
    )
    assert response.status_code == 200 and "password2" in response.context["form"].errors
    assert not get_user_model().objects.filter(username="gmgmgmgm").exists()


def test_the_demo_password_passes_the_validators(db):
    from django.contrib.auth.password_validation import validate_password

    from tables.management.commands.seed_demo import PASSWORD as DEMO_PASSWORD

    validate_password(DEMO_PASSWORD, get_user_model()(username="alice"))


def test_signup_next_may_be_any_local_path_never_a_view_name(client, db):
    data = {"username": "dana", "password1": "long-pass-987", "password2": "long-pass-987"}
    response = client.post(reverse("signup") + "?next=foo", data)
    assert response.status_code == 302 and response["Location"] == "foo"


# --- A dead database connection ------------------------------------------------------------


def test_a_dead_database_connection_answers_503_with_retry_after(client_for, momenta_campaign):
    client = client_for("gm")
    client.raise_request_exception = False
    dead = OperationalError("server closed the connection unexpectedly")
    with mock.patch("tables.views.site.campaign_for", side_effect=dead):
        response = client.get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert "try again" in response.content.decode()


def test_templates_have_no_inline_scripts_handlers_or_styles():
    """What the CSP refuses must not be in a page: it would silently stop working."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)|<style|\son[a-z]+=|\sstyle=", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in (ROOT / "templates").rglob("*.html")
        for match in inline.finditer(path.read_text())
    ]
    assert not found

"""The operator's log (issue 27): a line per request with its request id and user, as JSON
when asked, and the lines logged inside a request naming both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.site_log import site_log  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_a_request_logs_one_json_line_with_its_request_id_and_user(
    site_log,  # noqa: F811
    client_for,
    player,
    momenta_campaign,
):
    log = site_log(json_lines=True)
    answer = client_for("player").get(f"/campaigns/{momenta_campaign.pk}/table/")
    assert answer.status_code == 200
    (line,) = log.named("momenta.requests")  # every line parses as JSON, and one is this
    assert line["request_id"] == answer["X-Request-ID"]
    assert line["user_id"] == player.pk
    assert line["level"] == "INFO"
    assert (line["method"], line["path"], line["status"]) == (
        "GET",
        f"/campaigns/{momenta_campaign.pk}/table/",
        200,
    )
    assert line["time"].endswith("Z")


@pytest.mark.django_db
def test_a_warning_logged_inside_a_request_names_that_request_and_its_user(
    site_log,  # noqa: F811
    client_for,
    player,
):
    log = site_log(json_lines=True)
    answer = client_for("player").get("/no-such-page/")
    assert answer.status_code == 404
    (warning,) = log.named("django.request")  # Django's "Not Found" line
    assert warning["level"] == "WARNING"
    assert warning["request_id"] == answer["X-Request-ID"]
    assert warning["user_id"] == player.pk


@pytest.mark.django_db
def test_a_server_errors_request_line_is_an_error(site_log, client, monkeypatch):  # noqa: F811
    """The report: the 500's line was INFO, invisible at the default level (WARNING)."""
    from tables.views import site

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(site.LoginView, "get", broken)
    log = site_log(json_lines=True, level="WARNING")
    client.raise_request_exception = False
    answer = client.get("/login/")
    assert answer.status_code == 500
    (line,) = log.named("momenta.requests")
    assert (line["level"], line["status"]) == ("ERROR", 500)
    assert line["request_id"] == answer["X-Request-ID"]


@pytest.mark.django_db
def test_a_visitor_not_logged_in_is_logged_without_a_user(site_log, client):  # noqa: F811
    log = site_log(json_lines=True)
    assert client.get("/login/").status_code == 200
    (line,) = log.named("momenta.requests")
    assert line["user_id"] is None and line["status"] == 200


@pytest.mark.django_db
def test_the_proxys_request_id_is_kept_and_a_forged_one_replaced(site_log, client):  # noqa: F811
    log = site_log(json_lines=True)
    kept = client.get("/login/", headers={"X-Request-ID": "caddy-2f9c1e07-aa41"})
    forged = client.get("/login/", headers={"X-Request-ID": 'x" "user_id": 1'})
    assert kept["X-Request-ID"] == "caddy-2f9c1e07-aa41"
    assert forged["X-Request-ID"] != 'x" "user_id": 1'
    ids = [line["request_id"] for line in log.named("momenta.requests")]
    assert ids == [kept["X-Request-ID"], forged["X-Request-ID"]]


@pytest.mark.django_db
def test_text_lines_carry_the_time_level_request_and_user(
    site_log,  # noqa: F811
    client_for,
    player,
):
    log = site_log(json_lines=False)
    answer = client_for("player").get("/")
    (line,) = [x for x in log.text.splitlines() if "momenta.requests" in x]
    stamp, level, name, request, user, *_ = line.split(" ")
    assert stamp.endswith("Z") and level == "INFO" and name == "momenta.requests"
    assert request == f"req={answer['X-Request-ID']}" and user == f"user={player.pk}"


@pytest.mark.django_db
def test_at_warning_no_request_line_is_written(site_log, client):  # noqa: F811
    log = site_log(json_lines=True, level="WARNING")
    assert client.get("/login/").status_code == 200
    assert log.text == ""


def settings_env(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("LOG_")}
    base |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1"}
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps([settings.LOG_LEVEL, settings.LOGGING['formatters']['site']['json']]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base | env, capture_output=True, text=True
    )


def test_log_format_json_is_read_from_the_environment():
    done = settings_env(LOG_FORMAT="json", LOG_LEVEL="info")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["INFO", True]
    assert json.loads(settings_env().stdout) == ["WARNING", False]


@pytest.mark.parametrize("env", [{"LOG_LEVEL": "LOUD"}, {"LOG_FORMAT": "xml"}])
def test_an_unknown_log_level_or_format_is_refused_at_start(env):
    done = settings_env(**env)
    assert done.returncode != 0 and next(iter(env)) in done.stderr

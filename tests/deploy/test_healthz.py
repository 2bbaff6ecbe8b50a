"""`/healthz` and `/readyz` for monitors, the proxy and deploys (momenta_site/health.py).

200 `ok` when the database, the cache and the channel layer answer; 200 `degraded`
naming what failed when only Redis's parts fail (pages work from the database, so the
proxy must keep the process); 503 when the database does not answer or would refuse
every write. `/readyz` alone answers 503 while draining. Answered for any Host and over
plain HTTP, since the proxy probes each worker at its own address.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from momenta_site import __version__, health, release
from tables.devtools.server import free_port
from tests.site_log import site_log  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_when_database_cache_and_channel_layer_answer(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["failed"]) == ("ok", {})
    assert answer["Cache-Control"] == "no-store"


def test_healthz_and_readyz_name_the_release_that_answers(client, monkeypatch):
    monkeypatch.setattr(release, "commit", lambda: "1a2b3c4d5e6f")
    for path in ("/healthz", "/readyz"):
        body = client.get(path).json()
        assert (body["version"], body["commit"]) == (__version__, "1a2b3c4d5e6f")


def test_healthz_answers_the_proxy_at_a_worker_address_over_plain_http(client, settings):
    """Caddy probes 127.0.0.1:8001 over HTTP: no 400 for the host, no https redirect."""
    settings.ALLOWED_HOSTS = ["table.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    answer = client.get("/healthz", HTTP_HOST="127.0.0.1:8001")
    assert answer.status_code == 200
    # Every other page still refuses the unknown host.
    assert client.get("/login/", HTTP_HOST="127.0.0.1:8001").status_code == 400


def test_healthz_is_503_when_the_database_is_unreachable(client, monkeypatch):
    def refused():
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "ensure_connection", refused)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"
    assert answer.json()["failed"] == {"database": "unreachable"}


def dead_redis_cache() -> dict:
    """The site's Redis cache, on a port where nothing listens."""
    return {
        "default": {
            "BACKEND": "momenta_site.redis_cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {
                "CLIENT_CLASS": "momenta_site.redis_cache.DegradingClient",
                "SOCKET_CONNECT_TIMEOUT": 1,
            },
        }
    }


def dead_redis_layer() -> dict:
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {"address": f"redis://127.0.0.1:{free_port()}/0", "socket_connect_timeout": 1}
                ]
            },
        }
    }


def test_healthz_is_200_degraded_when_the_cache_is_unreachable(client, settings):
    """Sessions come from the database then (redis_cache.py): the proxy keeps the process."""
    settings.CACHES = dead_redis_cache()
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["failed"] == {"cache": "unreachable"}


def test_healthz_is_200_degraded_when_the_channel_layer_is_unreachable(client, settings):
    settings.CHANNEL_LAYERS = dead_redis_layer()
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["failed"] == {"channel layer": "unreachable"}


def test_healthz_without_redis_is_degraded_not_down(client, settings):
    settings.CACHES = dead_redis_cache()
    settings.CHANNEL_LAYERS = dead_redis_layer()
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["status"] == "degraded"
    assert answer.json()["failed"] == {"cache": "unreachable", "channel layer": "unreachable"}


def test_healthz_is_503_when_the_database_is_unreachable_whatever_else_fails(
    client, settings, monkeypatch
):
    def refused():
        raise OperationalError("connection refused")

    settings.CACHES = dead_redis_cache()
    monkeypatch.setattr(connection, "ensure_connection", refused)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"database": "unreachable", "cache": "unreachable"}


def test_readyz_is_503_draining_while_the_drain_file_exists_and_healthz_stays_200(
    client, settings, tmp_path
):
    """deploy/restart makes the file so the proxy (asking /readyz) takes the instance out
    before it stops; the public /healthz does not flap to 503 at each deploy."""
    settings.DRAIN_FILE = str(tmp_path / "drain-8001")
    assert client.get("/readyz").status_code == 200
    (tmp_path / "drain-8001").touch()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "draining"
    assert client.get("/healthz").status_code == 200
    assert client.get("/healthz").json()["status"] == "ok"
    # Draining stops new traffic from the proxy; requests that still arrive are served.
    assert client.get("/login/").status_code == 200
    (tmp_path / "drain-8001").unlink()
    assert client.get("/readyz").status_code == 200


def test_a_drain_is_two_lines_in_the_log_not_an_error_at_each_probe(
    client,
    settings,
    tmp_path,
    monkeypatch,
    site_log,  # noqa: F811
):
    """A restart drains every instance: its 503s are the answer asked for (issue 41)."""
    monkeypatch.setattr(health, "_last_failed", {})
    monkeypatch.setattr(health, "_was_draining", False)
    log = site_log(json_lines=True)
    settings.DRAIN_FILE = str(tmp_path / "drain-8001")
    (tmp_path / "drain-8001").touch()
    for _ in range(3):
        assert client.get("/readyz").status_code == 503
    (tmp_path / "drain-8001").unlink()
    assert client.get("/readyz").status_code == 200

    assert [r for r in log.records() if r["level"] in ("ERROR", "CRITICAL")] == []
    assert [r["message"] for r in log.records()] == [
        f"readyz: draining ({settings.DRAIN_FILE} exists): answering 503",
        "readyz: no longer draining",
    ]

"""`/healthz` for the proxy and the process manager (momenta_site/health.py).

200 when the database, the cache and the channel layer answer, 503 naming the one that
does not; answered for any Host and over plain HTTP, since the proxy probes
each worker at its own address.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from tables.devtools.server import free_port

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_when_database_cache_and_channel_layer_answer(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.content == b"ok\n"
    assert answer["Cache-Control"] == "no-store"


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
    assert answer.content == b"unavailable: database\n"


def test_healthz_is_503_when_the_cache_is_unreachable(client, settings):
    # Sessions are read from it: a Redis that takes no new client fails every login.
    location = f"redis://127.0.0.1:{free_port()}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "momenta_site.redis_cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.content == b"unavailable: cache\n"


def test_healthz_is_503_when_the_channel_layer_is_unreachable(client, settings):
    # Redis on a port where nothing listens.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {"address": f"redis://127.0.0.1:{free_port()}/0", "socket_connect_timeout": 1}
                ]
            },
        }
    }
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.content == b"unavailable: channel layer\n"

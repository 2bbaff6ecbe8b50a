"""Losing Redis costs live updates for a while, never the site (issue 26).

Redis carries the session cache, the doorbells and presence. When it does not
answer, the cache misses and skips writes (momenta_site/redis_cache.py), so
logins, pages and commands work from the database; a doorbell that cannot be
rung is logged and the command succeeds; pages catch up from the database by
sequence number once their socket or the doorbell is back.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client

from tables.devtools.server import free_port
from tables.models import TableEvent

from ..conftest import PASSWORD

HX = {"HTTP_HX_REQUEST": "true"}
ROLL = {"attribute": "WITS", "kind": "action", "play": "narrative"} | {
    "expected_momentum": 0,
    "expected_resolve": 0,
}


def redis_cache(location: str) -> dict:
    """The site's cache configuration (settings.py), on another Redis."""
    return {
        "default": {
            "BACKEND": "momenta_site.redis_cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }


@pytest.mark.django_db
def test_with_the_cache_unreachable_a_member_logs_in_plays_and_logs_out(
    settings, momenta_campaign, hero, player
):
    # Nothing listens there: every cache command fails, as when Redis is stopped.
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{free_port()}/0")
    browser = Client()
    answer = browser.post("/login/", {"username": "player", "password": PASSWORD})
    assert answer.status_code == 302, answer.content.decode()[:300]
    session_key = browser.cookies[settings.SESSION_COOKIE_NAME].value
    stored = Session.objects.get(session_key=session_key).get_decoded()
    assert stored[SESSION_KEY] == str(player.pk)  # the session lives in the database

    table = f"/campaigns/{momenta_campaign.pk}/"
    assert browser.get(table + "table/").status_code == 200
    answer = browser.post(table + "momenta/roll/", ROLL | {"character": hero.pk}, **HX)
    assert answer.status_code == 200, answer.content.decode()[:300]
    assert TableEvent.objects.filter(campaign=momenta_campaign, kind="momenta_roll").exists()

    browser.post("/logout/")
    assert not Session.objects.filter(session_key=session_key).exists()
    assert browser.get(table + "table/").status_code == 302  # to the login page

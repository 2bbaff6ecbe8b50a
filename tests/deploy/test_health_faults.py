"""Faults told once and fast (issue 39): /healthz with the database away answers 503
within its own short wait, notices when every write would fail, runs beside the
requests waiting for the database, and a database outage is two lines in the log."""

from __future__ import annotations

import logging

import psycopg
import pytest
from django.db import DatabaseError, OperationalError, connection
from django.db.backends.signals import connection_created

from momenta_site import database_outage, health, write_check
from momenta_site.http_handler import SyncChainASGIHandler
from tests.site_log import site_log  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


class PoolAway:
    """A psycopg pool whose database is away: it says how long it was asked to wait."""

    def __init__(self):
        self.waits = []

    def open(self):
        pass

    def connection(self, timeout=None):
        self.waits.append(timeout)
        raise psycopg.OperationalError(f"couldn't get a connection after {timeout} sec")


@pytest.fixture(autouse=True)
def clear_state(monkeypatch):
    monkeypatch.setattr(health, "_last_failed", {})
    monkeypatch.setattr(database_outage, "away", False)


def test_healthz_waits_for_a_pooled_connection_only_its_own_short_time(
    client, settings, monkeypatch
):
    """Django's wait is DB_POOL_TIMEOUT, for requests; the probe's is shorter."""
    settings.HEALTH_DATABASE_TIMEOUT = 0.25
    pool = PoolAway()
    monkeypatch.setattr(type(connection), "pool", property(lambda self: pool), raising=False)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"database": "unreachable"}
    assert pool.waits == [0.25]


def test_the_probes_run_beside_the_requests_waiting_for_the_database():
    """On the shared thread a probe queued behind each request's wait (3.8 s measured)."""
    assert set(health.PATHS) <= SyncChainASGIHandler().own_thread_paths


def test_healthz_is_503_writes_fail_when_a_column_this_code_never_writes_is_required(
    client,
    monkeypatch,
    site_log,  # noqa: F811
):
    """A rollback past a migration that added NOT NULL without db_default: pages read,
    every INSERT fails. Here the code "forgets" tables_campaign.name, as old code
    would not know a new column."""
    log = site_log(json_lines=True)
    known = write_check.known_columns()
    known["tables_campaign"] = known["tables_campaign"] - {"name"}
    monkeypatch.setattr(write_check, "known_columns", lambda: known)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"
    assert answer.json()["failed"] == {"database": "writes fail"}
    (line,) = [r["message"] for r in log.named("momenta_site.health")]
    assert "database writes fail" in line and "tables_campaign.name" in line
    # The proxy keeps the instances: every one has the same schema, and pages still read.
    ready = client.get("/readyz")
    assert (ready.status_code, ready.json()["status"]) == (200, "degraded")
    assert ready.json()["failed"] == {"database": "writes fail"}


def test_the_schema_as_migrated_takes_every_write_of_this_code():
    assert write_check.unknown_required_columns() == []


def test_healthz_is_503_writes_fail_when_the_tiny_write_fails(client, monkeypatch):
    def read_only():
        raise DatabaseError("cannot execute INSERT in a read-only transaction")

    monkeypatch.setattr(write_check, "_tiny_write", read_only)
    if connection.vendor == "sqlite":  # which skips the tiny write: as another database
        monkeypatch.setattr(connection, "vendor", "other")
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"database": "writes fail"}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite skips the tiny write")
def test_the_tiny_write_leaves_nothing_behind(client):
    from tables.models import TableEvent

    before = TableEvent.objects.count()
    assert client.get("/healthz").status_code == 200
    assert TableEvent.objects.count() == before


def pool_says_it_cannot_connect(times: int) -> None:
    """What psycopg_pool logs at each failed attempt (psycopg_pool/pool.py)."""
    refused = psycopg.OperationalError("connection failed: Connection refused")
    for _ in range(times):
        logging.getLogger("psycopg.pool").warning("error connecting in %r: %s", "pool-1", refused)


def a_request_finds_it_away() -> None:
    error = OperationalError("connection refused")
    logging.getLogger("momenta_site.middleware").warning(
        "database unavailable for %s: %s", "/campaigns/1/table/", error
    )


def test_a_database_outage_is_one_warning_and_one_when_it_answers_again(
    site_log,  # noqa: F811
):
    log = site_log(json_lines=True, level="WARNING")
    for _ in range(2):  # two outages: two lines each
        pool_says_it_cannot_connect(40)
        a_request_finds_it_away()
        pool_says_it_cannot_connect(40)
        connection_created.send(sender=type(connection), connection=connection)
        connection_created.send(sender=type(connection), connection=connection)
    lines = [(r["level"], r["message"], r.get("database")) for r in log.records()]
    away = (
        "WARNING",
        "database unreachable: error connecting in 'pool-1': connection failed: Connection refused",
        "away",
    )
    back = ("WARNING", "database answers again", "back")
    assert lines == [away, back, away, back]


def test_outside_an_outage_a_request_whose_connection_failed_keeps_its_line(
    site_log,  # noqa: F811
):
    log = site_log(json_lines=True, level="WARNING")
    a_request_finds_it_away()
    assert [r["message"] for r in log.records()] == [
        "database unavailable for /campaigns/1/table/: connection refused"
    ]


def test_healthz_finding_the_database_away_starts_the_outage_and_back_ends_it(
    client,
    monkeypatch,
    site_log,  # noqa: F811
):
    log = site_log(json_lines=True, level="WARNING")

    away = [True]
    working = connection.ensure_connection

    def refused():
        if away[0]:
            raise OperationalError("connection refused")
        working()

    monkeypatch.setattr(connection, "ensure_connection", refused)
    for _ in range(3):
        assert client.get("/healthz").status_code == 503
    pool_says_it_cannot_connect(5)
    away[0] = False
    assert client.get("/healthz").status_code == 200
    assert [(r["message"], r.get("database")) for r in log.records()] == [
        ("database unreachable: OperationalError: connection refused", "away"),
        ("database answers again", "back"),
    ]

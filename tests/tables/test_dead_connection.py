"""A command whose database connection dies (issue 12): run once more on a fresh
connection when nothing was committed, else a clear 503; never a 500. The same when
it dies in a middleware, before the view (issue 41).

The connection is killed in the middle of the command: on PostgreSQL its backend
is terminated from another connection (the real failure), on SQLite, which has
no server to lose, the statement fails as a locked database does.
"""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import pytest
from django.contrib.auth.backends import ModelBackend
from django.db import OperationalError, connection
from django.urls import reverse
from psycopg_pool import PoolTimeout

from momenta_site import middleware
from momenta_site.middleware import DatabaseUnavailableMiddleware
from tables.models import Campaign, TableEvent
from tests.site_log import site_log  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def kill(conn) -> None:
    """Kill `conn` (a Django connection) for real where the database allows it."""
    if conn.vendor == "postgresql":
        other = conn.copy()
        try:
            with other.cursor() as cursor:
                pid = conn.connection.info.backend_pid
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()
    else:
        raise OperationalError("database is locked")


class Killer:
    """An execute wrapper that kills the connection at the statement `when` picks, `times` times.

    when(sql, conn, state) -> bool; `state` remembers what the command did so far.
    """

    def __init__(self, when, times: int = 1):
        self.when, self.times, self.kills, self.state = when, times, 0, {}

    def __call__(self, execute, sql, params, many, context):
        conn = context["connection"]
        if self.kills < self.times and self.when(sql, conn, self.state):
            self.kills += 1
            kill(conn)
        return execute(sql, params, many, context)


def changing_the_pool(sql, conn, state) -> bool:
    """Inside the command's transaction, at its write to the campaign row."""
    return conn.in_atomic_block and sql.startswith('UPDATE "tables_campaign"')


def after_the_commit(sql, conn, state) -> bool:
    """The first statement after the command's transaction committed."""
    if changing_the_pool(sql, conn, state):
        state["wrote"] = True
        return False
    return state.get("wrote", False) and not conn.in_atomic_block


def adjust(client, campaign, killer):
    client.raise_request_exception = False
    with connection.execute_wrapper(killer):
        return client.post(
            reverse("pool_adjust", args=[campaign.pk]),
            {"pool": "group_momentum", "delta": 2, "reason": "Gift"},
            HTTP_HX_REQUEST="true",
        )


def outcome(campaign) -> tuple[int, int]:
    """(group Momentum, pool_adjusted events): what the command did, and how often."""
    value = Campaign.objects.get(pk=campaign.pk).group_momentum
    return value, TableEvent.objects.filter(campaign=campaign, kind="pool_adjusted").count()


def test_a_command_whose_connection_dies_before_its_commit_runs_again_once(
    client_for, d20_campaign, caplog
):
    killer = Killer(changing_the_pool)
    response = adjust(client_for("gm"), d20_campaign, killer)
    assert killer.kills == 1
    assert response.status_code == 200
    assert 'data-pool="group_momentum">2<' in response.content.decode()
    assert outcome(d20_campaign) == (2, 1)  # done once, not twice
    assert "running /campaigns/" in caplog.text and "Traceback" not in caplog.text


def test_a_command_that_committed_before_its_connection_died_is_not_run_again(
    client_for, d20_campaign
):
    killer = Killer(after_the_commit)
    response = adjust(client_for("gm"), d20_campaign, killer)
    assert killer.kills == 1
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert "may have been done" in response.content.decode()
    assert outcome(d20_campaign) == (2, 1)


def test_a_command_whose_connection_dies_twice_answers_503_and_changes_nothing(
    client_for, d20_campaign
):
    killer = Killer(changing_the_pool, times=2)
    response = adjust(client_for("gm"), d20_campaign, killer)
    assert killer.kills == 2
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert "Nothing was changed" in response.content.decode()
    assert outcome(d20_campaign) == (0, 0)


def test_a_page_whose_connection_dies_once_is_still_shown(client_for, d20_campaign):
    client = client_for("gm")
    client.raise_request_exception = False
    killer = Killer(lambda sql, conn, state: 'FROM "tables_campaign"' in sql)
    with connection.execute_wrapper(killer):
        response = client.get(reverse("campaign_detail", args=[d20_campaign.pk]))
    assert killer.kills == 1
    assert response.status_code == 200 and d20_campaign.name in response.content.decode()


# --- In a middleware, before the view (issue 41) ---------------------------------------


def the_user_lookup(sql, conn, state) -> bool:
    """The first read of request.user (PersonLocaleMiddleware's), loading the user."""
    return 'FROM "auth_user"' in sql


def pool_timeout(*args, **kwargs):
    """What a read raises when the pool hands out no connection in time (Django wraps
    psycopg's errors in its own, the original as the cause)."""
    try:
        raise PoolTimeout("couldn't get a connection after 2.00 sec")
    except PoolTimeout as error:
        raise OperationalError(str(error)) from error


def test_a_pool_timeout_in_a_middlewares_user_lookup_answers_503_at_once(
    client_for,
    d20_campaign,
    site_log,  # noqa: F811
):
    log = site_log(json_lines=True)
    client = client_for("gm")
    client.raise_request_exception = False
    with mock.patch.object(ModelBackend, "get_user", side_effect=pool_timeout) as lookup:
        response = client.get(reverse("campaign_detail", args=[d20_campaign.pk]))
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert "try again" in response.content.decode()
    assert lookup.call_count == 1  # a busy database is not waited for twice
    # One warning for it, no traceback of a 500 that was never sent.
    assert "Internal Server Error" not in log.text and "traceback" not in log.text


def test_a_connection_that_dies_in_a_middlewares_user_lookup_runs_again_once(
    client_for, d20_campaign
):
    client = client_for("gm")
    client.raise_request_exception = False
    killer = Killer(the_user_lookup)
    with connection.execute_wrapper(killer):
        response = client.get(reverse("campaign_detail", args=[d20_campaign.pk]))
    assert killer.kills == 1
    assert response.status_code == 200 and d20_campaign.name in response.content.decode()


def test_a_connection_that_dies_twice_in_a_middlewares_user_lookup_answers_503(
    client_for, d20_campaign
):
    client = client_for("gm")
    client.raise_request_exception = False
    killer = Killer(the_user_lookup, times=2)
    with connection.execute_wrapper(killer):
        response = client.get(reverse("campaign_detail", args=[d20_campaign.pk]))
    assert killer.kills == 2
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert "Nothing was changed" in response.content.decode()


def test_after_a_pool_timeout_the_next_requests_answer_503_without_waiting_a_moment(
    client_for, d20_campaign, monkeypatch
):
    """A process's requests run one after another: each waiting out the pool would
    delay the rest by as much (a storm answered its eighth page after 80 s)."""
    now = [1000.0]
    monkeypatch.setattr(middleware, "time", SimpleNamespace(monotonic=lambda: now[0]))
    client = client_for("gm")
    client.raise_request_exception = False
    page = reverse("campaign_detail", args=[d20_campaign.pk])
    with mock.patch.object(ModelBackend, "get_user", side_effect=pool_timeout) as lookup:
        assert client.get(page).status_code == 503
        now[0] += DatabaseUnavailableMiddleware.BUSY_SECONDS / 2
        second = client.get(page)
    assert second.status_code == 503 and second["Retry-After"].isdigit()
    assert lookup.call_count == 1  # the second request did not ask the pool
    now[0] += DatabaseUnavailableMiddleware.BUSY_SECONDS
    assert client.get(page).status_code == 200  # then the database is asked again

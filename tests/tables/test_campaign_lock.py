"""The campaign row lock every command takes (issue 38): guarded on SQLite too.

SQLite serialises writers by itself (IMMEDIATE transactions), so a `lock_campaign` that
stopped locking would pass every SQLite race; only PostgreSQL's race tests would see
it. Here the database is told it can lock rows, as PostgreSQL can: the SQL Django
then sends is PostgreSQL's, and it must ask for the row lock. The clause is taken off
again before SQLite runs the statement, which it could not parse.
"""

import pytest
from django.db import connection, transaction

from tables.services.core import lock_campaign

LOCK = " FOR UPDATE"


@pytest.fixture
def row_locks_sent(monkeypatch):
    """The statements that asked for a row lock, with the database able to lock rows."""
    sent = []

    def take_lock_clause_off(execute, sql, params, many, context):
        if sql.endswith(LOCK):
            sent.append((sql, params))
            sql = sql.removesuffix(LOCK)
        return execute(sql, params, many, context)

    monkeypatch.setattr(connection.features, "has_select_for_update", True)
    with connection.execute_wrapper(take_lock_clause_off):
        yield sent


def test_every_command_locks_the_campaign_row_until_it_commits(momenta_campaign, row_locks_sent):
    with transaction.atomic():
        locked = lock_campaign(momenta_campaign.pk)

    assert locked.pk == momenta_campaign.pk
    campaign_locks = [params for sql, params in row_locks_sent if 'FROM "tables_campaign"' in sql]
    assert campaign_locks == [(momenta_campaign.pk,)]

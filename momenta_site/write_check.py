"""Would the running code's writes work on the database as it is? For /healthz.

- the columns of its models' tables that the code does not know and that are NOT NULL
  without a database default: every INSERT it makes there fails (a rollback past a
  migration that added `BooleanField(default=False)`: pages read, every write 500s);
- a tiny write, an event row (every command writes one), always rolled back: a
  read-only database, rights taken away, a full disk. Not on SQLite, where it would
  wait for the file's one write lock behind the requests writing.
"""

from __future__ import annotations

from django.apps import apps
from django.db import connection, transaction

from momenta_site.migration_safety import project_apps

# Columns the database fills itself (PostgreSQL identity columns) are no problem.
POSTGRES_REQUIRED = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND is_nullable = 'NO' AND column_default IS NULL
  AND is_identity = 'NO' AND is_generated = 'NEVER' AND table_name = ANY(%s)
"""


class WritesFail(Exception):
    pass


def known_columns() -> dict[str, set[str]]:
    """Each project model's table -> the columns the running code writes."""
    own = project_apps()
    tables: dict[str, set[str]] = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.app_label in own and meta.managed and not meta.proxy:
            tables.setdefault(meta.db_table, set()).update(f.column for f in meta.local_fields)
    return tables


# The same for SQLite, in one query too (Django's introspection makes one per column).
SQLITE_REQUIRED = """
SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p
WHERE m.type = 'table' AND p."notnull" AND p.dflt_value IS NULL AND NOT p.pk
"""


def _required_columns(cursor, tables: list[str]) -> set[tuple[str, str]]:
    if connection.vendor == "postgresql":
        cursor.execute(POSTGRES_REQUIRED, [tables])
    elif connection.vendor == "sqlite":
        cursor.execute(SQLITE_REQUIRED)
    else:
        return set()  # the site runs on these two only
    return {(table, column) for table, column in cursor.fetchall() if table in tables}


def unknown_required_columns() -> list[str]:
    """`table.column` for each NOT NULL column without a default the code never writes."""
    known = known_columns()
    with connection.cursor() as cursor:
        required = _required_columns(cursor, list(known))
    return sorted(f"{t}.{c}" for t, c in required if c not in known.get(t, ()))


def _tiny_write() -> None:
    from tables.models import TableEvent

    # No campaign 0: foreign keys are checked at commit, which never comes.
    TableEvent.objects.bulk_create([TableEvent(campaign_id=0, seq=0, kind="healthz")])


def check() -> None:
    """Raise (WritesFail, or the database's error) when the code's writes would fail."""
    unknown = unknown_required_columns()
    if unknown:
        raise WritesFail("NOT NULL without a default, unknown here: " + ", ".join(unknown))
    if connection.vendor == "sqlite":
        return  # a write takes the file's one write lock: the probe would queue behind play
    with transaction.atomic():
        try:
            _tiny_write()
        finally:
            transaction.set_rollback(True)  # nothing of the check is ever kept

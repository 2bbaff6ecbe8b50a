"""Is a migration safe while the previous release's code still runs? (deploy/README.md)

An upgrade migrates first, then restarts the instances one at a time
(`deploy/restart`): for those seconds old code reads and writes the migrated
database. So a migration may only add what old code can ignore:

- a new column must be nullable or carry a database default (`db_default`):
  old code's INSERTs do not name it, and a Python-side `default` is not in the
  database (a `BooleanField(default=False)` fails every old INSERT);
- a column becomes NOT NULL only with a `db_default`, for the same reason;
- nothing old code reads is removed or renamed (RemoveField, DeleteModel,
  RenameField, RenameModel, a changed db_column or db_table): stop using it in
  one release, remove it in the next;
- raw SQL cannot be judged here.

A migration reviewed as safe all the same (the removal of a column the previous
release no longer reads) says why in a class attribute, e.g.
`rolling_upgrade = "0.9 stopped reading Campaign.legacy_notes"`.
`manage.py migrate` (tables/management/commands/migrate.py) refuses a pending
migration this finds, before anything changes, unless given `--allow-unsafe`, and
`check --deploy` warns of it (pending_unsafe);
tests/test_migration_safety.py runs the check over every migration of the
project's apps; those made before it existed are grandfathered by name.

Why not django-migration-linter: it judges the SQL `sqlmigrate` prints with
regular expressions, so its answer depends on the database. On SQLite (`manage.py
host`, the tests) every table rebuild reads as "NOT NULL constraint on columns":
it refuses 0020-0026, each a `db_default` column the previous release survived.
This judges the operations themselves, the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, migrations
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState
from django.db.models import NOT_PROVIDED

# Made before this check; upgrades to them were done with the site stopped.
GRANDFATHERED = frozenset(
    ("tables", name)
    for name in (
        "0001_initial",
        "0002_play_records",
        "0003_seed_roll_templates",
        "0004_tableevent_kind_choices",
        "0005_campaign_invite_limits",
        "0006_assist_consent_declared_edges",
        "0007_login_failures",
        "0008_campaign_discord",
        "0009_voided_events",
        "0010_person_settings",
        "0011_table_talk",
        "0012_called_tests",
        "0013_game_lines",
        "0014_tableevent_kind_talk_calls_lines",
        "0015_tableevent_kind_choices_callable",
        "0016_campaign_discord_hooks",
        "0017_login_failure_address",
        "0018_scene_board",
        "0019_tableevent_idempotency_key",
    )
)

REMOVALS = (
    migrations.RemoveField,
    migrations.DeleteModel,
    migrations.RenameField,
    migrations.RenameModel,
    migrations.AlterModelTable,
)


def _not_null_without_db_default(field) -> bool:
    return not field.null and not field.many_to_many and field.db_default is NOT_PROVIDED


def _old_field(state: ProjectState, app_label: str, model_name: str, name: str):
    model = state.models.get((app_label, model_name.lower()))
    return model.fields.get(name) if model else None


def problems(migration, state: ProjectState) -> list[str]:
    """Why `migration` would break the previous release's code, from `state` (the
    project just before it); empty when it is safe or says why it is anyway."""
    if getattr(migration, "rolling_upgrade", ""):
        return []
    app_label = migration.app_label
    state = state.clone()
    found = []
    created = set()  # models new in this migration: old code never reads them
    for operation in migration.operations:
        where = f"{app_label}.{migration.name}: {operation.describe()}"
        model = getattr(operation, "model_name", None) or getattr(operation, "name", "")
        if isinstance(operation, migrations.CreateModel):
            created.add(operation.name_lower)
        elif model.lower() in created:
            pass
        elif isinstance(operation, REMOVALS):
            found.append(f"{where}: old code still uses it; remove it a release later")
        elif isinstance(operation, migrations.AddField):
            if _not_null_without_db_default(operation.field):
                found.append(f"{where}: NOT NULL without db_default fails old code's INSERTs")
        elif isinstance(operation, migrations.AlterField):
            old = _old_field(state, app_label, operation.model_name, operation.name)
            new = operation.field
            if old is not None and old.null and _not_null_without_db_default(new):
                found.append(f"{where}: made NOT NULL without db_default")
            if old is not None and old.db_column != new.db_column:
                found.append(f"{where}: renames the column old code reads")
        elif isinstance(operation, migrations.RunSQL):
            found.append(f"{where}: raw SQL cannot be checked; review it")
        operation.state_forwards(app_label, state)
    return found


def project_apps() -> set[str]:
    """The apps whose code is this repository's (not Django's or a package's)."""
    root = Path(settings.BASE_DIR).resolve()
    return {
        config.label
        for config in apps.get_app_configs()
        if root in Path(config.path).resolve().parents and ".venv" not in Path(config.path).parts
    }


def plan_problems(plan, loader) -> list[str]:
    """Why the forward steps of a `migrate` plan ([(migration, backwards)]) would break
    the running release; `loader` (a MigrationLoader on the database) gives the state
    before each and what is applied. Only the project's own apps are judged (Django's
    and packages' migrations are theirs to make safe), only those with a migration
    applied already (no running code uses an app whose tables do not exist yet: a
    fresh install), and going backwards is an operator's deliberate choice."""
    mine = project_apps()
    running = {app for app, _ in loader.applied_migrations or ()} & mine
    found = []
    for migration, backwards in plan:
        key = (migration.app_label, migration.name)
        if backwards or migration.app_label not in running or key in GRANDFATHERED:
            continue
        found += problems(migration, loader.project_state(key, at_end=False))
    return found


def pending_unsafe(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`check --deploy`: the pending migrations `migrate` would refuse, said before the
    upgrade starts (it accepted them silently: issue 39)."""
    try:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return []  # no database to read here: migrate judges it where it runs
    found = plan_problems(plan, executor.loader)
    if not found:
        return []
    return [
        checks.Warning(
            "Pending migrations would break the running release during a rolling "
            "upgrade: " + "; ".join(found),
            hint="migrate refuses them: change the migration (db_default), or run "
            "migrate --allow-unsafe with every instance stopped (deploy/README.md).",
            id="momenta.W039",
        )
    ]

"""Migrations must be safe while the previous release runs (momenta_site/migration_safety.py).

An upgrade migrates, then restarts the instances one by one (deploy/README.md,
"Upgrading"): old code meets the new schema for those seconds.
"""

from __future__ import annotations

import pytest
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ModelState, ProjectState

from momenta_site.migration_safety import GRANDFATHERED, problems, project_apps


def test_every_new_migration_is_safe_while_old_code_runs():
    # Squashed ones and the originals they replace alike: a site part of the way to a
    # squash's end runs the originals (tables' 0001_squashed_0034).
    loader = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=False)
    mine = project_apps()
    assert "tables" in mine
    found = []
    for (app_label, name), migration in sorted(loader.disk_migrations.items()):
        if app_label not in mine or (app_label, name) in GRANDFATHERED:
            continue
        parents = loader.graph.node_map[(app_label, name)].parents
        before = loader.project_state([parent.key for parent in parents], at_end=True)
        found += problems(migration, before)
    assert found == [], "\n".join(found)


def test_grandfathered_migrations_exist():
    """A stale name would let a new migration of that name through unchecked."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    assert GRANDFATHERED <= set(loader.disk_migrations)


def thing_state(**note) -> ProjectState:
    """A project with one model, `tables.Thing`, whose `note` column is as given."""
    state = ProjectState()
    fields = [
        ("id", models.AutoField(primary_key=True)),
        ("note", models.CharField(max_length=20, **note)),
    ]
    state.add_model(ModelState("tables", "thing", fields))
    return state


def migration(*operations, **attributes):
    made = type("Migration", (migrations.Migration,), {"operations": list(operations)})
    for name, value in attributes.items():
        setattr(made, name, value)
    return made("0099_sample", "tables")


def test_an_added_not_null_column_with_only_a_python_default_is_unsafe():
    """The report's upgrade: old code's INSERTs leave the column out and fail (11 × 500)."""
    unsafe = migration(migrations.AddField("thing", "done", models.BooleanField(default=False)))
    [problem] = problems(unsafe, thing_state())
    assert "0099_sample" in problem and "db_default" in problem


@pytest.mark.parametrize(
    "field",
    [
        models.BooleanField(default=False, db_default=False),
        models.BooleanField(null=True),
        models.ManyToManyField("tables.thing"),
    ],
)
def test_an_added_column_with_a_database_default_or_nullable_is_safe(field):
    assert problems(migration(migrations.AddField("thing", "done", field)), thing_state()) == []


@pytest.mark.parametrize(
    "operation",
    [
        migrations.RemoveField("thing", "note"),
        migrations.RenameField("thing", "note", "text"),
        migrations.DeleteModel("thing"),
        migrations.RenameModel("thing", "item"),
        migrations.AlterField("thing", "note", models.CharField(max_length=20)),
        migrations.AlterField(
            "thing", "note", models.CharField(max_length=20, null=True, db_column="x")
        ),
        migrations.RunSQL("UPDATE tables_thing SET note = ''"),
    ],
)
def test_removing_renaming_or_tightening_what_old_code_uses_is_unsafe(operation):
    assert len(problems(migration(operation), thing_state(null=True))) == 1


def test_tightening_to_not_null_with_a_database_default_is_safe():
    tightened = models.CharField(max_length=20, db_default="")
    assert (
        problems(
            migration(migrations.AlterField("thing", "note", tightened)), thing_state(null=True)
        )
        == []
    )


def test_a_reviewed_removal_says_why_and_passes():
    removal = migrations.RemoveField("thing", "note")
    reviewed = migration(removal, rolling_upgrade="the previous release no longer reads it")
    assert problems(reviewed, thing_state()) == []


def test_a_model_created_in_the_same_migration_may_get_not_null_fields():
    created = migration(
        migrations.CreateModel("other", [("id", models.AutoField(primary_key=True))]),
        migrations.AddField("other", "thing", models.ForeignKey("tables.thing", models.CASCADE)),
    )
    assert problems(created, thing_state()) == []

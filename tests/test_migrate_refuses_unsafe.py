"""`manage.py migrate` refuses what the running release would not survive (issue 39).

The report's upgrade: a column added with `default=False` and no `db_default`
failed every old INSERT for ~35 s; only the test suite knew. The operator's own
command must say no before anything changes.
"""

from __future__ import annotations

import sys
import textwrap

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from momenta_site.migration_safety import plan_problems

SCRATCH = "scratch_migrations_issue39"
FIRST = """
from django.db import migrations, models

class Migration(migrations.Migration):
    operations = [
        migrations.CreateModel("Thing", [("id", models.AutoField(primary_key=True))]),
    ]
"""
# The report's migration: a Python-only default, nothing in the database.
UNSAFE = """
from django.db import migrations, models

class Migration(migrations.Migration):
    dependencies = [("rules", "0001_thing")]
    operations = [migrations.AddField("thing", "done", models.BooleanField(default=False))]
"""


@pytest.fixture
def scratch_migrations(tmp_path, monkeypatch):
    """Two migrations for the `rules` app (which has none): a table, then the unsafe column."""
    package = tmp_path / SCRATCH
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "0001_thing.py").write_text(textwrap.dedent(FIRST))
    (package / "0002_thing_done.py").write_text(textwrap.dedent(UNSAFE))
    monkeypatch.syspath_prepend(str(tmp_path))
    with override_settings(MIGRATION_MODULES={"rules": SCRATCH}):
        yield
        call_command("migrate", "rules", "zero", verbosity=0)
    for name in [m for m in sys.modules if m.startswith(SCRATCH)]:
        del sys.modules[name]


def applied_rules():
    applied = MigrationRecorder(connection).applied_migrations()
    return {name for app, name in applied if app == "rules"}


def columns():
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "rules_thing")
    return {column.name for column in described}


@pytest.mark.django_db(transaction=True)
def test_migrate_refuses_a_rolling_unsafe_migration_before_anything_changes(scratch_migrations):
    call_command("migrate", "rules", "0001", verbosity=0)  # the release running now
    with pytest.raises(CommandError) as refused:
        call_command("migrate", "rules", verbosity=0)
    assert "rules.0002_thing_done" in str(refused.value)
    assert "db_default" in str(refused.value)
    assert applied_rules() == {"0001_thing"}
    assert columns() == {"id"}


@pytest.mark.django_db(transaction=True)
def test_allow_unsafe_applies_it(scratch_migrations):
    call_command("migrate", "rules", "0001", verbosity=0)
    call_command("migrate", "rules", allow_unsafe=True, verbosity=0)
    assert applied_rules() == {"0001_thing", "0002_thing_done"}
    assert columns() == {"id", "done"}


@pytest.mark.django_db(transaction=True)
def test_a_fresh_install_is_not_judged(scratch_migrations):
    """No release runs on tables that do not exist yet: nothing to break."""
    call_command("migrate", "rules", verbosity=0)
    assert applied_rules() == {"0001_thing", "0002_thing_done"}


@pytest.mark.django_db(transaction=True)
def test_check_deploy_warns_of_it_before_the_upgrade(scratch_migrations):
    """The report: `check --deploy` accepted the migration silently."""
    from django.core import checks

    call_command("migrate", "rules", "0001", verbosity=0)
    [warned] = [
        m for m in checks.run_checks(include_deployment_checks=True) if m.id == "momenta.W039"
    ]
    assert "rules.0002_thing_done" in warned.msg and "--allow-unsafe" in warned.hint
    call_command("migrate", "rules", allow_unsafe=True, verbosity=0)
    assert "momenta.W039" not in {m.id for m in checks.run_checks(include_deployment_checks=True)}


@pytest.mark.django_db(transaction=True)
def test_check_deploy_does_not_judge_a_fresh_install(scratch_migrations):
    from django.core import checks

    call_command("migrate", "rules", "zero", verbosity=0)
    assert "momenta.W039" not in {m.id for m in checks.run_checks(include_deployment_checks=True)}


def test_the_repositorys_own_migrations_pass_over_a_running_release():
    """Every migration after 0001, judged as if the release before it were running: the
    originals a squash replaces, as a site part of the way there runs them."""
    executor = MigrationExecutor(None)  # no database: every migration pending
    executor.loader = MigrationLoader(None, replace_migrations=False)
    executor.loader.applied_migrations = {("tables", "0001_initial"): None}
    graph = executor.loader.graph
    originals = [key for key in graph.leaf_nodes() if not graph.nodes[key].replaces]
    plan = executor.migration_plan(originals, clean_start=True)
    assert any(m.app_label == "tables" and m.name == "0026_turn_order_per_line" for m, _ in plan)
    assert plan_problems(plan, executor.loader) == []

"""tables' 0001_squashed_0034 builds what 0001-0034 built (its docstring says why it exists).

A new database runs the squash; a site part of the way there runs the originals. Both
must end in the same schema, or the two kinds of site would differ from then on.
"""

from __future__ import annotations

from django.db.migrations.loader import MigrationLoader

SQUASH = ("tables", "0001_squashed_0034_contest_at_scene_end")
LAST_REPLACED = 34


def _originals(loader) -> set:
    """tables' migrations 0001-0034 on disk, the squash aside."""
    return {
        key
        for key in loader.disk_migrations
        if key[0] == "tables" and key != SQUASH and int(key[1][:4]) <= LAST_REPLACED
    }


def _tables_models(loader, node) -> dict:
    """tables' models at `node`, in an order-blind form: the squash creates each model
    with its fields and constraints in the models' order, the originals added them as
    they came (the tables' columns differ in order only)."""
    state = loader.project_state(node, at_end=True)
    return {key: _shape(model) for key, model in state.models.items() if key[0] == "tables"}


def _shape(model) -> tuple:
    fields = {name: field.deconstruct()[1:] for name, field in model.fields.items()}
    options = dict(model.options)
    for listed in ("constraints", "indexes"):
        options[listed] = sorted(repr(item.deconstruct()) for item in options.get(listed, []))
    return fields, options, model.bases, [name for name, _ in model.managers]


def test_the_squash_ends_where_the_originals_end():
    loader = MigrationLoader(None, replace_migrations=False)
    replaced = set(loader.get_migration(*SQUASH).replaces)
    assert replaced == _originals(loader)
    squashed = _tables_models(loader, SQUASH)
    originals = _tables_models(loader, max(replaced))
    assert squashed.keys() == originals.keys()
    assert [key for key in squashed if squashed[key] != originals[key]] == []


def test_a_new_database_runs_the_squash_not_the_originals():
    loader = MigrationLoader(None)  # no database: nothing applied
    graph = loader.graph
    plan = {key for leaf in graph.leaf_nodes() for key in graph.forwards_plan(leaf)}
    assert SQUASH in plan
    assert plan & _originals(loader) == set()

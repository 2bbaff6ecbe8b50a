"""One direction (issue 22): view -> form -> service -> presenter -> template.

Forms, presenters and Discord posts ask the read-only policy (tables/policy/) who may
do what, never a module that writes; Discord words come from the event, not from page
presenters; no module-level import cycle inside tables/. Read from the modules' own
imports, so a new import that climbs back up a layer fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tables

APP = Path(tables.__file__).parent

# Service modules that only read (no write, no event): a form may use them. None is
# needed: the sheet read a form makes is a model query (models/sheets.py).
READ_ONLY_SERVICES: set[str] = set()
# The modules that change state, and the bases every writer shares.
WRITERS = {"tables.services.core", "tables.services.characters"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in APP.rglob("*.py") if "migrations" not in p.parts}


def imports(path: Path, *, top_level_only: bool = False) -> set[str]:
    """The tables modules a file imports (`from a import b`: a.b when that is a module,
    else a); `top_level_only`: those imported when the module itself is."""
    found = set()
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(_module_of(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            # `from tables import events` imports tables.events; `from tables.models
            # import Campaign`, tables.models.
            found.update(_module_of(f"{node.module}.{alias.name}") for alias in node.names)
    return found - {""}


def _module_of(name: str) -> str:
    """The longest prefix of `name` that is a tables module ("" if none)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def named(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def files(folder: str) -> list[Path]:
    return sorted((APP / folder).glob("*.py"))


@pytest.mark.parametrize("path", files("forms"), ids=named)
def test_forms_import_no_service_that_writes(path):
    services = {m for m in imports(path) if m.startswith("tables.services")}
    assert services <= READ_ONLY_SERVICES


@pytest.mark.parametrize("path", files("forms") + files("presenters"), ids=named)
def test_forms_and_presenters_import_no_writer_base(path):
    """Refusals come from tables/errors.py, who-may-do-what from tables/policy/."""
    assert not imports(path) & WRITERS


@pytest.mark.parametrize("path", files("presenters"), ids=named)
def test_presenters_write_no_htmx_attributes(path):
    """htmx attributes live in the templates, beside the markup they steer."""
    assert "hx-" not in path.read_text()


@pytest.mark.parametrize("path", files("presenters"), ids=named)
def test_presenters_build_no_form(path):
    """A presenter draws the forms it is given, or those tables/forms/ builds."""
    built = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            callee = node.func.value if isinstance(node.func, ast.Attribute) else node.func
            if isinstance(callee, ast.Name) and callee.id.endswith("Form"):
                built.append(f"{callee.id} (line {node.lineno})")
    assert built == []


def test_discord_posts_take_no_words_from_page_presenters():
    assert not {m for m in imports(APP / "discord" / "embeds.py") if ".presenters" in m}


@pytest.mark.parametrize("path", files("policy"), ids=named)
def test_the_policy_reads_models_only(path):
    """Models and the event registry, and the refusal it may raise (tables/errors.py,
    which imports no writer): a policy read that refuses says why in a ServiceError. And
    the stored sentences (tables/words/said.py: words only) of what it reads."""
    allowed = (
        "tables.models",
        "tables.events",
        "tables.policy",
        "tables.errors",
        "tables.words.said",
    )
    assert all(m.startswith(allowed) for m in imports(path))


def test_no_import_cycle_inside_tables():
    graph = {m: imports(p, top_level_only=True) - {m} for m, p in MODULES.items()}
    cycles, done = [], set()

    def visit(module, path):
        if module in path:
            cycles.append(path[path.index(module) :] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert cycles == []

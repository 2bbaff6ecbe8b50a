"""The Momenta side keeps its layers (issue 9): forms know models, rules and access
(tables/policy/), never the services; services never take or import forms; template
tags import presenters, never views. Read from the modules' own imports."""

import ast
from pathlib import Path

import pytest

import tables

APP = Path(tables.__file__).parent


def imports(relative: str) -> set[str]:
    """Every module the file imports, `from a import b` counted as a and a.b."""
    found = set()
    for node in ast.walk(ast.parse((APP / relative).read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_momenta_forms_import_no_service():
    """Who may do what they ask of tables/policy/access.py, which writes nothing."""
    assert {m for m in imports("forms/momenta.py") if m.startswith("tables.services")} == set()


MOMENTA_SERVICES = sorted(str(p.relative_to(APP)) for p in (APP / "services/momenta").glob("*.py"))


@pytest.mark.parametrize(
    "module", [*MOMENTA_SERVICES, "services/roll_templates.py", "templatetags/momenta.py"]
)
def test_momenta_services_import_no_forms(module):
    assert not {m for m in imports(module) if m.startswith("tables.forms")}


def test_momenta_template_tags_import_presenters_not_views():
    found = imports("templatetags/momenta.py")
    assert not {m for m in found if m.startswith("tables.views")}
    assert any(m.startswith("tables.presenters") for m in found)


def test_the_momenta_service_modules_share_only_public_names():
    """services/momenta/ is split by noun (issue 22): what one module takes from
    another is public, so a private helper changes with its own module only."""
    private = []
    for module in MOMENTA_SERVICES:
        for node in ast.walk(ast.parse((APP / module).read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tables."):
                private += [f"{module}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert private == []

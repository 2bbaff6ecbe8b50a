"""Issue 22's limits on the code's shape, kept: someone new can read any function in
tables/ or rules/ on one screen, and no services module grows back into a 1,300-line
file (issue 38: 50 lines a function, in rules/ too)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables"
RULES = ROOT / "rules"
FUNCTION_LINES = 50
SERVICE_MODULE_LINES = 450


def _functions_over(package: Path, limit: int) -> list[str]:
    """Each function (decorators left out, docstring counted) longer than `limit` lines."""
    long = []
    for path in package.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    long.append(f"{path.relative_to(ROOT)}:{node.name} ({lines})")
    return long


def test_no_function_in_tables_is_over_50_lines():
    assert _functions_over(TABLES, FUNCTION_LINES) == []


def test_no_function_in_rules_is_over_50_lines():
    assert _functions_over(RULES, FUNCTION_LINES) == []


def test_no_services_module_is_over_450_lines():
    big = [
        f"{path.relative_to(TABLES)} ({lines})"
        for path in (TABLES / "services").rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > SERVICE_MODULE_LINES
    ]
    assert big == []


# Issue 38, layers one way: read from the code's own imports (every `import`, at the
# top or inside a function), so a function-level import cannot hide a wrong direction.


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in (TABLES, RULES)
        for path in package.rglob("*.py")
        if "migrations" not in path.parts
    }


MODULES = _modules()


def _imported(name: str, path: Path) -> set[str]:
    """Every module of tables/ or rules/ that `name`'s file imports, by its own name:
    `from a import b` counts a.b when b is a module, else a."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in MODULES else base)
    return {module for module in found if module in MODULES}


IMPORTS = {name: _imported(name, path) for name, path in MODULES.items()}


def _importers_of(prefix: str, importers: str) -> list[str]:
    """Each `importers` module that imports anything under `prefix`."""
    return sorted(
        f"{name} -> {module}"
        for name, imported in IMPORTS.items()
        if name == importers or name.startswith(importers + ".")
        for module in imported
        if module == prefix or module.startswith(prefix + ".")
    )


def test_no_presenter_imports_a_service():
    assert _importers_of("tables.services", "tables.presenters") == []


def test_no_template_tag_imports_a_service():
    assert _importers_of("tables.services", "tables.templatetags") == []


def test_policy_imports_no_service():
    """What presenters read moved to tables/policy/ (issue 38): it must not lean on a
    writer in turn, or the presenters would reach the services through it."""
    assert _importers_of("tables.services", "tables.policy") == []


def test_no_form_imports_a_presenter():
    assert _importers_of("tables.presenters", "tables.forms") == []


def test_no_view_uses_the_live_renderer():
    assert _importers_of("tables.live.render", "tables.views") == []


def test_no_module_only_re_exports_another():
    """A shim (nothing but imports, all re-exported) hides where a name lives."""
    shims = []
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            continue
        body = ast.parse(path.read_text()).body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        if body and all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in body):
            shims.append(name)
    assert shims == []


def _path_back(start: str) -> list[str] | None:
    """The shortest chain of imports from `start` back to itself, if there is one."""
    came_from, queue = {}, [start]
    while queue:
        name = queue.pop(0)
        for child in sorted(IMPORTS[name]):
            if child in came_from:
                continue
            came_from[child] = name
            if child == start:
                path = [start]
                while (path[-1] != start) or len(path) == 1:
                    path.append(came_from[path[-1]])
                return path[::-1]
            queue.append(child)
    return None


def _cycles() -> list[str]:
    """Each import cycle among tables/ and rules/ modules, once, as the path round it."""
    cycles, seen = [], set()
    for name in sorted(IMPORTS):
        path = _path_back(name)
        if path and frozenset(path) not in seen:
            seen.add(frozenset(path))
            cycles.append(" -> ".join(path))
    return cycles


def test_no_module_imports_one_that_imports_it_back():
    assert _cycles() == []

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

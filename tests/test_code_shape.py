"""Issue 22's limits on the code's shape, kept: someone new can read any function in
tables/ on one screen, and no services module grows back into a 1,300-line file."""

import ast
from pathlib import Path

TABLES = Path(__file__).resolve().parents[1] / "tables"
FUNCTION_LINES = 60
SERVICE_MODULE_LINES = 450


def test_no_function_in_tables_is_over_60_lines():
    long = []
    for path in TABLES.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long.append(f"{path.relative_to(TABLES)}:{node.name} ({lines})")
    assert long == []


def test_no_services_module_is_over_450_lines():
    big = [
        f"{path.relative_to(TABLES)} ({lines})"
        for path in (TABLES / "services").rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > SERVICE_MODULE_LINES
    ]
    assert big == []

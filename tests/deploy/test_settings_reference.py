"""docs/settings.md lists exactly the environment variables settings.py reads (issue 27)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "settings.md"
# settings.py, and what it calls that reads the environment itself.
SOURCES = [
    ROOT / "momenta_site" / "settings.py",
    ROOT / "momenta_site" / "secret_key.py",
    ROOT / "momenta_site" / "release.py",
]
# django-environ's typed reads (settings.py's `env.str(…)`…), and os.getenv.
HELPERS = {"env.str", "env.bool", "env.int", "env.float", "env.list", "os.getenv"}
NOT_SETTINGS = {"PYTEST_VERSION"}  # set by pytest for its session (secret_key.py)
# Added on another branch of issue 27 and listed already; drop once settings.py reads them.


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _name_of(node: ast.AST, where: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise AssertionError(f"{where}: a variable read by a computed name cannot be documented")


def variables_read(path: Path) -> set[str]:
    """Names in env.str/bool/int/float/list(...), os.getenv(...), os.environ.get(...),
    os.environ[...] and `... in os.environ` with a constant first argument."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = getattr(func, "attr", None)
            owner = getattr(getattr(func, "value", None), "id", None)
            environ_get = name == "get" and _is_environ(getattr(func, "value", None))
            if f"{owner}.{name}" in HELPERS or environ_get:
                if isinstance(node.args[0], ast.Name) and node.args[0].id == "name":
                    continue  # the helpers' own bodies: os.environ.get(name, …)
                found.add(_name_of(node.args[0], where))
        elif isinstance(node, ast.Subscript) and _is_environ(node.value):
            found.add(_name_of(node.slice, where))
        elif isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):
            found.add(_name_of(node.left, where))
    return found


def documented() -> set[str]:
    """The variables in the first table of docs/settings.md ("Read by settings.py")."""
    section = DOC.read_text().split("## Read by settings.py", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, flags=re.MULTILINE))


def test_every_variable_settings_reads_is_documented_and_nothing_more():
    read = set().union(*(variables_read(path) for path in SOURCES)) - NOT_SETTINGS
    listed = documented()
    assert read - listed == set(), "read by settings.py, missing from docs/settings.md"
    assert listed - read == set(), "in docs/settings.md, no longer read"


def test_the_walk_finds_each_way_of_reading_the_environment(tmp_path):
    """The walk itself, on a module that reads one variable each way."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "A = env.str('A', '')\n"
        "B = env.bool('B', False)\n"
        "C = env.int('C', 1)\n"
        "D = os.environ.get('D')\n"
        "E = os.environ['E']\n"
        "F = 'F' in os.environ\n"
        "G = os.getenv('G')\n"
        "H = env.list('H', default=[])\n"
    )
    assert variables_read(sample) == set("ABCDEFGH")


def test_the_example_env_file_sets_only_documented_variables():
    from momenta_site.env_file import read

    example = read(ROOT / "deploy" / "momenta.env.example")
    other = {"WEB_CONCURRENCY"}  # manage.py serve's, in the doc's second table
    assert set(example) - documented() - other == set()

"""What bench/roll_profile.py and bench/gm_push_render.py share: Django on a temporary,
migrated SQLite file with fixed dice, and rounds alternated between two trees.

Imported as a sibling module (`import temp_site`): a child round of an older tree runs
its own copy of the bench, or this directory's, and finds this file either way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def start_django(prefix: str) -> None:
    """Django with DEBUG off (the cached template loader, no query log) on a new SQLite file."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        DEBUG="0",
        SECRET_KEY=prefix + "x" * 50,
        SQLITE_PATH=str(Path(tmp) / "db.sqlite3"),
        ALLOWED_HOSTS="testserver",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fix_dice() -> None:
    """The same faces in every tree and run."""
    import rules.d20
    from rules.dice import FixedDice
    from tables.services import momenta

    # Where roll_momenta finds it: momenta/rolls.py, or an older tree's momenta.py.
    getattr(momenta, "rolls", momenta).system_random = lambda: FixedDice(
        [5, 5, 2, 3, 1, 4, 6] * 100
    )
    rules.d20._rng = lambda rng: FixedDice([2, 5, 3, 4, 6, 7] * 100) if rng is None else rng


def child(script: Path, tree: Path, tree_env: str, args: list[str]) -> dict:
    """One round in a fresh process of `tree`: its copy of `script` (else this one there)."""
    theirs = tree / "bench" / script.name
    path = theirs if theirs.exists() else script
    env = {**os.environ, "PYTHONPATH": str(tree), tree_env: str(tree)}
    done = subprocess.run(
        [sys.executable, str(path), *args], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"{tree}: the round failed\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def alternate(trees: dict[str, Path], rounds: int, one_round) -> dict[str, list[dict]]:
    """`rounds` rounds of each tree, alternating, so a noisy machine slows both alike."""
    results = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            results[name].append(one_round(tree))
    return results

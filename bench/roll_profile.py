"""CPU and SQL per roll command (issue 10, "A cheap command"): figures only.

Drives the composer's real roll over HTTP with Django's test client (htmx headers,
session, CSRF off as in the test client) against a temporary SQLite file, DEBUG off
(the cached template loader, no query log), and prints for a Momenta roll and a 2d20
test: wall and CPU ms per roll (median of rounds of `--rolls` rolls) and the SQL
statements of one roll; and, as the floor, a table-talk message (the cheapest command
that appends an event). Dice are fixed, so every run rolls the same.

    .venv/bin/python bench/roll_profile.py                      # this tree
    .venv/bin/python bench/roll_profile.py --profile            # + cProfile's top functions
    .venv/bin/python bench/roll_profile.py --compare /tmp/old   # + another tree, interleaved

`--compare DIR` runs the same measure in DIR (e.g. `git archive <commit> | tar -x -C
DIR`), alternating rounds between the two trees so a noisy, shared machine slows both
alike; each round is a fresh process of its own tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import temp_site  # bench/temp_site.py, a sibling: see its docstring

HERE = Path(__file__).resolve().parent.parent


def measure(rolls: int, profile: bool) -> dict:
    """One round in this process: seed, warm up, time `rolls` rolls of each kind."""
    temp_site.start_django("roll-profile-")

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    temp_site.fix_dice()
    commands = temp_site.seeded_commands()

    out = {}
    for kind, (send, _view) in commands.items():
        for _ in range(5):  # warm: imports, template cache, connection
            assert send().status_code == 200
        with CaptureQueriesContext(connection) as queries:
            answer = send()
        assert answer.status_code == 200 and 'role="alert"' not in answer.content.decode()
        # The roll's own statements (not the refresh_from_db the driver does).
        statements = [q["sql"] for q in queries.captured_queries]
        wall, cpu = time.perf_counter(), time.process_time()
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        for _ in range(rolls):
            send()
        if profiler is not None:
            profiler.disable()
        out[kind] = {
            "wall_ms": (time.perf_counter() - wall) * 1000 / rolls,
            "cpu_ms": (time.process_time() - cpu) * 1000 / rolls,
            "statements": len(statements) - (1 if kind == "momenta" else 0),
            "answer_bytes": len(answer.content),
        }
        if profiler is not None:
            import io
            import pstats

            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
            out[kind]["profile"] = text.getvalue()
    return out


def child(tree: Path, rolls: int, profile: bool) -> dict:
    """One round in a fresh process of `tree`."""
    args = ["--round", str(rolls), *(["--profile"] if profile else [])]
    return temp_site.child(Path(__file__).resolve(), tree, "ROLL_PROFILE_TREE", args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rolls", type=int, default=50, help="rolls per round and kind")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 40")
    parser.add_argument("--compare", type=Path, help="another tree, measured alternately")
    parser.add_argument("--round", type=int, help=argparse.SUPPRESS)  # a child's one round
    args = parser.parse_args()
    if args.round is not None:
        tree = Path(os.environ.get("ROLL_PROFILE_TREE", HERE))
        sys.path.insert(0, str(tree))
        os.chdir(tree)
        print(json.dumps(measure(args.round, args.profile)))
        return
    trees = {"this tree": HERE}
    if args.compare:
        trees = {"compared": args.compare.resolve(), **trees}
    results = temp_site.alternate(
        trees, args.rounds, lambda tree: child(tree, args.rolls, args.profile)
    )
    for name, rounds in results.items():
        print(f"{name} ({trees[name]}): {args.rounds} rounds × {args.rolls} rolls")
        for kind in (k for k in ("momenta", "d20", "talk") if all(k in r for r in rounds)):
            cpu = statistics.median(r[kind]["cpu_ms"] for r in rounds)
            wall = statistics.median(r[kind]["wall_ms"] for r in rounds)
            last = rounds[-1][kind]
            print(
                f"  {kind:8} cpu {cpu:6.1f} ms/roll  wall {wall:6.1f} ms/roll  "
                f"{last['statements']} SQL statements  answer {last['answer_bytes']} bytes"
            )
            if args.profile:
                print(last["profile"])


if __name__ == "__main__":
    main()

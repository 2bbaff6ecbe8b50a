"""CPU and SQL per roll command (issue 10, "A cheap command"): figures only.

Drives the composer's real roll over HTTP with Django's test client (htmx headers,
session, CSRF off as in the test client) against a temporary SQLite file, DEBUG off
(the cached template loader, no query log), and prints for a Momenta roll and a 2d20
test: wall and CPU ms per roll (median of rounds of `--rolls` rolls) and the SQL
statements of one roll; and, as the floor, a table-talk message (the cheapest command
that appends an event). Dice are fixed, so every run rolls the same. `--asgi` sends the
same posts through momenta_site.asgi.application on one event loop instead, as uvicorn
calls it (Django's ASGI handler, its threads and connections; CSRF by cookie and
header; statements not counted).

    .venv/bin/python bench/roll_profile.py                      # this tree
    .venv/bin/python bench/roll_profile.py --profile            # + cProfile's top functions
    .venv/bin/python bench/roll_profile.py --asgi               # through the ASGI app
    .venv/bin/python bench/roll_profile.py --compare /tmp/old   # + another tree, interleaved

`--compare DIR` runs the same measure in DIR (e.g. `git archive <commit> | tar -x -C
DIR`), alternating rounds between the trees so a noisy, shared machine slows all
alike; each round is a fresh process of its own tree. It may be given several times
(one tree per piece put back, say); each tree's rounds are printed too.
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


class Answer:
    def __init__(self, status_code: int, content: bytes):
        self.status_code, self.content = status_code, content


def asgi_sender(client):
    """post(url, data) through the ASGI app, as a server calls it, with `client`'s session."""
    import asyncio
    from urllib.parse import urlencode

    from channels.testing import HttpCommunicator
    from django.conf import settings

    from momenta_site.asgi import application

    token = "b" * 32  # a CSRF secret: Django compares the header with the cookie
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={token}"
    headers = [
        (b"host", b"testserver"),
        (b"cookie", cookie.encode()),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"x-csrftoken", token.encode()),
        (b"hx-request", b"true"),
        (b"hx-target", b"composer"),
    ]
    loop = asyncio.new_event_loop()

    async def send(url, body):
        communicator = HttpCommunicator(application, "POST", url, body=body, headers=headers)
        answer = await communicator.get_response(timeout=60)
        await communicator.wait(timeout=60)  # until Django has closed the response
        return Answer(answer["status"], answer["body"])

    def post(url, data, **_hx):
        return loop.run_until_complete(send(url, urlencode(data).encode()))

    return post


def measure(rolls: int, profile: bool, asgi: bool = False) -> dict:
    """One round in this process: seed, warm up, time `rolls` rolls of each kind."""
    temp_site.start_django("roll-profile-")

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    temp_site.fix_dice()
    commands = temp_site.seeded_commands(asgi_sender if asgi else None)

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
            # Under --asgi the roll's statements run on other threads: not counted.
            "statements": None if asgi else len(statements) - (1 if kind == "momenta" else 0),
            "answer_bytes": len(answer.content),
        }
        if profiler is not None:
            import io
            import pstats

            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
            out[kind]["profile"] = text.getvalue()
    return out


def child(tree: Path, rolls: int, profile: bool, asgi: bool) -> dict:
    """One round in a fresh process of `tree`."""
    args = ["--round", str(rolls), *(["--profile"] if profile else [])]
    args += ["--asgi"] if asgi else []
    return temp_site.child(Path(__file__).resolve(), tree, "ROLL_PROFILE_TREE", args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rolls", type=int, default=50, help="rolls per round and kind")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 40")
    parser.add_argument(
        "--compare", type=Path, action="append", default=[], help="another tree (repeatable)"
    )
    parser.add_argument("--asgi", action="store_true", help="through the ASGI app")
    parser.add_argument("--round", type=int, help=argparse.SUPPRESS)  # a child's one round
    args = parser.parse_args()
    if args.round is not None:
        tree = Path(os.environ.get("ROLL_PROFILE_TREE", HERE))
        sys.path.insert(0, str(tree))
        os.chdir(tree)
        print(json.dumps(measure(args.round, args.profile, args.asgi)))
        return
    trees = {f"compared {i + 1}": d.resolve() for i, d in enumerate(args.compare)}
    trees["this tree"] = HERE
    results = temp_site.alternate(
        trees, args.rounds, lambda tree: child(tree, args.rolls, args.profile, args.asgi)
    )
    for name, rounds in results.items():
        print(f"{name} ({trees[name]}): {args.rounds} rounds × {args.rolls} rolls")
        for kind in (k for k in ("momenta", "d20", "talk") if all(k in r for r in rounds)):
            cpu = statistics.median(r[kind]["cpu_ms"] for r in rounds)
            wall = statistics.median(r[kind]["wall_ms"] for r in rounds)
            last = rounds[-1][kind]
            print(
                f"  {kind:8} cpu {cpu:6.1f} ms/roll  wall {wall:6.1f} ms/roll  "
                f"{last['statements'] or '?'} SQL statements  answer {last['answer_bytes']} bytes"
            )
            each = ", ".join(f"{r[kind]['cpu_ms']:.1f}" for r in rounds)
            print(f"  {'':8} cpu by round: {each}")
            if args.profile:
                print(last["profile"])


if __name__ == "__main__":
    main()

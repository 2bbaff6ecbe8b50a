"""Other people's pages during a wrong-password storm (issue 26): latency idle vs storm.

    .venv/bin/python bench/login_storm.py                      # 40 guesses, 8 at once
    .venv/bin/python bench/login_storm.py --guesses 80 --guessers 16
    .venv/bin/python bench/login_storm.py --compare /tmp/old   # the same, then another tree

What it does, in one run:

1. Migrates a temporary SQLite file and seeds one Momenta table (a GM and players,
   each with a session) and one account with a real password, hashed with the
   production hasher (PBKDF2, Django's default iterations).
2. Starts the app as production runs it (uvicorn, `momenta_site.asgi:application`,
   DEBUG off, the one-hop HTTP handler) in one process on loopback. The lockouts are
   raised out of the way (LOGIN_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT), so every
   guess really is hashed: the worst case for the other pages.
3. The members open their campaign page every --interval seconds, each in its own
   loop, for --idle seconds (idle); then --guessers clients send --guesses wrong
   passwords to /login/ (each with its CSRF cookie and token, made-up usernames
   rotating), while the members keep opening pages (storm); then idle again.
4. Prints the pages' latency (median, p90, max) idle and during the storm, and the
   storm's median and p90 over idle's (the goal: within 2x). With --compare, the same
   for another tree's code on the same database (e.g. `git archive <rev> | tar -x -C
   /tmp/old`): its server runs from that folder.

Figures only, against the idle baseline of the same run; never a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]  # this tree's Django app, not an installed one
from seed import make_table, setup_django  # noqa: E402 (bench/seed.py, a sibling)
from servers import HOST, Side  # noqa: E402

APP = "momenta_site.asgi:application"
PASSWORD = "storm-bench-correct-pass"
perf = time.perf_counter


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=int, default=40, help="wrong passwords in the storm")
    parser.add_argument("--guessers", type=int, default=8, help="clients guessing at once")
    parser.add_argument("--members", type=int, default=4, help="members opening pages")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between pages")
    parser.add_argument("--idle", type=float, default=6.0, help="seconds of each idle phase")
    parser.add_argument("--compare", type=Path, help="another tree, measured after this one")
    return parser.parse_args(argv)


def seed(members: int) -> tuple[int, list[str]]:
    """One table and its members' session keys; an account the storm guesses at."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.db import connections

    User = get_user_model()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    User.objects.create_user(username="victim", password=PASSWORD)  # the real hasher
    gm = User.objects.create_user(username="gm", password=None)
    players = [User.objects.create_user(username=f"p{i}", password=None) for i in range(members)]
    campaign_id, _ = make_table("Storm table", gm, players)
    keys = []
    for user in [gm, *players][:members]:
        session = store()  # what django.contrib.auth.login stores
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    connections.close_all()
    return campaign_id, keys


async def member(base, cookie, path, interval, stop: asyncio.Event, out: list[float]):
    async with aiohttp.ClientSession(cookies=cookie) as http:
        while not stop.is_set():
            start = perf()
            async with http.get(base + path, allow_redirects=False) as answer:
                await answer.read()
                assert answer.status == 200, answer.status
            out.append(perf() - start)
            await asyncio.sleep(interval)


async def guesser(base, turns: asyncio.Queue, statuses: list[int]):
    # unsafe: keep cookies (the CSRF one) from an IP address host.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        while True:
            try:
                n = turns.get_nowait()
            except asyncio.QueueEmpty:
                return
            async with http.get(base + "/login/") as page:
                token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', await page.text())
            # Made-up usernames, rotating, and now and then the real one.
            name = "victim" if n % 5 == 0 else f"made-up-{n}"
            form = {"csrfmiddlewaretoken": token.group(1), "username": name, "password": "no"}
            async with http.post(base + "/login/", data=form, allow_redirects=False) as answer:
                await answer.read()
                statuses.append(answer.status)


async def measure(base, campaign_id, keys, args, cookie_name) -> dict:
    path = f"/campaigns/{campaign_id}/"
    phases: dict[str, list[float]] = {}

    async def phase(name, storm=None):
        stop, out = asyncio.Event(), []
        loops = [
            asyncio.create_task(member(base, {cookie_name: k}, path, args.interval, stop, out))
            for k in keys
        ]
        started = perf()
        if storm is None:
            await asyncio.sleep(args.idle)
        else:
            await storm()
        elapsed = perf() - started
        stop.set()
        await asyncio.gather(*loops)
        phases[name] = out
        return elapsed

    statuses: list[int] = []

    async def storm():
        turns: asyncio.Queue = asyncio.Queue()
        for n in range(args.guesses):
            turns.put_nowait(n)
        await asyncio.gather(*(guesser(base, turns, statuses) for _ in range(args.guessers)))

    await phase("warm-up")
    await phase("idle")
    storm_s = await phase("storm", storm)
    await phase("idle after")
    return {"phases": phases, "storm_s": storm_s, "statuses": statuses}


def figures(ms: list[float]) -> tuple[float, float, float]:
    ms = sorted(x * 1000 for x in ms)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return statistics.median(ms), p90, ms[-1]


def report(label: str, result: dict, args) -> None:
    phases = result["phases"]
    idle = phases["idle"] + phases["idle after"]
    print(f"\n{label}")
    for name, samples in (("idle", idle), ("storm", phases["storm"])):
        median, p90, worst = figures(samples)
        print(
            f"  {name:5}  pages {len(samples):4}  median {median:7.1f} ms"
            f"  p90 {p90:7.1f} ms  max {worst:7.1f} ms"
        )
    (m0, p0, _), (m1, p1, _) = figures(idle), figures(phases["storm"])
    codes = {c: result["statuses"].count(c) for c in sorted(set(result["statuses"]))}
    print(
        f"  storm: {len(result['statuses'])} guesses by {args.guessers} clients in"
        f" {result['storm_s']:.1f} s ({codes}); pages during it vs idle:"
        f" median {m1 / m0:.2f}x, p90 {p1 / p0:.2f}x (goal: within 2x)"
    )


def run_side(tree: Path, env: dict, tmp: Path, campaign_id, keys, args, cookie_name) -> dict:
    side = Side("app", APP, "uvicorn", 1, env | {"PYTHONPATH": str(tree)}, tree, tmp)
    try:
        side.wait_ready()
        return asyncio.run(measure(side.url(0), campaign_id, keys, args, cookie_name))
    finally:
        side.stop()


def main(argv) -> None:
    args = parse(argv)
    os.environ.pop("REDIS_URL", None)  # one process, the embedded stack
    tmp = setup_django()
    from django.conf import settings

    campaign_id, keys = seed(args.members)
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "momenta_site.settings",
        "LOG_LEVEL": "ERROR",
        # Out of the way: every guess is hashed (the worst case for the other pages).
        "LOGIN_FAILURE_LIMIT": "100000",
        "LOGIN_ADDRESS_FAILURE_LIMIT": "0",
    }
    print(
        f"Login storm: {args.guesses} wrong passwords, {args.guessers} clients at once;"
        f" {args.members} members open a page every {args.interval} s; one uvicorn"
        f" process on {HOST}, SQLite in {tmp} (removed after); {os.cpu_count()} CPUs,"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    trees = [("this tree", ROOT)] + (
        [("--compare " + str(args.compare), args.compare)] * bool(args.compare)
    )
    try:
        for label, tree in trees:
            cookie = settings.SESSION_COOKIE_NAME
            result = run_side(tree, env, tmp, campaign_id, keys, args, cookie)
            report(f"{label}: {tree}", result, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])

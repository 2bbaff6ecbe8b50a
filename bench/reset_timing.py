"""A password reset's answer time with an account and without one (issue 34).

    .venv/bin/python bench/reset_timing.py                     # 40 resets of each kind
    .venv/bin/python bench/reset_timing.py --resets 100
    .venv/bin/python bench/reset_timing.py --compare /tmp/old  # then another tree

An address with an account gets a mail, one without gets none; the page is the same.
If the mail were sent inside the request, its answer would wait on the mail server and
tell anyone timing the page which addresses have accounts (the audit: 285 ms against
18 ms with a relay that takes 0.25 s).

What it does, in one run:

1. Migrates a temporary SQLite file and makes one account with an address per reset
   to time (a reset mails an account once per MAIL_INTERVAL_SECONDS at most, so each
   reset names a fresh one); the addresses without an account are fresh too.
2. Starts the app as production runs it (uvicorn, `momenta_site.asgi:application`,
   DEBUG off, the one-hop HTTP handler, temp SQLite) in one process on loopback, with
   bench/reset_settings.py: the site's settings, the mail delivered by
   bench/slow_mail.py, which takes 0.25 s per message and notes each one it sent.
3. Asks for resets one at a time, alternating an address with an account and one
   without (so both see the same machine), after --warm-up of each: each time the
   form's page (its CSRF cookie and token, not timed), then the POST, timed from
   sending it to the answer's last byte.
4. Prints each kind's median and p90 (and the median of the form's page that came
   next on the same keep-alive connection: a connection held until the mail is sent
   would show there), their ratio (with over without: the target is
   within 1.5x), whether the answers were the same, and how many mails the slow
   backend delivered (every reset with an account must have sent one). With
   --compare, the same for another tree's code (e.g. `git archive <rev> | tar -x -C
   /tmp/old`) on the same database, its server run from that folder.

Figures only, the baseline (no account) measured in the same run; never a timed test.
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
BENCH = ROOT / "bench"
sys.path[:0] = [str(ROOT), str(BENCH)]  # this tree's Django app, not an installed one
from seed import setup_django  # noqa: E402 (bench/seed.py, a sibling)
from servers import HOST, Side  # noqa: E402
from slow_mail import SECONDS_PER_MESSAGE  # noqa: E402

APP = "momenta_site.asgi:application"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
perf = time.perf_counter


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=40, help="timed resets of each kind")
    parser.add_argument("--warm-up", type=int, default=5, help="untimed resets of each kind")
    parser.add_argument("--compare", type=Path, help="another tree, measured after this one")
    return parser.parse_args(argv)


def seed(accounts: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connections

    User = get_user_model()
    User.objects.bulk_create(
        User(username=f"reset{i}", email=f"reset{i}@example.org") for i in range(accounts)
    )
    connections.close_all()


async def reset(http, base: str, address: str) -> tuple[float, float, tuple]:
    """Seconds for the form's page and for the reset's answer, and that answer."""
    start = perf()
    async with http.get(base + "/password/reset/") as page:
        token = TOKEN.search(await page.text()).group(1)
    form = {"csrfmiddlewaretoken": token, "email": address}
    sent = perf()
    async with http.post(base + "/password/reset/", data=form, allow_redirects=False) as answer:
        body = await answer.read()
        done = perf()
    return sent - start, done - sent, (answer.status, answer.headers.get("Location"), body)


async def measure(base: str, args, first: int) -> dict:
    """`first`: the first account number this side may use (each is mailed once)."""
    times: dict[str, list[float]] = {"account": [], "none": []}
    # The form's page that follows each kind of reset on the same connection: were
    # the connection held until the mail is sent, it would wait for it.
    after: dict[str, list[float]] = {"account": [], "none": []}
    answers: set[tuple] = set()
    previous = None
    # unsafe: keep the CSRF cookie from an IP address host.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        for n in range(args.warm_up + args.resets):
            number = first + n
            for kind, address in (
                ("account", f"reset{number}@example.org"),
                ("none", f"nobody{number}@example.org"),
            ):
                page, elapsed, answer = await reset(http, base, address)
                answers.add(answer)
                if n >= args.warm_up:
                    times[kind].append(elapsed)
                    after[previous].append(page)
                previous = kind
    return {"times": times, "after": after, "answers": answers}


def delivered(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def wait_for_mail(log: Path, expected: int) -> int:
    """The mails still on their way after the last answer (2 sender threads)."""
    deadline = time.monotonic() + expected * SECONDS_PER_MESSAGE + 10
    while delivered(log) < expected and time.monotonic() < deadline:
        time.sleep(0.1)
    return delivered(log)


def figures(seconds: list[float]) -> tuple[float, float]:
    ms = sorted(x * 1000 for x in seconds)
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.9))]


def report(label: str, result: dict, mails: int, expected: int) -> None:
    print(f"\n{label}")
    medians = {}
    for kind, name in (("account", "with an account"), ("none", "without one")):
        median, p90 = figures(result["times"][kind])
        medians[kind] = median
        samples = len(result["times"][kind])
        page = figures(result["after"][kind])[0]
        print(
            f"  {name:16} {samples:4} resets  median {median:7.1f} ms  p90 {p90:7.1f} ms"
            f"  (the next page on the connection: median {page:5.1f} ms)"
        )
    same = "the same" if len(result["answers"]) == 1 else f"{len(result['answers'])} different"
    print(f"  answers: {same} (status, Location, body); mails delivered {mails} of {expected}")
    ratio = medians["account"] / medians["none"]
    print(f"  ratio with/without an account, medians: {ratio:.2f}x (target: within 1.5x)")


def run_side(tree: Path, env: dict, tmp: Path, args, first: int) -> tuple[dict, int, int]:
    log = tmp / f"mail-{first}.log"
    env = env | {"PYTHONPATH": f"{tree}{os.pathsep}{BENCH}", "SLOW_MAIL_LOG": str(log)}
    side = Side("app", APP, "uvicorn", 1, env, tree, tmp)
    try:
        side.wait_ready()
        result = asyncio.run(measure(side.url(0), args, first))
        expected = args.warm_up + args.resets
        return result, wait_for_mail(log, expected), expected
    finally:
        side.stop()


def main(argv) -> None:
    args = parse(argv)
    os.environ.pop("REDIS_URL", None)  # one process, the embedded stack
    tmp = setup_django()
    trees = [("this tree", ROOT)] + (
        [("--compare " + str(args.compare), args.compare)] * bool(args.compare)
    )
    per_side = args.warm_up + args.resets
    seed(per_side * len(trees))
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    env |= {"DJANGO_SETTINGS_MODULE": "reset_settings", "LOG_LEVEL": "ERROR"}
    print(
        f"Password reset timing: {args.resets} resets with an account and {args.resets}"
        f" without, alternating, after {args.warm_up} of each; mail {SECONDS_PER_MESSAGE} s"
        f" per message; one uvicorn process on {HOST}, SQLite in {tmp} (removed after);"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    try:
        for index, (label, tree) in enumerate(trees):
            result, mails, expected = run_side(tree, env, tmp, args, index * per_side)
            report(f"{label}: {tree}", result, mails, expected)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])

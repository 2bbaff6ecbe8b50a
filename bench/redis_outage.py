"""What a Redis outage costs a page and a command (issue 26): figures, no assertions.

Run from the project root: `.venv/bin/python bench/redis_outage.py [--requests N]`.
One uvicorn process on a fresh SQLite file and a throwaway redis-server; a
logged-in player GETs the table page and posts Momenta rolls (as htmx does)
in three phases, each against the first, measured in the same run:

- up: Redis answers;
- stopped: redis-server is stopped (connections refused at once);
- stalled: a listener on Redis's port accepts and never answers (a hung or
  unreachable Redis: the client's timeouts decide, settings.py).

Printed per phase, for pages and rolls apart: median, 95th percentile and slowest
request, and the share of answers that were not 200 (should be none).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

from seed import make_table, setup_django  # bench/seed.py, a sibling
from servers import HOST, Process, free_port, server_argv, start_redis, wait_http

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def stalled_listener(port: int) -> socket.socket:
    """Accepts connections on `port` and never answers, like a Redis that hangs."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((HOST, port))
    listener.listen(1000)
    held = []

    def accept():
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return listener


def measure(base: str, cookie: str, campaign: int, hero: int, n: int) -> dict:
    """{"page": figures, "roll": figures}: n/2 table pages and n/2 rolls, alternated."""
    opener = urllib.request.build_opener()
    opener.addheaders = [("Cookie", cookie)]
    times, failed = {"page": [], "roll": []}, {"page": 0, "roll": 0}
    for i in range(n):
        kind = "roll" if i % 2 else "page"
        if kind == "roll":
            body = f"character={hero}&attribute=WITS&kind=action&play=narrative"
            body += "&expected_momentum=0&expected_resolve=0"
            request = urllib.request.Request(
                f"{base}/campaigns/{campaign}/momenta/roll/",
                data=body.encode(),
                headers={"HX-Request": "true", "X-CSRFToken": CSRF, "Referer": base},
            )
        else:
            request = urllib.request.Request(f"{base}/campaigns/{campaign}/table/")
        start = time.perf_counter()
        try:
            with opener.open(request, timeout=30) as answer:
                answer.read()
                failed[kind] += answer.status != 200
        except urllib.error.HTTPError:
            failed[kind] += 1
        times[kind].append(time.perf_counter() - start)
    figures = {}
    for kind, ts in times.items():
        ts.sort()
        figures[kind] = {
            "median_ms": 1000 * statistics.median(ts),
            "p95_ms": 1000 * ts[int(0.95 * (len(ts) - 1))],
            "max_ms": 1000 * ts[-1],
            "failed": failed[kind] / len(ts),
        }
    return figures


CSRF = "b" * 32


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=60, help="per phase (half rolls)")
    args = parser.parse_args()

    tmp = setup_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    User = get_user_model()
    gm = User.objects.create_user("gm", password="x" * 12)
    player = User.objects.create_user("player", password="x" * 12)
    campaign, seats = make_table("Outage", gm, [player])
    client = Client()
    client.force_login(player)  # the session is in the database: the server reads it there
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={CSRF}"

    redis, url = start_redis(tmp)
    port = free_port()
    env = dict(os.environ, REDIS_URL=url, DEBUG="0", ALLOWED_HOSTS=HOST)
    server = Process(
        "app",
        server_argv("uvicorn", "momenta_site.asgi:application", port),
        env,
        ROOT,
        tmp / "app.log",
    )
    listener = None
    try:
        wait_http(server, port)
        base = f"http://{HOST}:{port}"
        hero = seats[0][1]
        measure(base, cookie, campaign, hero, 10)  # warm up
        figures = {"up": measure(base, cookie, campaign, hero, args.requests)}
        redis.stop()
        figures["stopped"] = measure(base, cookie, campaign, hero, args.requests)
        listener = stalled_listener(int(url.rsplit(":", 1)[1].split("/")[0]))
        figures["stalled"] = measure(base, cookie, campaign, hero, args.requests)
    finally:
        server.stop()
        redis.stop()
        if listener is not None:
            listener.close()
    print(f"{args.requests} requests per phase (half table pages, half rolls), one process")
    for kind in ("page", "roll"):
        up = figures["up"][kind]["median_ms"]
        for phase, by_kind in figures.items():
            f = by_kind[kind]
            median, p95, slowest = f["median_ms"], f["p95_ms"], f["max_ms"]
            print(
                f"{kind} {phase:>8}: median {median:7.1f} ms ({median / up:4.1f}× up)"
                f"  p95 {p95:7.1f} ms  max {slowest:7.1f} ms  not 200: {f['failed']:.0%}"
            )


if __name__ == "__main__":
    main()

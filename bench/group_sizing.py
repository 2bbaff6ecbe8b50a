"""Sizing in groups (deploy/README.md, "Sizing in groups"): figures, no assertions.

Run from the project root:

    .venv/bin/python bench/group_sizing.py                 # PostgreSQL + Redis, as deployed
    .venv/bin/python bench/group_sizing.py --sqlite        # the database on SQLite instead
    .venv/bin/python bench/group_sizing.py --groups 4 --rolls 100 --talk 40

One uvicorn worker of the app (DEBUG off) on a throwaway PostgreSQL cluster (Debian's
`initdb`, run as `postgres`, on a free loopback port; `--sqlite`: a temp SQLite file) and
a throwaway redis-server (`REDIS_SERVER`, default /usr/bin/redis-server), as production
runs it (channels_redis, the Redis cache, the psycopg pool of momenta_site/settings.py).
`--groups` groups of a GM and 4 players, each person's table page open (its websocket,
with the page's heartbeat), then one "session" per group, all groups at once: `--rolls`
Momenta rolls (the players in turn) and `--talk` table-talk lines per group, each posted
as the page does and pushed to the group's five sockets. Printed:

- the worker's own TCP connections to PostgreSQL and to Redis (psutil), idle with the
  sockets open and at most while the groups play (sampled every 0.2 s);
- the database's growth over the session, per group and per event: SQLite's used pages
  (after a WAL checkpoint), PostgreSQL's tables and indexes (`pg_total_relation_size`).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from servers import HOST, Side, free_port, start_redis
from side_by_side import seed, talk_command
from sizing import PING_S, Client

ROOT = Path(__file__).resolve().parents[1]
APP = "momenta_site.asgi:application"
SEATS = 5  # a GM and four players
KB = 1024


class Postgres:
    """A throwaway cluster in `tmp`, owned by `postgres`, trusting loopback (as .ci/run)."""

    def __init__(self, tmp: Path):
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent
        self.data, self.port = tmp / "pg", free_port()
        tmp.chmod(0o755)
        self.data.mkdir()
        shutil.chown(self.data, "postgres")
        self._as_postgres("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        options = f"-k {self.data} -p {self.port} -c listen_addresses={HOST} -c fsync=off"
        log = str(self.data / "log")
        self._as_postgres("pg_ctl", "start", "-D", str(self.data), "-l", log, "-o", options, "-w")
        self._as_postgres("createdb", "-h", HOST, "-p", str(self.port), "momenta")
        self.url = f"postgres://postgres@{HOST}:{self.port}/momenta"

    def _as_postgres(self, program: str, *args: str) -> None:
        argv = ["runuser", "-u", "postgres", "--", str(self.bin / program), *args]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)

    def stop(self) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(self.bin / "pg_ctl")]
            + ["stop", "-D", str(self.data), "-m", "fast"],
            stdout=subprocess.DEVNULL,
            check=False,
        )


def setup_django(tmp: Path, database_url: str | None) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        SQLITE_PATH=str(tmp / "db.sqlite3"),
    )
    os.environ.pop("REDIS_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def database_bytes() -> int:
    """What the database holds now: used pages (SQLite), tables and indexes (PostgreSQL)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            sizes = []
            for pragma in ("page_count", "freelist_count", "page_size"):
                cursor.execute(f"PRAGMA {pragma}")
                sizes.append(cursor.fetchone()[0])
            pages, free, size = sizes
            return (pages - free) * size
        cursor.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
        return int(cursor.fetchone()[0])


def event_count() -> int:
    from django.db import connection

    from tables.models import TableEvent

    count = TableEvent.objects.count()
    connection.close()  # the bench holds no connection while the worker is measured
    return count


def connections_to(pid: int, port: int | None) -> int:
    """The worker's established TCP connections to `port` (its children's too)."""
    if port is None:
        return 0
    procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    return sum(
        1
        for proc in procs
        for c in proc.net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
    )


class Sampler:
    """The most connections the worker held to PostgreSQL and Redis while it runs."""

    def __init__(self, pid: int, pg_port: int | None, redis_port: int):
        self.pid, self.pg_port, self.redis_port = pid, pg_port, redis_port
        self.most = (0, 0)

    def now(self) -> tuple[int, int]:
        return connections_to(self.pid, self.pg_port), connections_to(self.pid, self.redis_port)

    async def run(self) -> None:
        while True:
            pg, redis = self.now()
            self.most = (max(self.most[0], pg), max(self.most[1], redis))
            await asyncio.sleep(0.2)


async def play(args, base: str, cookies: tuple[str, str], tables, sampler: Sampler) -> dict:
    client = Client(base, *cookies)
    tasks, sockets = [], []
    try:
        for table in tables:
            for seat in table.seats:
                assert await client.page(table.campaign_id, seat) == 200
                ws = await client.socket(table.campaign_id, seat)
                sockets.append(ws)
                tasks.append(asyncio.create_task(client.drain(ws)))
                offset = len(sockets) * PING_S / (len(tables) * SEATS)
                tasks.append(asyncio.create_task(client.heartbeat(ws, offset)))
        await client.quiet()
        idle = sampler.now()
        before = await asyncio.to_thread(lambda: (database_bytes(), event_count()))
        watch = asyncio.create_task(sampler.run())
        started = time.monotonic()
        failed = sum(await asyncio.gather(*(session(args, client, t) for t in tables)))
        await client.quiet(cap=30)
        seconds = time.monotonic() - started
        watch.cancel()
        after = await asyncio.to_thread(lambda: (database_bytes(), event_count()))
    finally:
        for task in tasks:
            task.cancel()
        await client.close()
    return dict(
        sockets=len(sockets),
        idle=idle,
        busy=sampler.most,
        grown=after[0] - before[0],
        events=after[1] - before[1],
        failed=failed,
        seconds=seconds,
    )


async def session(args, client: Client, table) -> int:
    """One group's session: its players roll in turn, with a talk line every so often."""
    failed = 0
    talk_every = max(args.rolls // max(args.talk, 1), 1)
    talked = 0
    for i in range(args.rolls):
        seat = table.rollers[i % len(table.rollers)]
        failed += await client.roll(table.campaign_id, seat) != 200
        if talked < args.talk and i % talk_every == 0:
            failed += await talk(client, table.campaign_id, seat) != 200
            talked += 1
    return failed


async def talk(client: Client, campaign_id: int, seat) -> int:
    form, path = talk_command(seat)
    url = f"{client.base}/campaigns/{campaign_id}/{path}"
    async with client.http.post(url, data=form, headers=client.headers(seat)) as answer:
        await answer.read()
        return answer.status


def report(args, figures: dict, database: str) -> None:
    groups = args.groups
    per_group = figures["grown"] / groups
    per_event = figures["grown"] / max(figures["events"], 1)
    load = os.getloadavg()[0]
    print(f"one uvicorn worker, {database} + Redis; {os.cpu_count()} CPUs, load {load:.1f}")
    print(
        f"{groups} groups x {SEATS} people: {figures['sockets']} sockets open;"
        f" a session per group: {args.rolls} rolls and {args.talk} talk lines"
        f" ({figures['events']} events, {figures['failed']} failed, {figures['seconds']:.1f} s)"
    )
    idle_pg, idle_redis = figures["idle"]
    busy_pg, busy_redis = figures["busy"]
    if database == "PostgreSQL":
        print(f"worker's PostgreSQL connections: {idle_pg} idle, {busy_pg} at most in play")
    print(f"worker's Redis connections: {idle_redis} idle, {busy_redis} at most in play")
    print(
        f"database growth: {figures['grown'] / KB:.0f} kB in all,"
        f" {per_group / KB:.1f} kB per group-session, {per_event:.0f} bytes per event"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="group_sizing.py", description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=4)
    parser.add_argument("--rolls", type=int, default=100, help="per group's session")
    parser.add_argument("--talk", type=int, default=40, help="talk lines per group's session")
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of PostgreSQL")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="group_sizing_"))
    pg = redis = side = None
    try:
        pg = None if args.sqlite else Postgres(tmp)
        setup_django(tmp, pg.url if pg else None)
        from django.conf import settings
        from django.db import connections

        tables = seed(args.groups, SEATS)
        connections.close_all()
        redis, redis_url = start_redis(tmp)
        env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
        env |= {"PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING", "REDIS_URL": f"{redis_url}/0"}
        side = Side("app", APP, "uvicorn", 1, env, ROOT, tmp)
        side.wait_ready()
        redis_port = int(redis_url.rsplit(":", 1)[1])
        sampler = Sampler(side.procs[0].pid, pg.port if pg else None, redis_port)
        cookies = (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)
        figures = asyncio.run(play(args, side.url(0), cookies, tables, sampler))
        report(args, figures, "SQLite" if args.sqlite else "PostgreSQL")
    finally:
        if side is not None:
            side.stop()
        if redis is not None:
            redis.stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])

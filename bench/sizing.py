"""What one worker process needs (deploy/README.md, "Sizing"): figures, no assertions.

Run from the project root: `.venv/bin/python bench/sizing.py [--tables 125 --sockets 8]
[--redis] [--seconds 20] [--rollers 4]`.

One uvicorn worker of the app (DEBUG off, a temp SQLite file; with --redis,
channels_redis on a throwaway redis-server, as production runs it), and in one run:

1. **at rest**: the worker's RSS once it has served pages and the first rolling
   phase of 3. below (Django, the templates and the queries loaded), no socket open;
2. **per 1,000 sockets**: RSS again once T×S table pages' websockets are open
   and their presence chatter has settled, the difference scaled to 1,000
   sockets; and the CPU those sockets cost while idle (heartbeats every 25 s);
3. **rolls per second**: `--rollers` players of different tables post Momenta
   rolls back to back (each waits for its answer) for `--seconds`, once before
   the sockets open and once with them open, each roll pushed to its table's
   sockets; printed: rolls/s answered 200, and the worker's CPU per roll (with
   sockets: less their idle rate), whose inverse is what a worker with a core
   of its own can do (the bench client and other work share the machine, so
   the rate measured is lower on a busy one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import sys
import time
from pathlib import Path

import aiohttp
from seed import setup_django  # bench/seed.py, a sibling
from servers import Side, start_redis
from side_by_side import roll_command, seed

ROOT = Path(__file__).resolve().parents[1]
APP = "momenta_site.asgi:application"
MB = 1024 * 1024
QUIET_S = 1.0  # no frame for this long: the presence chatter after connecting is over
PING_S = 25.0  # the page's heartbeat (static/tables/live.js)


class Client:
    def __init__(self, base: str, cookie_name: str, csrf_cookie: str):
        self.base, self.cookie_name, self.csrf_cookie = base, cookie_name, csrf_cookie
        self.csrf = secrets.token_hex(16)
        self.last_frame = time.monotonic()
        self.frames = 0
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=4),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=60),
        )
        self.ws_http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
        )

    def headers(self, seat) -> dict:
        return {
            "Cookie": f"{self.cookie_name}={seat.cookie}; {self.csrf_cookie}={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Origin": self.base,
        }

    async def page(self, campaign_id: int, seat) -> int:
        url = f"{self.base}/campaigns/{campaign_id}/table/"
        async with self.http.get(url, headers=self.headers(seat)) as answer:
            await answer.read()
            return answer.status

    async def roll(self, campaign_id: int, seat) -> int:
        form, path = roll_command(seat)
        url = f"{self.base}/campaigns/{campaign_id}/{path}"
        async with self.http.post(url, data=form, headers=self.headers(seat)) as answer:
            await answer.read()
            return answer.status

    async def socket(self, campaign_id: int, seat) -> aiohttp.ClientWebSocketResponse:
        """A table page's socket, once its replay is done (the `ready` frame)."""
        url = self.base.replace("http", "ws", 1) + f"/ws/campaigns/{campaign_id}/"
        headers = {"Origin": self.base, "Cookie": f"{self.cookie_name}={seat.cookie}"}
        ws = await self.ws_http.ws_connect(url, headers=headers, max_msg_size=0)
        while True:
            message = await asyncio.wait_for(ws.receive(), 60)
            if message.type != aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"socket closed before ready ({ws.close_code})")
            if json.loads(message.data).get("type") == "ready":
                return ws

    async def drain(self, ws) -> None:
        """Read a socket; frames other than a heartbeat's answer count as activity."""
        pinged = False  # a pong came: the presence frame after it answers the ping too
        async for message in ws:
            text = message.type == aiohttp.WSMsgType.TEXT
            kind = json.loads(message.data).get("type") if text else None
            if kind == "pong" or (kind == "presence" and pinged):
                pinged = kind == "pong"
                continue
            self.frames += 1
            self.last_frame = time.monotonic()

    async def heartbeat(self, ws, offset: float) -> None:
        await asyncio.sleep(offset)
        while not ws.closed:
            await ws.send_str(json.dumps({"type": "ping"}))
            await asyncio.sleep(PING_S)

    async def quiet(self, cap: float = 120.0) -> None:
        end = time.monotonic() + cap
        while time.monotonic() - self.last_frame < QUIET_S and time.monotonic() < end:
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        await self.http.close()
        await self.ws_http.close()


async def measure(args, side: Side, tables, cookie_name: str, csrf_cookie: str) -> None:
    import random

    proc = side.procs[0]
    client = Client(side.url(0), cookie_name, csrf_cookie)
    first = tables[0]
    tasks: list[asyncio.Task] = []
    try:
        # 1. At rest: warmed by a page and a roll.
        for _ in range(3):
            assert await client.page(first.campaign_id, first.rollers[0]) == 200
            assert await client.roll(first.campaign_id, first.rollers[0]) == 200
        # Rolls back to back from --rollers players of different tables, no socket open;
        # they warm the worker too, so "at rest" is a worker that has served.
        seats = [(t.campaign_id, t.rollers[0]) for t in tables[: args.rollers]]
        alone = await rolling(client, proc, seats, args.seconds)
        await asyncio.sleep(2)
        rest = proc.rss()

        # 2. The sockets: opened a table at a time, so the connect storm is not measured.
        sockets = []
        started = time.monotonic()
        for table in tables:
            for seat in table.seats:
                ws = await client.socket(table.campaign_id, seat)
                sockets.append(ws)
                tasks.append(asyncio.create_task(client.drain(ws)))
                offset = random.uniform(0, PING_S)
                tasks.append(asyncio.create_task(client.heartbeat(ws, offset)))
        opened = time.monotonic() - started
        await client.quiet()
        await asyncio.sleep(5)
        held = proc.rss()
        cpu0, t0 = proc.cpu_s(), time.monotonic()
        await asyncio.sleep(args.idle)
        idle_share = (proc.cpu_s() - cpu0) / (time.monotonic() - t0)
        n = len(sockets)
        per_1000 = (held - rest) / n * 1000

        # 3. Rolls back to back again, each now pushed to its table's sockets.
        with_sockets = await rolling(client, proc, seats, args.seconds)
        rss_after = proc.rss()
    finally:
        for task in tasks:
            task.cancel()
        await client.close()

    load = os.getloadavg()[0]
    print(f"one uvicorn worker, {args.layer}, SQLite; {os.cpu_count()} CPUs, load {load:.1f}")
    print(f"at rest (pages and rolls served):       RSS {rest / MB:6.1f} MB")
    print(
        f"{n} sockets open ({opened:.1f} s to open):    RSS {held / MB:6.1f} MB"
        f"  -> {per_1000 / MB:.1f} MB per 1,000 sockets"
    )
    print(f"idle with {n} sockets (heartbeats):     {idle_share * 100:.1f} % of a core")
    for label, (rate, failed, cpu_s, wall_s, rolls), idle in (
        ("no socket open", alone, 0.0),
        (f"{n} sockets open", with_sockets, idle_share),
    ):
        # With sockets open, their heartbeats ran meanwhile: their idle rate, per roll, out.
        cpu_ms = cpu_s / max(rolls, 1) * 1000
        net = max((cpu_s - idle * wall_s) / max(rolls, 1) * 1000, 0.1)
        print(
            f"rolls back to back, {label}: {rate:.1f} rolls/s answered ({failed} failed),"
            f" worker CPU {cpu_ms:.1f} ms per roll"
            + (f" ({net:.1f} ms less the idle sockets' share)" if net != cpu_ms else "")
            + f" -> {1000 / net:.0f} rolls/s for a worker with a core of its own"
        )
    print(f"RSS after the rolls: {rss_after / MB:.1f} MB")


async def rolling(client, proc, seats, seconds: float) -> tuple[float, int, float, float, int]:
    """Rolls back to back from each seat for `seconds`: (rolls/s, failed, worker CPU s,
    wall s, rolls). The pushes of the last rolls count too (until the sockets are quiet)."""
    rolled, failed = 0, 0
    end = time.monotonic() + seconds

    async def roller(campaign_id, seat):
        nonlocal rolled, failed
        while time.monotonic() < end:
            if await client.roll(campaign_id, seat) == 200:
                rolled += 1
            else:
                failed += 1

    cpu0, t0 = proc.cpu_s(), time.monotonic()
    await asyncio.gather(*(roller(c, s) for c, s in seats))
    await client.quiet(cap=30)
    return rolled / seconds, failed, proc.cpu_s() - cpu0, time.monotonic() - t0, rolled


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="sizing.py", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--sockets", type=int, default=8, help="per table: a GM and players")
    parser.add_argument("--rollers", type=int, default=4, help="players rolling at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="of rolling")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measured")
    parser.add_argument("--redis", action="store_true", help="channels_redis, as in production")
    args = parser.parse_args(argv)
    os.environ.pop("REDIS_URL", None)
    tmp = setup_django()
    redis = side = None
    try:
        from django.conf import settings

        tables = seed(args.tables, args.sockets)
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG")}
        env |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "PYTHONPATH": str(ROOT)}
        env |= {"LOG_LEVEL": "WARNING"}
        args.layer = "in-memory layer"
        if args.redis:
            redis, url = start_redis(tmp)
            env["REDIS_URL"] = f"{url}/0"
            args.layer = "channels_redis"
        side = Side("app", APP, "uvicorn", 1, env, ROOT, tmp)
        side.wait_ready()
        asyncio.run(
            measure(args, side, tables, settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)
        )
    finally:
        if side is not None:
            side.stop()
        if redis is not None:
            redis.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])

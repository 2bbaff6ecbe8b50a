"""Live table benchmark: fan-out of real Momenta rolls to a table of 8 open sockets.

Run from the project root: `.venv/bin/python bench/live_bench.py`. Needs no
running services: it migrates a temporary SQLite file, seats a GM and 7 players
(each with a character) and opens 8 sockets with Channels' WebsocketCommunicator
against momenta_site.asgi.application, all in this process's one event loop.
Channel layer: in-memory, or channels_redis if REDIS_URL is set (printed).

Rolls go through tables.services.momenta.roll_momenta with the production
random source, called the way consumers reach the database
(database_sync_to_async: one shared thread). "Commit" is when the service
rings the doorbell (tables.services.publish, whose first hook here takes the time;
it runs right after commit). Figures only, each against a baseline measured
in the same run; nothing here asserts on time.

This is the default mode. `live_bench.py side [--tables ...]` (or any option)
runs the side-by-side bench instead: real servers, real sockets, against a bare
Channels relay (bench/side_by_side.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from seed import make_table, setup_django  # bench/seed.py, a sibling

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = 7
N_ROLLS = 200  # back-to-back rolls, with and without sockets
N_WARMUP = 10
N_PACED = 40  # one roll at a time, each waited for on all sockets
N_CATCHUP = 500
PHASE_TIMEOUT_S = 20.0  # no single wait lasts longer
BUDGET_S = 55.0  # phases still to come are skipped past this
ORIGIN = b"http://testserver"

perf = time.perf_counter


# --- Fixtures: one Momenta table, GM + 7 players with characters ----------------------


def make_users():
    from django.contrib.auth import get_user_model

    User = get_user_model()
    gm = User.objects.create_user(username="bench-gm", password=None)
    players = [
        User.objects.create_user(username=f"bench-p{i}", password=None) for i in range(PLAYERS)
    ]
    return gm, players


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


# --- Instrumentation ------------------------------------------------------------------


class Probe:
    """Commit times (announce), renders, DB connections opened."""

    def __init__(self):
        self.committed: dict[tuple[int, int], float] = {}  # (campaign, seq) -> time
        self.renders = Counter()  # audience -> events drawn for it
        self.connections = 0

    def install(self):
        from django.db.backends.signals import connection_created

        from tables.live import render as live
        from tables.services import publish

        real_render = live.event_fragments

        def committed(event):
            self.committed[(event.campaign_id, event.seq)] = perf()

        def render(event, audiences):
            self.renders.update(audiences)
            return real_render(event, audiences)

        # The commit's time is taken first, before the doorbell rings (TablesConfig.ready
        # subscribed it); fanout and render_event_fragments look event_fragments up in
        # live's globals.
        publish._subscribers.insert(0, committed)
        live.event_fragments = render
        connection_created.connect(self._connected, weak=False)

    def _connected(self, **kwargs):
        self.connections += 1

    def reset(self):
        self.renders.clear()
        self.connections = 0


PROBE = Probe()


class Reader:
    """One socket: reads its output queue directly (no receive timeouts, which
    would cancel the consumer) and notes when each seq arrived."""

    changed: asyncio.Event  # shared, set on every message

    def __init__(self, name: str, communicator, changed: asyncio.Event):
        self.name = name
        self.communicator = communicator
        self.changed = changed
        self.arrived: dict[int, float] = {}
        self.order: list[int] = []
        self.kinds = Counter()
        self.bytes = 0
        self.ready_seq: int | None = None
        self.max_seq = 0
        self.last_message = perf()
        self.closed = False
        self.task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            message = await self.communicator.output_queue.get()
            now = perf()
            self.last_message = now
            if message["type"] == "websocket.close":
                self.closed = True
                self.changed.set()
                return
            text = message.get("text") or ""
            self.bytes += len(text)
            data = json.loads(text)
            kind = data.get("type")
            self.kinds[kind] += 1
            if kind in ("event", "cursor"):
                seq = data["seq"]
                self.arrived.setdefault(seq, now)
                self.order.append(seq)
                self.max_seq = max(self.max_seq, seq)
            elif kind == "ready":
                self.ready_seq = data["seq"]
            self.changed.set()

    def forget(self):
        self.arrived.clear()
        self.order.clear()
        self.kinds.clear()
        self.bytes = 0

    async def close(self):
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
        if not self.closed:
            await self.communicator.disconnect(timeout=5)


class Table:
    def __init__(self, campaign_id, seats, gm, cookies, deadline):
        self.campaign_id = campaign_id
        self.seats = seats
        self.gm = gm
        self.cookies = cookies
        self.deadline = deadline
        self.changed = asyncio.Event()
        self.readers: list[Reader] = []

    def remaining(self, cap: float = PHASE_TIMEOUT_S) -> float:
        return max(0.0, min(cap, self.deadline - perf()))

    async def until(self, predicate, timeout: float) -> bool:
        """Wait until predicate() is true; False after `timeout` seconds."""
        end = perf() + timeout
        while not predicate():
            left = end - perf()
            if left <= 0:
                return False
            self.changed.clear()
            if predicate():
                break
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return predicate()
        return True

    async def open(self, user, campaign_id=None, after=None) -> Reader:
        from channels.testing import WebsocketCommunicator
        from django.conf import settings

        from momenta_site.asgi import application

        path = f"/ws/campaigns/{campaign_id or self.campaign_id}/"
        if after is not None:
            path += f"?after={after}"
        cookie = f"{settings.SESSION_COOKIE_NAME}={self.cookies[user.pk]}".encode()
        communicator = WebsocketCommunicator(
            application, path, headers=[(b"origin", ORIGIN), (b"cookie", cookie)]
        )
        accepted, code = await communicator.connect(timeout=10)
        if not accepted:
            raise RuntimeError(f"socket for {user} refused ({code})")
        return Reader(user.get_username(), communicator, self.changed)

    async def quiet(self, readers, gap: float = 0.3, cap: float = 5.0):
        """Let presence chatter settle: no message on any socket for `gap` seconds."""
        end = perf() + cap
        while perf() < end:
            await asyncio.sleep(gap / 3)
            if perf() - max(r.last_message for r in readers) >= gap:
                return


async def roll(campaign_id, actor, character_id):
    from channels.db import database_sync_to_async

    from tables.services.momenta import RollRequest, roll_momenta

    # rng left out: the production source (system CSPRNG), as in the views.
    made = await database_sync_to_async(roll_momenta)(
        campaign_id, actor, character_id, RollRequest(attribute="WITS")
    )
    return made.event.seq


async def roll_many(table: Table, count: int, campaign_id=None, seats=None) -> list[int]:
    """`count` rolls one after another, the players in turn; stops at the time budget."""
    seats = seats or table.seats
    seqs = []
    end = perf() + table.remaining()
    for i in range(count):
        if perf() > end:
            break
        player, hero = seats[i % len(seats)]
        seqs.append(await roll(campaign_id or table.campaign_id, player, hero))
    return seqs


def pct(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


# --- Phases ---------------------------------------------------------------------------


async def bench_fanout(table: Table) -> dict:
    cid = table.campaign_id
    out = {}

    # 2. Baseline: the same service calls, no socket at the table.
    await roll_many(table, N_WARMUP)
    start = perf()
    seqs = await roll_many(table, N_ROLLS)
    base_s = perf() - start
    out["baseline_rate"] = len(seqs) / base_s
    print(f"Baseline: {len(seqs)} rolls, no socket open")
    print(
        f"  service calls                      {out['baseline_rate']:>9.1f} rolls/s"
        f"   ({ms(base_s / len(seqs))} each)"
    )

    # 1. Fan-out: 8 sockets, N rolls back to back.
    gm_reader = await table.open(table.gm)
    table.readers = [gm_reader]
    for player, _ in table.seats:
        table.readers.append(await table.open(player))
    await table.until(lambda: all(r.ready_seq is not None for r in table.readers), 10)
    await table.quiet(table.readers)
    for reader in table.readers:
        reader.forget()
    PROBE.reset()

    start = perf()
    seqs = await roll_many(table, N_ROLLS)
    calls_done = perf()
    last = seqs[-1]
    delivered = await table.until(
        lambda: all(r.max_seq >= last for r in table.readers), table.remaining()
    )
    end = max(r.arrived.get(last, perf()) for r in table.readers)
    n = len(seqs)
    sockets = len(table.readers)
    complete = [s for s in seqs if all(s in r.arrived for r in table.readers)]
    latencies = [
        max(r.arrived[s] for r in table.readers) - PROBE.committed[(cid, s)] for s in complete
    ]
    spreads = [
        max(r.arrived[s] for r in table.readers) - min(r.arrived[s] for r in table.readers)
        for s in complete
    ]
    in_order = all(r.order == seqs for r in table.readers)
    live_rate = n / (end - start)
    print(f"Fan-out: {n} rolls back to back, {sockets} sockets (1 GM + {sockets - 1} players)")
    if not delivered:
        print(f"  TIMEOUT: only {len(complete)}/{n} events reached every socket")
    print(f"  service calls (sockets open)       {n / (calls_done - start):>9.1f} rolls/s")
    print(
        f"  fully delivered to all {sockets}         {live_rate:>9.1f} events/s"
        f"   ({out['baseline_rate'] / live_rate:.2f}x the baseline's time per roll)"
    )
    print(f"  drain after last call returned     {ms(end - calls_done)}")
    p50, p95 = ms(pct(latencies, 50)), ms(pct(latencies, 95))
    worst = ms(max(latencies, default=float("nan"))).strip()
    print(f"  commit -> last socket, p50 / p95   {p50} / {p95}  (max {worst})")
    print(f"  first -> last socket spread, p50   {ms(pct(spreads, 50))}")
    print(f"  every socket got every seq once, in order: {'yes' if in_order else 'NO'}")
    pushed = sum(r.bytes for r in table.readers) / max(1, n * sockets)
    opened = PROBE.connections
    print(f"  bytes pushed per event per socket  {pushed:>9.0f}")
    print(f"  DB connections opened              {opened:>9} ({opened / n:.1f} per roll)")

    # 3. Render once per audience.
    renders = sum(PROBE.renders.values())
    print("Render once per audience (the hub, tables/live/fanout.py), during the fan-out")
    print(f"  deliveries (sockets x events)      {sockets * n:>9}")
    by_audience = ", ".join(f"{a}: {c}" for a, c in sorted(PROBE.renders.items()))
    share = renders / max(1, sockets * n)
    print(
        f"  real renders                       {renders:>9}   ({by_audience};"
        f" {renders / max(1, n):.2f} per event, {share:.1%} of deliveries)"
    )

    # Paced: one roll at a time, the table idle in between (the latency one player sees).
    PROBE.reset()
    paced, paced_spread = [], []
    for i in range(N_PACED):
        if table.remaining() <= 1:
            break
        player, hero = table.seats[i % len(table.seats)]
        seq = await roll(cid, player, hero)
        if not await table.until(
            lambda s=seq: all(r.max_seq >= s for r in table.readers), table.remaining(5)
        ):
            print(f"  TIMEOUT waiting for paced seq {seq}")
            break
        arrived = [r.arrived[seq] for r in table.readers]
        paced.append(max(arrived) - PROBE.committed[(cid, seq)])
        paced_spread.append(max(arrived) - min(arrived))
    if paced:
        print(f"Paced: {len(paced)} rolls one at a time, each awaited on all {sockets} sockets")
        print(f"  commit -> last socket, p50 / p95   {ms(pct(paced, 50))} / {ms(pct(paced, 95))}")
        print(f"  first -> last socket spread, p50   {ms(pct(paced_spread, 50))}")
        print(
            f"  DB connections opened              {PROBE.connections:>9}"
            f" ({PROBE.connections / len(paced):.1f} per roll)"
        )

    for reader in table.readers:
        await reader.close()
    table.readers = []
    return out


async def bench_catch_up(table: Table, out: dict) -> None:
    from channels.db import database_sync_to_async

    from tables.live import render as live

    cid, seats = out["catchup_campaign"]
    # Fill a second table with exactly N_CATCHUP rolls: also a second baseline,
    # taken after the fan-out (drift check).
    head = await database_sync_to_async(live.head_seq)(cid)  # campaign_created is seq 1
    start = perf()
    seqs = await roll_many(table, N_CATCHUP - head, campaign_id=cid, seats=seats)
    fill_s = perf() - start
    print(f"Baseline again, after the fan-out: {len(seqs)} rolls on a fresh table, no socket")
    print(f"  service calls                      {len(seqs) / fill_s:>9.1f} rolls/s")
    head = await database_sync_to_async(live.head_seq)(cid)
    player = table.seats[0][0]
    print(f"Catch-up: a player's socket connects with ?after=0 to a table with {head} events")
    for label in ("first replay", "second replay"):
        if table.remaining() <= 2:
            print("  skipped: out of time budget")
            return
        PROBE.reset()
        start = perf()
        reader = await table.open(player, campaign_id=cid, after=0)
        done = await table.until(lambda r=reader: r.ready_seq is not None, table.remaining())
        took = perf() - start
        got = len(reader.order)
        ok = reader.order == list(range(1, head + 1))
        await reader.close()
        status = "" if done else "  TIMEOUT"
        renders = sum(PROBE.renders.values())
        print(
            f"  {label:<18} {got} events in {ms(took).strip():>10}  = {got / took:>8.1f} events/s"
            f"  (renders {renders}, in order: {'yes' if ok else 'NO'}){status}"
        )


def render_timing(campaign_id: int, sample: int = 40) -> None:
    """render_event_fragments per audience (each call reads and draws); and what one
    database reconnect costs (a doorbell's aclose_old_connections closes it)."""
    from django.db import connection

    from tables.live import render as live
    from tables.models import TableEvent
    from tables.presenters.table import ALL, GM

    events = list(
        TableEvent.objects.filter(campaign_id=campaign_id, kind="momenta_roll")
        .select_related("actor")
        .order_by("-seq")[:sample]
    )
    print(f"render_event_fragments, {len(events)} roll events (median per call)")
    for audience in (GM, ALL):
        times = []
        for event in events:
            t = time.perf_counter_ns()
            live.render_event_fragments(event, audience)
            times.append(time.perf_counter_ns() - t)
        print(f"  audience {audience:<4} {statistics.median(times) / 1e6:8.3f} ms")
    reconnects = []
    for _ in range(50):
        t = time.perf_counter_ns()
        connection.close()
        connection.ensure_connection()
        reconnects.append(time.perf_counter_ns() - t)
    print(
        f"  for scale: one DB close + reopen (SQLite, WAL pragmas)"
        f" {statistics.median(reconnects) / 1e6:.3f} ms"
    )


async def main(campaign_id, seats, catchup, gm, cookies, t0) -> None:
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    table = Table(campaign_id, seats, gm, cookies, deadline=t0 + BUDGET_S)
    out = await bench_fanout(table)
    out["catchup_campaign"] = catchup
    await bench_catch_up(table, out)
    if table.remaining() > 1:
        await sync_to_async(render_timing)(campaign_id)
    await get_channel_layer().flush()


def run() -> None:
    t0 = perf()
    tmp = setup_django()
    try:
        from django.conf import settings
        from django.db import connections

        PROBE.install()
        backend = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
        redis = " (REDIS_URL)" if os.environ.get("REDIS_URL") else ""
        print(f"Channel layer: {backend}{redis}; database: SQLite file in {tmp}")
        gm, players = make_users()
        campaign_id, seats = make_table("Bench table", gm, players)
        catchup = make_table("Catch-up table", gm, players)
        cookies = {u.pk: session_cookie(u) for u in [gm, *players]}
        connections.close_all()  # the sockets and services use their own thread's connection
        print(
            f"Setup (migrate, users, 2 tables): {perf() - t0:.1f} s;"
            f" {os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
        )
        asyncio.run(main(campaign_id, seats, catchup, gm, cookies, t0))
        print(f"Total: {perf() - t0:.1f} s")
    finally:
        from django.db import connections

        connections.close_all()
        shutil.rmtree(tmp, ignore_errors=True)


def dispatch(argv: list[str]) -> None:
    """No arguments (or `inprocess`): this in-process bench. `side` or any option:
    the side-by-side bench against a bare relay (bench/side_by_side.py)."""
    if not argv or argv == ["inprocess"]:
        run()
        return
    import side_by_side

    side_by_side.main(argv[1:] if argv[0] == "side" else argv)


if __name__ == "__main__":
    dispatch(sys.argv[1:])

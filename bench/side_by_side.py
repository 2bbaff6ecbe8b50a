"""Side-by-side live bench: the app against a bare Channels relay, real servers, real sockets.

Run from the project root (needs `pip install -e '.[bench]'`):
    .venv/bin/python bench/live_bench.py side --tables 125 --sockets 8 --rate 2 --rate 8

Both sides run as server processes on loopback with the same ASGI server and
the same channel layer (in-memory, or channels_redis on a throwaway
redis-server with --redis): the relay (bench/relay_app.py: join `table-<id>`,
forward each group_send) and momenta_site.asgi:application on a temporary
SQLite file seeded here (T Momenta tables, a GM and P-1 players with
characters). This process opens T×P websockets against each, logged in by
session cookie, then drives, for each rate R, R commands per second spread
over the tables round-robin: real roll commands over HTTP to the app (the
composer's POST; `--command talk`: table-talk messages, the cheapest command that
appends an event, to measure the stack's floor), and as many `POST
/campaigns/<id>/send/` to the relay.
Before the rates, a closed loop on one table, then "all tables at once": a few
rounds of one command to every table at the same moment.

A command's latency runs from its request being sent to the last socket of its
table receiving its seq (`event` or `cursor` frame). A command not delivered
to every socket within DRAIN_S of the phase's last send counts as infinitely
late (so p50/p99 say "lost" when enough are), and its missing sockets as lost
deliveries. Sockets behave as the page does on close (reconnect with
?after=<last seq>) but send no heartbeats: each phase is shorter than the
page's 25 s ping. Figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psutil
from seed import make_table, setup_django  # bench/seed.py, a sibling
from servers import Side, start_redis

ROOT = Path(__file__).resolve().parents[1]
APP = "momenta_site.asgi:application"
RELAY = "bench.relay_app:application"

CONNECT_TIMEOUT_S = 120.0  # per socket, handshake + replay: generous, so the servers'
# own timeouts (daphne's 5 s handshake) are what fails
HTTP_TIMEOUT_S = 60.0
KEEPALIVE_S = 4.0  # the client reuses an idle HTTP connection this long at most
DRAIN_S = 30.0  # after a phase's last send, how long deliveries may still arrive
QUIET_GAP_S = 1.0  # after connecting: no frame for this long means presence settled
QUIET_CAP_S = 90.0
CLOSED_LOOP_WARMUP = 3
CLOSED_LOOP_N = 30
CLOSED_LOOP_WAIT_S = 10.0
CLOSED_LOOP_BUDGET_S = 60.0
PING_S = 25.0  # the page's heartbeat (static/tables/live.js)
IDLE_S = 10.0  # idle window after connecting: what the open sockets cost on their own
SUSTAIN_P50_S = 0.5  # a rate is sustained while p50 stays under this
BURST_ROUNDS = 3  # "all tables at once": rounds of one command to every table
BURST_PAUSE_S = 1.0  # between rounds (then quiet()), so each round starts idle
EVENT_ID = re.compile(r'id="event-(\d+)"')

perf = time.perf_counter


def roll_command(seat) -> tuple[dict, str]:
    """The composer's Momenta roll: what the bench measures by default."""
    form = {
        "character": str(seat.character_id),
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
    }
    return form, "momenta/roll/"


def talk_command(seat) -> tuple[dict, str]:
    """A table-talk message: the cheapest command that appends an event (no rules, no
    pools), so its cost is the stack's floor for any command a table sees."""
    return {"mode": "ooc", "text": "Back in five."}, "table/talk/"


COMMANDS = {"roll": roll_command, "talk": talk_command}


# --- Seeding (Django in this process, before the servers start) -------------------------


@dataclass
class Seat:
    username: str
    cookie: str  # session key
    character_id: int | None  # None: the GM's seat (the GM does not roll here)


@dataclass
class TableSeed:
    campaign_id: int
    seats: list[Seat]  # GM first

    @property
    def rollers(self) -> list[Seat]:
        return [s for s in self.seats if s.character_id is not None]


# `--languages N`: the first N of these are read at each table (issue 28), the GM's
# first, then the players' in turn; 1: everyone reads the site's language.
LANGUAGES = ("en", "de", "fr", "es")


def seed(tables: int, sockets: int, languages: int = 1) -> list[TableSeed]:
    """T Momenta tables, each a GM and sockets-1 players with a character; one session each.
    With languages > 1, seat i reads LANGUAGES[i % languages] (a person's setting)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.db import connections, transaction

    from tables.models import PersonSettings
    from tables.policy.locale import remember

    User = get_user_model()
    store = import_module(settings.SESSION_ENGINE).SessionStore

    def login(user) -> str:  # what django.contrib.auth.login stores
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        remember(session, PersonSettings.of(user))  # tables/login_signals.py, issue 28
        session.create()
        return session.session_key

    out = []
    with transaction.atomic():
        for t in range(tables):
            gm = User.objects.create_user(username=f"t{t}-gm", password=None)
            players = [
                User.objects.create_user(username=f"t{t}-p{i}", password=None)
                for i in range(sockets - 1)
            ]
            campaign_id, heroes = make_table(f"Bench table {t}", gm, players)
            if languages > 1:
                PersonSettings.objects.bulk_create(
                    PersonSettings(user=u, language=LANGUAGES[i % languages])
                    for i, u in enumerate([gm, *players])
                )
            seats = [Seat(gm.username, login(gm), None)]
            seats += [Seat(p.username, login(p), hero) for p, hero in heroes]
            out.append(TableSeed(campaign_id, seats))
    connections.close_all()
    return out


# --- Clients ----------------------------------------------------------------------------


class Sock:
    """One real websocket: notes when each seq first arrived, repeats, order, closes."""

    def __init__(self, run: SideRun, table: int, seat: Seat, index: int):
        self.run, self.table, self.seat, self.index = run, table, seat, index
        self.arrivals: dict[int, float] = {}
        self.counts: Counter[int] = Counter()
        self.top = 0  # highest seq received
        self.out_of_order = 0
        self.closes = 0  # closed by the server (or the network) while in use
        self.error: str | None = None
        self.live = False  # opened (and, on the app, replayed) and not closed since
        self.handshake_s = self.ready_s = math.nan
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.task: asyncio.Task | None = None
        self.beat: asyncio.Task | None = None
        self.pinged = False  # a pong came: the presence frame after it answers the ping too
        self._ready = asyncio.Event()

    @property
    def ok(self) -> bool:
        return self.error is None

    def url(self, after: int | None = None) -> str:
        base = self.run.side.url(self.index, "ws")
        path = f"/ws/campaigns/{self.run.tables[self.table].campaign_id}/"
        return base + path + (f"?after={after}" if after is not None else "")

    async def open(self, after: int | None = None) -> bool:
        """Handshake, then (app) wait for `ready`: the replay is done."""
        start = perf()
        self._ready.clear()
        self.error = None
        self.live = False
        origin = self.run.side.url(self.index)
        headers = {"Origin": origin, "Cookie": f"{self.run.cookie_name}={self.seat.cookie}"}
        try:
            self.ws = await asyncio.wait_for(
                self.run.bench.ws_session.ws_connect(
                    self.url(after), headers=headers, autoping=True, max_msg_size=0
                ),
                CONNECT_TIMEOUT_S,
            )
        except Exception as error:  # noqa: BLE001 (any failure is a failed connect)
            self.error = f"handshake: {type(error).__name__} {error}".strip()
            return False
        self.handshake_s = perf() - start
        self.task = asyncio.create_task(self._read(self.ws))
        if self.run.has_ready:
            try:
                await asyncio.wait_for(self._ready.wait(), CONNECT_TIMEOUT_S - self.handshake_s)
            except TimeoutError:
                self.error = "no ready frame in time"
                return False
            if self.ws.closed:
                self.error = f"closed before ready ({self.ws.close_code})"
                return False
        self.ready_s = perf() - start
        self.live = True
        return True

    async def _read(self, ws) -> None:
        async for msg in ws:
            now = perf()
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            try:
                data = json.loads(msg.data)
            except ValueError:
                continue
            kind = data.get("type")
            if kind == "pong" or (kind == "presence" and self.pinged):
                self.pinged = kind == "pong"
                continue  # the answer to a heartbeat: not news
            self.run.last_frame = now
            if kind in ("event", "cursor"):
                seq = data.get("seq")
                self.counts[seq] += 1
                if self.counts[seq] == 1:
                    self.arrivals[seq] = now
                    if seq < self.top:
                        self.out_of_order += 1
                    self.top = max(self.top, seq)
                self.run.changed.set()
            elif kind == "ready":
                self._ready.set()
        self._ready.set()  # wake open(): closed before ready
        was_live, self.live = self.live, False
        if was_live and not self.run.bench.stopping:
            self.closes += 1
            self.run.close_codes[ws.close_code] += 1
            asyncio.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        """As the page does: back off from 250 ms, reconnect with ?after=<last seq>."""
        delay = 0.25
        while not self.run.bench.stopping:
            await asyncio.sleep(delay)
            if await self.open(after=self.top if self.run.has_ready else None):
                return
            delay = min(5.0, delay * 2)

    def start_heartbeat(self) -> None:
        if self.beat is None:
            self.beat = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        """As the page: `ping` with the last seq every PING_S; pages load at random times."""
        await asyncio.sleep(random.uniform(0, PING_S))
        while not self.run.bench.stopping:
            if self.live and self.ws is not None and not self.ws.closed:
                try:
                    await self.ws.send_str(json.dumps({"type": "ping", "seq": self.top}))
                except (ConnectionError, aiohttp.ClientError):
                    pass  # the reader sees the close and reconnects
            await asyncio.sleep(PING_S)

    async def close(self) -> None:
        self.live = False  # our own close: no reconnect
        if self.beat is not None:
            self.beat.cancel()
        if self.ws is not None and not self.ws.closed:
            try:
                await asyncio.wait_for(self.ws.close(), 2)
            except (TimeoutError, aiohttp.ClientError):
                pass
        if self.task is not None:
            self.task.cancel()


@dataclass
class Command:
    table: int
    seat: Seat | None
    proc: int  # which server process gets the request
    due: float = 0.0
    sent: float = math.nan
    seq: int | None = None
    answered: bool = False
    failure: str | None = None


@dataclass
class Stats:
    """One side's figures for one phase."""

    commands: int = 0
    latencies: list[float] = field(default_factory=list)  # inf: not delivered everywhere
    lost: int = 0  # (command, socket) pairs never delivered
    duplicated: int = 0
    failed: int = 0  # commands with no seq (HTTP error, no event in the answer, timeout)
    out_of_order: int = 0
    closes: int = 0
    cpu_ms: float = 0.0
    idle_ms: float = 0.0  # what the open sockets alone cost over the phase (heartbeats)
    wall_s: float = 0.0
    client_cpu_ms: float = 0.0
    other_cpu_ms: float = 0.0  # the rest of the machine: a busy machine skews latencies
    late_ms: float = 0.0  # worst lag of a send behind its schedule
    failures: Counter = field(default_factory=Counter)

    def pct(self, q: float) -> float:
        return pct(self.latencies, q)

    @property
    def delivered(self) -> int:
        return sum(1 for v in self.latencies if v != math.inf)

    @property
    def cpu_per_command(self) -> float:
        """Server CPU ms per command, less what the idle sockets cost meanwhile."""
        return (self.cpu_ms - self.idle_ms) / self.commands if self.commands else math.nan

    @property
    def gross_cpu_per_command(self) -> float:
        return self.cpu_ms / self.commands if self.commands else math.nan


def busy_s() -> float:
    """CPU seconds the whole machine has spent busy (all cores)."""
    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)


def pct(values, q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class SideRun:
    """The relay or the app: its servers, sockets and how a command is sent."""

    def __init__(self, bench: Bench, name: str, side: Side, tables: list[TableSeed]):
        self.bench, self.name, self.side, self.tables = bench, name, side, tables
        self.has_ready = name == "app"  # the app sends `ready` after its replay
        self.cookie_name = bench.cookie_name
        self.socks: list[list[Sock]] = []
        self.changed = asyncio.Event()
        self.last_frame = perf()
        self.close_codes: Counter = Counter()
        self.relay_seq = Counter()  # per table: the relay's seqs are made here
        self.turn = 0  # commands so far: tables round-robin, then players in turn
        self.connect: dict = {}
        self.rss_per_socket = math.nan
        self.idle_cpu = 0.0  # server CPU s per s with the sockets open and no command

    # --- sockets

    async def open_all(self) -> None:
        self.socks, index = [], 0
        for t, table in enumerate(self.tables):
            row = []
            for seat in table.seats:
                row.append(Sock(self, t, seat, index))
                index += 1
            self.socks.append(row)
        every = [s for row in self.socks for s in row]
        rss0, start = self.side.rss(), perf()
        me, cpu0 = psutil.Process(), self.side.cpu_s()
        client0 = sum(me.cpu_times()[:2])
        await asyncio.gather(*(s.open() for s in every))
        wall = perf() - start
        server_cpu, client_cpu = self.side.cpu_s() - cpu0, sum(me.cpu_times()[:2]) - client0
        failed = [s for s in every if not s.ok]
        errors = Counter(s.error for s in failed)
        for attempt in range(3):  # so the phases run with full tables
            if not failed:
                break
            await asyncio.sleep(0.5 * (attempt + 1))
            await asyncio.gather(*(s.open() for s in failed))
            failed = [s for s in every if not s.ok]
        settle = perf()
        await self.quiet()
        settle = perf() - settle
        opened = [s for s in every if s.ok]
        self.rss_per_socket = (self.side.rss() - rss0) / max(1, len(opened))
        for sock in opened:  # after the quiet: a heartbeat's answer is a frame too
            sock.start_heartbeat()
        self.connect = {
            "sockets": len(every),
            "wall_s": wall,
            "server_cpu_s": server_cpu,
            "client_cpu_s": client_cpu,
            "settle_s": settle,
            "failed": sum(errors.values()),
            "errors": errors,
            "left_out": len(failed),
            "handshake": [s.handshake_s for s in every if not math.isnan(s.handshake_s)],
            "ready": [s.ready_s for s in every if not math.isnan(s.ready_s)],
        }
        for row in self.socks:
            row[:] = [s for s in row if s.ok]

    async def quiet(self) -> None:
        """Until no frame but heartbeat answers has come for QUIET_GAP_S (presence
        chatter after connects, the previous phase's stragglers)."""
        end = perf() + QUIET_CAP_S
        while perf() < end and perf() - self.last_frame < QUIET_GAP_S:
            await asyncio.sleep(0.1)

    async def close_all(self) -> None:
        await asyncio.gather(*(s.close() for row in self.socks for s in row))

    # --- commands

    def next_command(self) -> Command:
        t = self.turn % len(self.tables)
        rollers = self.tables[t].rollers
        seat = rollers[(self.turn // len(self.tables)) % len(rollers)]
        command = Command(t, seat, self.turn % len(self.side.ports))
        self.turn += 1
        return command

    async def send(self, command: Command) -> None:
        table = self.tables[command.table]
        base = self.side.url(command.proc)
        http = self.bench.http_session
        try:
            if self.name == "relay":
                self.relay_seq[command.table] += 1
                command.seq = self.relay_seq[command.table]
                url = f"{base}/campaigns/{table.campaign_id}/send/?seq={command.seq}"
                command.sent = perf()
                async with http.post(url) as response:
                    await response.read()
                    if response.status != 204:
                        command.failure = f"HTTP {response.status}"
                        command.seq = None
            else:
                csrf = self.bench.csrf
                headers = {
                    "Cookie": f"{self.cookie_name}={command.seat.cookie}; "
                    f"{self.bench.csrf_cookie}={csrf}",
                    "X-CSRFToken": csrf,
                    "HX-Request": "true",
                    "Origin": base,
                }
                form, path = COMMANDS[self.bench.args.command](command.seat)
                url = f"{base}/campaigns/{table.campaign_id}/{path}"
                command.sent = perf()
                async with http.post(url, data=form, headers=headers) as response:
                    body = await response.text()
                seqs = [int(s) for s in EVENT_ID.findall(body)]
                if response.status != 200:
                    command.failure = f"HTTP {response.status}"
                elif not seqs:
                    command.failure = "no event in the answer: " + _text(body)[:120]
                else:
                    command.seq = max(seqs)
        except Exception as error:  # noqa: BLE001 (a failed command is a figure, not a crash)
            command.failure = f"{type(error).__name__} {error}".strip()[:160]
            command.seq = None
        command.answered = True

    def done(self, command: Command) -> bool:
        if not command.answered:
            return False
        if command.seq is None:
            return True
        return all(command.seq in s.arrivals for s in self.socks[command.table])

    async def wait(self, commands: list[Command], deadline: float) -> None:
        pending = [c for c in commands if not self.done(c)]
        while pending and perf() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(0.05, deadline - perf()))
            except TimeoutError:
                pass
            pending = [c for c in pending if not self.done(c)]

    def stats(self, commands: list[Command]) -> Stats:
        st = Stats(commands=len(commands))
        for c in commands:
            if not c.answered or c.seq is None:
                st.failed += 1
                st.failures[c.failure or "no answer in time"] += 1
                st.latencies.append(math.inf)
                continue
            socks = self.socks[c.table]
            times = [s.arrivals.get(c.seq) for s in socks]
            missing = sum(t is None for t in times)
            st.lost += missing
            st.duplicated += sum(max(0, s.counts[c.seq] - 1) for s in socks)
            st.latencies.append(math.inf if missing else max(times) - c.sent)
        return st

    # --- phases

    async def warm_up(self) -> None:
        """One socket and two commands per server process, so imports, templates and
        the first connections are not counted in RSS per socket or the first phase."""
        for proc in range(len(self.side.ports)):
            seat = self.tables[0].seats[0]
            sock = Sock(self, 0, seat, proc)
            if not await sock.open():
                raise RuntimeError(f"{self.name}: warm-up socket failed: {sock.error}")
            self.socks = [[sock]] + [[] for _ in self.tables[1:]]
            commands = []
            for _ in range(2):
                command = self.next_command()
                command.table, command.proc = 0, proc
                command.seat = self.tables[0].rollers[0]
                await self.send(command)
                commands.append(command)
            await self.wait(commands, perf() + 20)
            await sock.close()
        self.socks = []
        self.turn = 0
        await asyncio.sleep(0.5)

    async def closed_loop(self) -> list[float]:
        """One command at a time on table 0, each awaited on all its sockets
        (at most CLOSED_LOOP_WAIT_S each, CLOSED_LOOP_BUDGET_S in all)."""
        out, end = [], perf() + CLOSED_LOOP_BUDGET_S
        for i in range(CLOSED_LOOP_WARMUP + CLOSED_LOOP_N):
            if perf() > end:
                break
            command = Command(0, self.tables[0].rollers[i % len(self.tables[0].rollers)], 0)
            await self.send(command)
            await self.wait([command], perf() + CLOSED_LOOP_WAIT_S)
            if i >= CLOSED_LOOP_WARMUP:
                out.extend(self.stats([command]).latencies)
        return out

    async def phase(self, rate: float, seconds: float) -> Stats:
        """Open loop: command i is sent at start + i/rate, whatever the answers do."""
        n = max(1, round(rate * seconds))
        me, cpu0 = psutil.Process(), self.side.cpu_s()
        client0, busy0 = sum(me.cpu_times()[:2]), busy_s()
        commands, tasks, late = [], [], 0.0
        start = perf() + 0.05
        for i in range(n):
            command = self.next_command()
            command.due = start + i / rate
            delay = command.due - perf()
            if delay > 0:
                await asyncio.sleep(delay)
            late = max(late, perf() - command.due)
            commands.append(command)
            tasks.append(asyncio.create_task(self.send(command)))
        await self.wait(commands, perf() + DRAIN_S)
        for task in tasks:
            task.cancel()  # unanswered by now: counted as failed
        st = self.stats(commands)
        self.account(st, start, cpu0, client0, busy0)
        st.late_ms = late * 1000
        self.tally_sockets(st)
        return st

    async def all_at_once(self, rounds: int) -> Stats:
        """Each round, one command to every table at the same moment (all sent as
        tasks together), awaited on all their sockets as phase() does. Rounds start
        idle (a pause, then quiet()); CPU is counted over the rounds, not the pauses."""
        me, commands, st = psutil.Process(), [], Stats()
        for i in range(rounds):
            if i:
                await asyncio.sleep(BURST_PAUSE_S)
                await self.quiet()
            cpu0, client0, busy0 = self.side.cpu_s(), sum(me.cpu_times()[:2]), busy_s()
            batch = [self.next_command() for _ in self.tables]  # round-robin: each table once
            start = perf()
            for command in batch:
                command.due = start
            tasks = [asyncio.create_task(self.send(command)) for command in batch]
            await self.wait(batch, perf() + DRAIN_S)
            for task in tasks:
                task.cancel()  # unanswered by now: counted as failed
            self.account(st, start, cpu0, client0, busy0)
            sent = [c.sent - start for c in batch if not math.isnan(c.sent)]
            st.late_ms = max(st.late_ms, max(sent, default=0.0) * 1000)
            commands += batch
        figures = self.stats(commands)
        for name in ("wall_s", "cpu_ms", "idle_ms", "client_cpu_ms", "other_cpu_ms", "late_ms"):
            setattr(figures, name, getattr(st, name))
        self.tally_sockets(figures)
        return figures

    def account(self, st: Stats, start: float, cpu0: float, client0: float, busy0: float) -> None:
        """Add the wall and CPU time since `start` (servers, this client, the rest of the
        machine, and the idle sockets' share) to st."""
        wall = perf() - start
        cpu_ms = (self.side.cpu_s() - cpu0) * 1000
        client_ms = (sum(psutil.Process().cpu_times()[:2]) - client0) * 1000
        st.wall_s += wall
        st.cpu_ms += cpu_ms
        st.idle_ms += self.idle_cpu * wall * 1000
        st.client_cpu_ms += client_ms
        st.other_cpu_ms += (busy_s() - busy0) * 1000 - cpu_ms - client_ms

    def tally_sockets(self, st: Stats) -> None:
        st.out_of_order = sum(s.out_of_order for row in self.socks for s in row)
        st.closes = sum(s.closes for row in self.socks for s in row)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --- Report -----------------------------------------------------------------------------


def fmt_ms(seconds: float) -> str:
    if seconds == math.inf:
        return "lost"
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.1f}"


def ratio(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b) or b == 0:
        return math.nan
    return a / b


def fmt_ratio(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def rate_label(rate: float) -> str:
    return f"{rate:g}/s"


def print_phase(rate: float, seconds: float, relay: Stats, app: Stats) -> None:
    print(f"\nRate {rate_label(rate)} for {seconds:g} s ({relay.commands} commands per side)")
    print_figures(relay, app)


def print_all_at_once(tables: int, rounds: int, relay: Stats, app: Stats) -> None:
    print(
        f"\nAll tables at once: one command to each of the {tables} tables together,"
        f" {rounds} round(s) {BURST_PAUSE_S:g} s apart (figures over all rounds)"
    )
    print_figures(relay, app, (50, 95, 100), "commands sent (last send's lag, ms)")


def print_figures(
    relay: Stats,
    app: Stats,
    quantiles=(50, 95, 99),
    sent_label: str = "commands sent (worst lag, ms)",
) -> None:
    """One phase's figures, relay and app side by side (q=100 is the max)."""

    def row(label, r, a, rat=""):
        print(f"  {label:<38}{r:>12}{a:>12}{rat:>11}")

    row("", "relay", "app", "app/relay")
    row(
        sent_label,
        f"{relay.commands} ({relay.late_ms:.0f})",
        f"{app.commands} ({app.late_ms:.0f})",
    )
    row("delivered to all its table's sockets", relay.delivered, app.delivered)
    for q in quantiles:
        r, a = relay.pct(q), app.pct(q)
        name = "max" if q == 100 else f"p{q}"
        row(
            f"latency sent -> last socket {name} (ms)", fmt_ms(r), fmt_ms(a), fmt_ratio(ratio(a, r))
        )
    row(
        "lost deliveries / duplicated",
        f"{relay.lost} / {relay.duplicated}",
        f"{app.lost} / {app.duplicated}",
    )
    row("failed commands", relay.failed, app.failed)
    row(
        "out of order / socket closes (all time)",
        f"{relay.out_of_order} / {relay.closes}",
        f"{app.out_of_order} / {app.closes}",
    )
    rc, ac = relay.cpu_per_command, app.cpu_per_command
    row("server CPU per command (ms)", f"{rc:.2f}", f"{ac:.2f}", fmt_ratio(ratio(ac, rc)))
    rg, ag = relay.gross_cpu_per_command, app.gross_cpu_per_command
    row("  gross, with the idle sockets' (ms)", f"{rg:.2f}", f"{ag:.2f}", fmt_ratio(ratio(ag, rg)))
    for name, st in (("relay", relay), ("app", app)):
        if st.delivered < st.commands:
            print(f"  {name}: not drained in time, its CPU per command is a lower bound")
    for label, attr in (
        ("server CPU (% of one core)", "cpu_ms"),
        ("bench client CPU (% of one core)", "client_cpu_ms"),
        ("other processes' CPU (% of one core)", "other_cpu_ms"),
    ):
        row(label, *(f"{getattr(st, attr) / st.wall_s / 10:.0f} %" for st in (relay, app)))
    for name, st in (("relay", relay), ("app", app)):
        for reason, count in st.failures.most_common(3):
            print(f"  {name} failed x{count}: {reason}")


def print_connect(run: SideRun) -> None:
    c = run.connect
    hs, ready = c["handshake"], c["ready"]
    print(
        f"  {run.name:<6}{c['sockets']} sockets in {c['wall_s']:.1f} s,"
        f" {c['failed']} failed; handshake p50 {fmt_ms(pct(hs, 50))} ms,"
        f" ready p50/p95/max {fmt_ms(pct(ready, 50))} / {fmt_ms(pct(ready, 95))} /"
        f" {fmt_ms(max(ready, default=math.nan))} ms;"
        f" RSS {run.rss_per_socket / 1024:.1f} KiB per socket"
    )
    print(
        f"        CPU while opening: server {c['server_cpu_s']:.1f} s,"
        f" bench client {c['client_cpu_s']:.1f} s (of {c['wall_s']:.1f} s wall);"
        f" then {c['settle_s']:.1f} s until the frames stopped"
    )
    for error, count in c["errors"].most_common(3):
        print(f"        x{count}: {error}")
    if c["left_out"]:
        print(f"        {c['left_out']} sockets still failing after 3 retries: left out")


def print_logs(runs: list[SideRun]) -> None:
    for run in runs:
        tracebacks, last = 0, ""
        for proc in run.side.procs:
            text = proc.log.read_text(errors="replace") if proc.log.exists() else ""
            tracebacks += text.count("Traceback (most recent call last)")
            errors = [line for line in text.splitlines() if re.match(r"\w*(Error|Exception)", line)]
            last = errors[-1] if errors else last
        codes = ", ".join(f"{code}: {n}" for code, n in run.close_codes.most_common())
        if tracebacks or codes:
            print(
                f"  {run.name} server: {tracebacks} tracebacks in its log"
                + (f" (last: {last[:120]})" if last else "")
                + (f"; sockets closed by the server, by code: {codes}" if codes else "")
            )


# --- The run ----------------------------------------------------------------------------


class Bench:
    def __init__(self, args):
        self.args = args
        self.stopping = False
        self.csrf = secrets.token_hex(16)  # a 32-character CSRF secret, sent as cookie and header
        self.cookie_name = "sessionid"
        self.csrf_cookie = "csrftoken"
        self.ws_session: aiohttp.ClientSession | None = None
        self.http_session: aiohttp.ClientSession | None = None

    async def sessions(self) -> None:
        jar = aiohttp.DummyCookieJar()  # each request carries its user's cookie itself
        self.ws_session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0),
            cookie_jar=jar,
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=CONNECT_TIMEOUT_S),
        )
        self.http_session = aiohttp.ClientSession(
            # Below uvicorn's 5 s keep-alive: a pooled connection the server is closing
            # just then fails the request ("Can not write request body"), which happened
            # when all tables' commands went out after a long wait.
            connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=KEEPALIVE_S),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT_S),
        )

    async def close_sessions(self) -> None:
        for session in (self.ws_session, self.http_session):
            if session is not None:
                await session.close()

    async def run(self, relay: SideRun, app: SideRun) -> None:
        args = self.args
        interrupt_on_signals(asyncio.current_task())
        await self.sessions()
        try:
            for run in (relay, app):
                await run.warm_up()
            shape = f"{args.tables}×{args.sockets}"
            print(f"\nOpen {shape} sockets per side, all at once")
            for run in (relay, app):
                await run.open_all()
                print_connect(run)
            cpu0 = [run.side.cpu_s() for run in (relay, app)]
            await asyncio.sleep(IDLE_S)
            for run, before in zip((relay, app), cpu0, strict=True):
                run.idle_cpu = (run.side.cpu_s() - before) / IDLE_S
            print(
                f"  idle, heartbeats only ({IDLE_S:g} s): server CPU relay"
                f" {relay.idle_cpu * 100:.0f} %, app {app.idle_cpu * 100:.0f} % of one core"
            )
            print(f"\nClosed loop, table 1 ({args.sockets} sockets): one command at a time")
            loops = {}
            for run in (relay, app):
                loops[run.name] = await run.closed_loop()
                lat = loops[run.name]
                late = sum(1 for v in lat if v == math.inf)
                print(
                    f"  {run.name:<6}p50 {fmt_ms(pct(lat, 50))} ms, p95 {fmt_ms(pct(lat, 95))} ms"
                    f" ({len(lat)} commands; {late} not on every socket"
                    f" within {CLOSED_LOOP_WAIT_S:g} s)"
                )
            print(
                "  ratio app/relay p50 "
                f"{fmt_ratio(ratio(pct(loops['app'], 50), pct(loops['relay'], 50)))}"
            )
            if args.rounds:
                burst = {}
                for run in (relay, app):
                    await run.quiet()
                    burst[run.name] = await run.all_at_once(args.rounds)
                    for dead in run.side.dead():
                        raise RuntimeError(f"{dead.name} died:\n{dead.tail()}")
                print_all_at_once(args.tables, args.rounds, burst["relay"], burst["app"])
            results = {}
            for rate in sorted(set(args.rate)):
                phase = {}
                for run in (relay, app):
                    await run.quiet()
                    phase[run.name] = await run.phase(rate, args.seconds)
                    for dead in run.side.dead():
                        raise RuntimeError(f"{dead.name} died:\n{dead.tail()}")
                results[rate] = phase
                print_phase(rate, args.seconds, phase["relay"], phase["app"])
            self.summary(shape, results, relay, app)
        finally:
            self.stopping = True
            for run in (relay, app):
                await run.close_all()
            await self.close_sessions()

    def summary(self, shape, results, relay: SideRun, app: SideRun) -> None:
        def best(name):
            ok = [r for r, p in results.items() if p[name].pct(50) < SUSTAIN_P50_S]
            return max(ok) if ok else None

        top = max(results)
        rb, ab = best("relay"), best("app")
        rates = ", ".join(rate_label(r) for r in sorted(results))
        print(
            f"\nHighest rate run with p50 < {SUSTAIN_P50_S * 1000:.0f} ms (of {rates}):"
            f" relay {rate_label(rb) if rb else 'none'}, app {rate_label(ab) if ab else 'none'}"
        )
        print_logs([relay, app])
        if rb is None:
            saturation = math.nan
        else:
            saturation = (ab or 0) / rb
        last = results[top]
        p99 = ratio(last["app"].pct(99), last["relay"].pct(99))
        cpu = ratio(last["app"].cpu_per_command, last["relay"].cpu_per_command)
        print(
            f"ratio app/relay at {shape}, {rate_label(top)}: p99 {p99:.2f}, cpu {cpu:.2f},"
            f" saturation {saturation:.2f}"
        )


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="live_bench.py side",
        description="The app against a bare Channels relay: real servers, real sockets.",
    )
    parser.add_argument("--tables", type=int, default=10, help="tables (default 10)")
    parser.add_argument("--sockets", type=int, default=8, help="sockets per table: 1 GM + players")
    parser.add_argument(
        "--rate", type=float, action="append", help="commands/s across the site (repeatable)"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each rate's phase")
    parser.add_argument("--processes", type=int, default=1, help="server processes per side")
    parser.add_argument("--redis", action="store_true", help="channels_redis on a throwaway redis")
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    parser.add_argument(
        "--command",
        choices=sorted(COMMANDS),
        default="roll",
        help="what the app is sent: a Momenta roll (default), or a table-talk message,"
        " the cheapest command that appends an event (the stack's floor)",
    )
    parser.add_argument(
        "--languages",
        type=int,
        default=1,
        help=f"languages read at each table, 1 to {len(LANGUAGES)} (default 1): each is"
        " one more frame to draw per audience",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=BURST_ROUNDS,
        help=f"rounds of the all-tables-at-once phase (default {BURST_ROUNDS}; 0 skips it)",
    )
    args = parser.parse_args(argv)
    args.rate = args.rate or [5.0]
    if args.sockets < 2:
        parser.error("--sockets must be at least 2 (a GM and a player who rolls)")
    if args.tables < 1 or any(r <= 0 for r in args.rate) or args.seconds <= 0:
        parser.error("--tables, --rate and --seconds must be positive")
    if args.rounds < 0:
        parser.error("--rounds must be 0 or more")
    if not 1 <= args.languages <= len(LANGUAGES):
        parser.error(f"--languages must be from 1 to {len(LANGUAGES)}")
    if args.processes > 1 and not args.redis:
        parser.error("--processes > 1 needs --redis (the in-memory layer is one process)")
    return args


def main(argv: list[str]) -> None:
    args = parse(argv)
    t0 = perf()
    os.environ.pop("REDIS_URL", None)  # --redis starts its own; seeding needs no layer
    tmp = setup_django()
    side_procs: list[Side] = []
    redis = None
    interrupted = False

    def on_term(signum, frame):  # a plain kill cleans up like Ctrl-C (until the loop runs)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        from django.conf import settings

        tables = seed(args.tables, args.sockets, args.languages)
        env = dict(os.environ)
        for name in ("DATABASE_URL", "DEBUG", "REDIS_URL"):
            env.pop(name, None)
        env.update(
            DJANGO_SETTINGS_MODULE="momenta_site.settings",
            PYTHONPATH=str(ROOT),
            LOG_LEVEL="WARNING",
        )
        layer = "in-memory layer"
        relay_env, app_env = dict(env), dict(env)
        if args.redis:
            redis, url = start_redis(tmp)
            # The relay's groups are named like the app's. Pub/sub channels ignore the
            # database number, so each side also gets its own channel prefix.
            relay_env["REDIS_URL"], app_env["REDIS_URL"] = f"{url}/1", f"{url}/0"
            relay_env["CHANNEL_LAYER_PREFIX"] = "bench-relay"
            layer = "channels_redis (throwaway redis-server)"
        relay_side = Side("relay", RELAY, args.server, args.processes, relay_env, ROOT, tmp)
        side_procs.append(relay_side)
        app_side = Side("app", APP, args.server, args.processes, app_env, ROOT, tmp)
        side_procs.append(app_side)
        relay_side.wait_ready()
        app_side.wait_ready()
        print(
            f"Side by side: {args.tables}×{args.sockets} sockets per side,"
            f" {args.processes} {args.server} process(es) per side, {layer},"
            f" the app sent {args.command} commands,"
            f" {args.languages} language(s) at each table,"
            f" SQLite file in {tmp}; {os.cpu_count()} CPUs, load average"
            f" {os.getloadavg()[0]:.1f}; setup {perf() - t0:.1f} s"
        )
        bench = Bench(args)
        bench.cookie_name = settings.SESSION_COOKIE_NAME
        bench.csrf_cookie = settings.CSRF_COOKIE_NAME
        relay = SideRun(bench, "relay", relay_side, tables)
        app = SideRun(bench, "app", app_side, tables)
        _run_loop(bench.run(relay, app))
    except (KeyboardInterrupt, asyncio.CancelledError):
        interrupted = True
    finally:
        for side in side_procs:
            side.stop()
        if redis is not None:
            redis.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if interrupted:
        print("Interrupted: servers stopped.", file=sys.stderr)
        raise SystemExit(130)


def interrupt_on_signals(task: asyncio.Task) -> None:
    """Inside the loop, Ctrl-C and SIGTERM cancel the run, so its `finally` closes
    the sockets and main() stops the servers (an exception raised from a signal
    handler would be swallowed by whichever transport callback it lands in)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not signal.SIG_IGN:  # e.g. SIGINT of a background job
            loop.add_signal_handler(sig, task.cancel)
    loop.add_signal_handler(signal.SIGUSR1, dump_tasks)


def dump_tasks() -> None:
    """`kill -USR1 <bench pid>`: where each task waits, on stderr (a run that seems stuck)."""
    for task in asyncio.all_tasks():
        task.print_stack(limit=8, file=sys.stderr)


def _run_loop(coro) -> None:
    try:
        import uvloop  # the bench client holds thousands of sockets: the faster loop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])

"""Does a worker's memory level off under play (issue 41)? Figures, no assertions.

Run from the project root: `.venv/bin/python bench/memory_soak.py --minutes 20`
(options: --rate, --players, --redis, --frames, --churn, --top; `--help`).

One worker as production runs it (`manage.py serve`'s uvicorn command line, one
process, DEBUG off, collected static files, a temp SQLite file; with --redis
channels_redis and Django's Redis cache on a throwaway redis-server), serving
bench/soak_app.py: the app with tracemalloc started before Django when --frames > 0.
Beside it a bare Channels relay (bench/relay_app.py) under the same sockets.

Seeded: a Momenta table and a 2d20 table, each a GM, --players players with a
character and an observer (7 sockets each by default: 14), the seats reading English,
German, French and Spanish in turn (issue 28). Every seat's socket is open on both
servers, sends the page's heartbeat every 25 s, and (--churn) one socket at a time
goes away and comes back after a page load, as a reloaded page does. Commands are
sent open loop at --rate per second, the tables in turn, each table's steps in a
fixed cycle (one at a time per table, as its people would): Momenta and 2d20 rolls,
2d20 spends, Threat and pool changes, table talk, scene board traits added and
removed, a conflict's turns, harm and recovery. After each command the relay's
table gets one frame too.

Every minute: the worker's and the relay's RSS, commands answered and refused, and
the top tracemalloc growth by file:line since the first minute (the worker writes a
snapshot, this process compares: `[...]` names the nearest frame of the project's
own code that made the allocation). The last line is the worker's RSS growth over
the second half of the run, a least-squares slope over samples every 5 s, against
0.5 MB a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import time
import tracemalloc
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from seed import make_table, setup_django  # bench/seed.py, a sibling
from servers import HOST, Process, Side, free_port, start_redis, wait_http

ROOT = Path(__file__).resolve().parents[1]
APP = "bench.soak_app:application"
RELAY = "bench.relay_app:application"
MB = 1024 * 1024
PING_S = 25.0  # the page's heartbeat (static/tables/live.js)
SAMPLE_S = 5.0  # RSS sampled this often, for the slope
LIMIT_MB_PER_MIN = 0.5  # issue 41's done-when line
LANGUAGES = ("en", "de", "fr", "es")
EVENT_ID = re.compile(r'id="event-(\d+)"')
TEST_ID = re.compile(r"/d20/tests/(\d+)/spend/")
TRAIT_ID = re.compile(r'name="trait" value="(\d+)"')
ALERT = 'role="alert"'


# --- Seeding (Django in this process, before the servers start) -------------------------


@dataclass
class Seat:
    username: str
    cookie: str
    role: str  # gm, player, observer
    character_id: int | None = None
    language: str = "en"


@dataclass
class Table:
    index: int
    campaign_id: int
    ruleset: str  # momenta, d20
    seats: list[Seat]
    # What the cycle learns from answers: the last roll's log number, a test, a trait.
    last_roll_seq: int | None = None
    last_test_id: int | None = None
    trait_ids: list[int] = field(default_factory=list)
    turn_order: list[Seat] = field(default_factory=list)  # the running conflict's, to act
    step: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def gm(self) -> Seat:
        return self.seats[0]

    @property
    def players(self) -> list[Seat]:
        return [s for s in self.seats if s.role == "player"]


def _d20_table(name, gm, players) -> tuple[int, list[tuple[object, int]]]:
    """A 2d20 campaign (through the service), a character per player and an NPC."""
    from tables.models import Campaign, Character, Membership
    from tables.services.campaigns import create_campaign

    campaign = create_campaign(gm, name, Campaign.Preset.D20)
    seats = []
    for i, player in enumerate(players):
        Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
        hero = Character.objects.create(
            campaign=campaign, owner=player, name=f"Agent {i}", determination=1
        )
        hero.attributes.create(name="Power", value=7)
        hero.skills.create(name="Communicate", value=6)
        hero.traits.create(kind="focus", text="Persuasion")
        seats.append((player, hero.pk))
    return campaign.pk, seats


def seed(players: int) -> list[Table]:
    """A Momenta table and a 2d20 table: a GM, players with characters, an observer; a
    session and a scene started, every character's harm tracks set."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.db import connections, transaction

    from tables.models import Membership, PersonSettings
    from tables.policy.locale import remember
    from tables.services import harm, sessions

    User = get_user_model()
    store = import_module(settings.SESSION_ENGINE).SessionStore

    def login(user) -> str:  # what django.contrib.auth.login stores
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        remember(session, PersonSettings.of(user))
        session.create()
        return session.session_key

    tables = []
    with transaction.atomic():
        for index, ruleset in enumerate(("momenta", "d20")):
            gm = User.objects.create_user(username=f"{ruleset}-gm", password=None)
            people = [
                User.objects.create_user(username=f"{ruleset}-p{i}", password=None)
                for i in range(players)
            ]
            observer = User.objects.create_user(username=f"{ruleset}-obs", password=None)
            make = make_table if ruleset == "momenta" else _d20_table
            campaign_id, heroes = make(f"Soak {ruleset}", gm, people)
            Membership.objects.create(
                campaign_id=campaign_id, user=observer, role=Membership.Role.OBSERVER
            )
            everyone = [(gm, "gm", None), *((p, "player", h) for p, h in heroes)]
            everyone.append((observer, "observer", None))
            seats = []
            for i, (user, role, hero) in enumerate(everyone):
                language = LANGUAGES[i % len(LANGUAGES)]
                PersonSettings.objects.create(user=user, language=language)
                seats.append(Seat(user.username, login(user), role, hero, language))
            sessions.start_session(campaign_id, gm)
            sessions.start_scene(campaign_id, gm, "The long night")
            tracks = ("harm", "strain") if ruleset == "momenta" else ("stress", "injuries")
            for _, hero in heroes:
                for track in tracks:
                    harm.set_track(campaign_id, gm, hero, track, 10 if track != "injuries" else 3)
            tables.append(Table(index, campaign_id, ruleset, seats))
    connections.close_all()
    return tables


# --- The commands: one table's cycle -----------------------------------------------------


class Client:
    """HTTP as the page does it: the session cookie, a CSRF cookie and header, htmx."""

    def __init__(self, base: str, cookie_name: str, csrf_cookie: str):
        self.base, self.cookie_name, self.csrf_cookie = base, cookie_name, csrf_cookie
        self.csrf = secrets.token_hex(16)
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=4),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=60),
        )

    def headers(self, seat: Seat) -> dict:
        return {
            "Cookie": f"{self.cookie_name}={seat.cookie}; {self.csrf_cookie}={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Origin": self.base,
        }

    async def post(self, table: Table, seat: Seat, path: str, data) -> tuple[int, str]:
        url = f"{self.base}/campaigns/{table.campaign_id}/{path}"
        # Every command the page sends carries a key of its own (static/tables/commands.js).
        headers = self.headers(seat) | {"Idempotency-Key": str(uuid.uuid4())}
        async with self.http.post(url, data=data, headers=headers) as answer:
            return answer.status, await answer.text()

    async def page(self, table: Table, seat: Seat) -> int:
        url = f"{self.base}/campaigns/{table.campaign_id}/table/"
        headers = {k: v for k, v in self.headers(seat).items() if k != "HX-Request"}
        async with self.http.get(url, headers=headers) as answer:
            await answer.read()
            return answer.status


def _player(table: Table) -> Seat:
    return table.players[table.step % len(table.players)]


def _other(table: Table, seat: Seat) -> Seat:
    players = table.players
    return players[(players.index(seat) + 1) % len(players)]


def _momenta_roll(table):
    seat = _player(table)
    attribute = ("WITS", "GRIT", "LUCK")[table.step % 3]
    form = {"character": seat.character_id, "attribute": attribute, "kind": "action"}
    return seat, "momenta/roll/", form | {"play": "narrative"}


def _d20_roll(table):
    seat = _player(table)
    form = {
        "character": seat.character_id,
        "attribute": "Power",
        "skill": "Communicate",
        "focus": "",
        "difficulty": table.step % 3,
        "harder": 0,
        "easier": 0,
        "bought_dice": 0,
        "buy_from_momentum": 0,
        "bonus_momentum": 0,
    }
    return seat, "d20/roll/", form


def _d20_spend(table):
    if table.last_test_id is None:
        return None
    form = {"kind": "obtain_information", "note": "Who sent them?", "to_threat": 1}
    # The test's roller spends: the player the cycle had roll it.
    seat = table.players[(table.step - 1) % len(table.players)]
    return seat, f"d20/tests/{table.last_test_id}/spend/", form | {"from_pool": 0}


def _talk(table):
    speakers = [s for s in table.seats if s.role != "observer"]  # observers only listen
    seat = speakers[table.step % len(speakers)]
    mode = "ooc" if seat.role != "player" else ("ic", "ooc")[table.step % 2]
    return seat, "table/talk/", {"mode": mode, "text": f"Step {table.step}: onwards."}


def _threat(table):
    action = ("add", "spend")[table.step % 2]
    return table.gm, "gm/threat/", {"action": action, "amount": 1, "reason": "Soak"}


def _pool(table):
    seat = _player(table)
    pool, character = (
        ("momentum", seat.character_id) if table.ruleset == "momenta" else ("group_momentum", "")
    )
    form = {"pool": pool, "character": character, "reason": "Soak"}
    return table.gm, "pools/", form | {"delta": (1, -1)[table.step % 2]}


def _trait_add(table):
    form = {"action": "add", "text": f"Fog bank {table.step}", "hidden": ("", "1")[table.step % 2]}
    return table.gm, "table/board/", form


def _trait_remove(table):
    if not table.trait_ids:
        return None
    return table.gm, "table/board/", {"action": "remove", "trait": table.trait_ids.pop()}


def _turn_start(table):
    """A conflict with every player's character, a different one first each time."""
    players = table.players
    first = table.step % len(players)
    table.turn_order = players[first:] + players[:first]
    ids = [s.character_id for s in table.turn_order]
    return table.gm, "table/turns/", {"action": "start", "character": ids}


def _turn_choose(table):
    """2d20 (sides): the players' side chooses who acts (Momenta's order starts itself)."""
    seat = table.turn_order[0]
    return seat, "table/turns/", {"action": "choose", "character": seat.character_id}


def _turn_end(table):
    """The acting character's player ends the turn (Momenta: the next acts by order)."""
    seat = table.turn_order.pop(0)
    return seat, "table/turns/", {"action": "end", "character": seat.character_id}


def _turn_stop(table):
    return table.gm, "table/turns/", {"action": "end_conflict"}


def _harm(table):
    seat = _player(table)
    if table.ruleset == "momenta":
        # Momenta hits need an attack template's roll: the GM sets the track instead.
        maximum = (10, 9)[table.step % 2]
        form = {"action": "set_track", "character": seat.character_id, "track": "harm"}
        return table.gm, "table/harm/", form | {"maximum": maximum}
    if table.last_roll_seq is None:
        return None
    form = {"action": "hit", "roll_seq": table.last_roll_seq, "character": seat.character_id}
    return table.gm, "table/harm/", form | {"track": "stress", "amount": 2, "reason": "Soak"}


def _recover(table):
    seat = table.players[(table.step - 1) % len(table.players)]
    track = "harm" if table.ruleset == "momenta" else "stress"
    form = {"action": "recover", "character": seat.character_id, "track": track}
    return table.gm, "table/harm/", form | {"amount": 1, "reason": "Rest"}


MOMENTA_CYCLE = (
    ("roll", _momenta_roll),
    ("talk", _talk),
    ("threat", _threat),
    ("trait+", _trait_add),
    ("roll", _momenta_roll),
    ("turn", _turn_start),
    ("turn", _turn_end),
    ("pool", _pool),
    ("turn", _turn_end),
    ("trait-", _trait_remove),
    ("turn", _turn_stop),
    ("harm", _harm),
    ("roll", _momenta_roll),
    ("talk", _talk),
)
D20_CYCLE = (
    ("roll", _d20_roll),
    ("spend", _d20_spend),
    ("talk", _talk),
    ("harm", _harm),
    ("recover", _recover),
    ("trait+", _trait_add),
    ("threat", _threat),
    ("roll", _d20_roll),
    ("spend", _d20_spend),
    ("turn", _turn_start),
    ("turn", _turn_choose),
    ("turn", _turn_end),
    ("trait-", _trait_remove),
    ("turn", _turn_stop),
    ("pool", _pool),
)


@dataclass
class Tally:
    ok: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    failed: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)  # the first words of each refusal

    def total(self) -> tuple[int, int, int]:
        return sum(self.ok.values()), sum(self.refused.values()), sum(self.failed.values())


def _learn(table: Table, text: str) -> None:
    seqs = [int(s) for s in EVENT_ID.findall(text)]
    tests = TEST_ID.findall(text)
    if seqs:
        table.last_roll_seq = max(seqs)
    if tests:
        table.last_test_id = int(tests[-1])


async def command(client: Client, relay: Client, table: Table, tally: Tally) -> None:
    """The table's next step; its answer noted; one frame to the relay's table."""
    async with table.lock:
        cycle = MOMENTA_CYCLE if table.ruleset == "momenta" else D20_CYCLE
        kind, make = cycle[table.step % len(cycle)]
        made = make(table)
        table.step += 1
        if made is None:
            return
        seat, path, form = made
        try:
            status, text = await client.post(table, seat, path, form)
        except (TimeoutError, aiohttp.ClientError) as error:
            tally.failed[kind] += 1
            tally.reasons[f"{kind}: {type(error).__name__}"] += 1
            return
        if status == 200 and ALERT not in text:
            tally.ok[kind] += 1
            if kind == "roll":
                _learn(table, text)
            elif kind == "trait+":
                ids = [int(t) for t in TRAIT_ID.findall(text)]
                if ids:
                    table.trait_ids.append(max(ids))
        elif status in (200, 409):
            tally.refused[kind] += 1
            said = re.search(r'role="alert"[^>]*>\s*([^<]{0,60})', text)
            tally.reasons[f"{kind}: {said.group(1).strip() if said else status}"] += 1
        else:
            tally.failed[kind] += 1
            tally.reasons[f"{kind}: HTTP {status}"] += 1
    try:
        url = f"{relay.base}/campaigns/{table.campaign_id}/send/?seq={table.step}"
        async with relay.http.post(url) as answer:
            await answer.read()
    except (TimeoutError, aiohttp.ClientError):
        tally.failed["relay"] += 1


# --- Sockets -------------------------------------------------------------------------------


class Socket:
    """One seat's socket on one server, read to the end, pinged as the page does."""

    def __init__(self, base: str, table: Table, seat: Seat, cookie_name: str, app: bool):
        self.base, self.table, self.seat, self.cookie_name, self.app = (
            base,
            table,
            seat,
            cookie_name,
            app,
        )
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.last = 0  # the highest seq received, for ?after= on reconnect
        self.frames = 0
        self.reconnects = 0
        self.tasks: list[asyncio.Task] = []

    async def open(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/campaigns/{self.table.campaign_id}/"
        if self.app and self.last:
            url += f"?after={self.last}"
        headers = {"Origin": self.base, "Cookie": f"{self.cookie_name}={self.seat.cookie}"}
        self.ws = await self.session.ws_connect(url, headers=headers, max_msg_size=0)
        if self.app:  # the app's replay ends with `ready`
            while True:
                message = await asyncio.wait_for(self.ws.receive(), 60)
                if message.type != aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"socket closed before ready ({self.ws.close_code})")
                if self._note(message.data) == "ready":
                    break
        ws = self.ws
        self.tasks = [asyncio.create_task(self._read(ws)), asyncio.create_task(self._ping(ws))]

    def _note(self, data: str) -> str | None:
        frame = json.loads(data)
        seq = frame.get("seq")
        if isinstance(seq, int):
            self.last = max(self.last, seq)
        self.frames += 1
        return frame.get("type")

    async def _read(self, ws) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self._note(message.data)

    async def _ping(self, ws) -> None:
        await asyncio.sleep(random.uniform(0, PING_S))
        while not ws.closed:
            await ws.send_str(json.dumps({"type": "ping"}))
            await asyncio.sleep(PING_S)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.ws is not None:
            await self.ws.close()

    async def reopen(self) -> None:
        await self.close()
        self.reconnects += 1
        await self.open()

    async def stop(self) -> None:
        await self.close()
        await self.session.close()


# --- tracemalloc, compared here ------------------------------------------------------------


def _own(filename: str) -> bool:
    """A file of the project's own code (not the venv, the standard library or the bench)."""
    return filename.startswith(str(ROOT)) and not filename.startswith(
        (str(ROOT / ".venv"), str(ROOT / "bench"))
    )


def _short(filename: str) -> str:
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1]
    if filename.startswith(str(ROOT)):
        return filename[len(str(ROOT)) + 1 :]
    return "/".join(filename.split("/")[-2:])


def grouped(snapshot: tracemalloc.Snapshot) -> dict[tuple, list[int]]:
    """{(allocating file:line, nearest own frame): [bytes, blocks]} of a snapshot.

    Reads the raw traces (a tuple per block, frames most recent first) rather than
    building a Trace object per block: a worker holds ~10^6 of them."""
    out: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for _domain, size, frames, *_ in snapshot.traces._traces:
        site = frames[0]
        if site[0].endswith(("tracemalloc.py", "soak_app.py")):
            continue
        own = next((f for f in frames if _own(f[0])), None)
        row = out[(site, own)]
        row[0] += size
        row[1] += 1
    return out


def growth(before: dict, after: dict, top: int) -> list[tuple[int, int, tuple]]:
    """The `top` largest growths by allocating line (each with its largest own caller)."""
    by_site: dict[tuple, list] = defaultdict(lambda: [0, 0, Counter()])
    for key in before.keys() | after.keys():
        b = before.get(key, (0, 0))
        a = after.get(key, (0, 0))
        row = by_site[key[0]]
        row[0] += a[0] - b[0]
        row[1] += a[1] - b[1]
        if key[1] is not None:
            row[2][key[1]] += a[0] - b[0]
    ranked = sorted(by_site.items(), key=lambda kv: kv[1][0], reverse=True)[:top]
    return [(size, blocks, (site, callers)) for site, (size, blocks, callers) in ranked]


def print_growth(rows, label: str) -> None:
    print(f"  top tracemalloc growth {label}:")
    for size, blocks, (site, callers) in rows:
        caller = max(callers.items(), key=lambda kv: kv[1], default=(None, 0))[0]
        via = f"  [{_short(caller[0])}:{caller[1]}]" if caller and caller != site else ""
        print(f"    {size / 1024:+9.1f} KiB {blocks:+8d} blocks  {_short(site[0])}:{site[1]}{via}")


# --- The run ---------------------------------------------------------------------------------


class Worker:
    """The soak's worker: `manage.py serve`'s uvicorn command line, serving soak_app."""

    def __init__(self, env: dict, tmp: Path):
        from tables.management.commands.serve import APP as SERVED
        from tables.management.commands.serve import uvicorn_argv

        self.port = free_port()
        argv = uvicorn_argv(
            host=HOST,
            port=self.port,
            workers=1,
            graceful_timeout=15,
            access_log=False,
        )
        argv[argv.index(SERVED)] = APP
        self.log = tmp / "worker.log"
        self.proc = Process("worker", argv, env, ROOT, self.log)
        wait_http(self.proc, self.port, timeout=180)

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"


def rss_parts(pid: int) -> tuple[float, float]:
    """(anonymous, file-backed) resident MB: heap growth is anonymous, a mapped file not."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    kb = lambda name: int(fields.get(name, "0 kB").split()[0])  # noqa: E731
    return kb("RssAnon") / 1024, (kb("RssFile") + kb("RssShmem")) / 1024


def least_squares(points: list[tuple[float, float]]) -> float:
    """Slope of y on x."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


async def soak(args, worker: Worker, relay: Side, tables: list[Table], tmp: Path) -> dict:
    from django.conf import settings

    cookie, csrf = settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME
    client = Client(worker.base, cookie, csrf)
    relay_client = Client(relay.url(0), cookie, csrf)
    tally = Tally()
    sockets: list[Socket] = []
    samples: list[tuple[float, float, float]] = []  # (minutes, worker MB, relay MB)
    snapshots: dict[str, dict] = {}
    stop = asyncio.Event()

    async def snapshot(name: str) -> dict | None:
        if not args.frames:
            return None
        path = tmp / f"{name}.tracemalloc"
        url = f"{worker.base}/__memory_soak__/snapshot/?path={path}"
        async with client.http.post(url) as answer:
            figures = json.loads(await answer.text())
        loaded = await asyncio.to_thread(tracemalloc.Snapshot.load, str(path))
        snapshots[name] = await asyncio.to_thread(grouped, loaded)
        path.unlink()
        return figures

    async def cache_sizes() -> dict[str, list[int]]:
        async with client.http.post(f"{worker.base}/__memory_soak__/caches/") as answer:
            return json.loads(await answer.text())

    async def census() -> dict[str, int]:
        async with client.http.post(f"{worker.base}/__memory_soak__/census/") as answer:
            return json.loads(await answer.text())

    async def drive(table: Table, offset: float) -> None:
        """The table's steps at its share of --rate; one at a time, as its people would:
        a worker that falls behind gets no backlog, it is measured at the rate it keeps."""
        every = len(tables) / args.rate
        due = time.monotonic() + offset * every
        while not stop.is_set():
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await command(client, relay_client, table, tally)
            due = max(due + every, time.monotonic() - every)

    async def churn() -> None:
        """One seat at a time reloads its page: both its sockets go and come back."""
        order = list(range(len(sockets) // 2))
        k = 0
        while args.churn and not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), args.churn)
                return
            except TimeoutError:
                pass
            n = order[k % len(order)]
            k += 1
            app_socket, relay_socket = sockets[2 * n], sockets[2 * n + 1]
            try:
                await app_socket.close()
                await relay_socket.close()
                await client.page(app_socket.table, app_socket.seat)
                await app_socket.reopen()
                await relay_socket.reopen()
            except (TimeoutError, aiohttp.ClientError, RuntimeError) as error:
                tally.failed["reconnect"] += 1
                tally.reasons[f"reconnect: {error}"[:80]] += 1

    async def sample() -> None:
        t0 = time.monotonic()
        while not stop.is_set():
            samples.append(((time.monotonic() - t0) / 60, worker.proc.rss() / MB, relay.rss() / MB))
            try:
                await asyncio.wait_for(stop.wait(), SAMPLE_S)
            except TimeoutError:
                pass

    try:
        for table in tables:
            for seat in table.seats:
                for base, app in ((worker.base, True), (relay.url(0), False)):
                    socket = Socket(base, table, seat, cookie, app)
                    await socket.open()
                    sockets.append(socket)
        print(
            f"{len(sockets) // 2} sockets open on each side; {args.rate}/s commands for"
            f" {args.minutes:g} min (tracemalloc: {args.frames or 'off'} frames)",
            flush=True,
        )
        workers = [asyncio.create_task(w()) for w in (churn, sample)]
        workers += [asyncio.create_task(drive(t, i / len(tables))) for i, t in enumerate(tables)]
        t0 = time.monotonic()
        previous_total = (0, 0, 0)
        for minute in range(1, int(args.minutes) + 1):
            await asyncio.sleep(max(0.0, t0 + minute * 60 - time.monotonic()))
            rss, relay_rss = worker.proc.rss() / MB, relay.rss() / MB
            threads, fds = worker.proc.ps.num_threads(), worker.proc.ps.num_fds()
            figures = await snapshot(f"m{minute}")
            counted = await census() if args.census else None
            sizes = await cache_sizes()
            if minute == 1:
                first_census = counted
            total = tally.total()
            done = [a - b for a, b in zip(total, previous_total, strict=True)]
            previous_total = total
            print(
                f"min {minute:3d}  worker RSS {rss:7.1f} MB  relay RSS {relay_rss:6.1f} MB"
                f"  commands {done[0]} ok, {done[1]} refused, {done[2]} failed"
                f"  threads {threads} fds {fds}"
                + (
                    f"  traced {figures['traced'] / MB:.1f} MB"
                    f" (tracemalloc's own {figures['tracemalloc_overhead'] / MB:.1f} MB)"
                    if figures
                    else ""
                ),
                flush=True,
            )
            if figures and minute > 1:
                rows = growth(snapshots["m1"], snapshots[f"m{minute}"], args.top)
                print_growth(rows, "since min 1")
                if minute > 2:
                    del snapshots[f"m{minute - 1}"]  # only the first and the latest
            anon, file = rss_parts(worker.proc.pid)
            # The largest caches, and those only counted (bytes 0: the hubs, the layer's).
            ranked = sorted(sizes.items(), key=lambda kv: -kv[1][1])
            ranked = [kv for kv in ranked if kv[1][1] >= 0.05 * MB or not kv[1][1]]
            shown = ", ".join(
                f"{k} {n}" + (f" ({b / MB:.2f} MB)" if b else "") for k, (n, b) in ranked
            )
            print(f"  RSS anon {anon:.1f} MB, file {file:.1f} MB; caches: {shown}")
            if counted and minute > 1:
                grown = Counter(counted)
                grown.subtract(first_census)
                shown = ", ".join(f"{name} {n:+d}" for name, n in grown.most_common(args.top))
                print(f"  objects grown since min 1: {shown}")
        if args.collect_at_end:
            async with client.http.post(f"{worker.base}/__memory_soak__/collect/") as answer:
                collected = json.loads(await answer.text())
            freed = Counter(collected["freed"]).most_common(args.top)
            shown = ", ".join(f"{name} {n}" for name, n in freed)
            print(f"a full collection at the end: {collected['unreachable']} unreachable; {shown}")
        for name in args.holders:
            url = f"{worker.base}/__memory_soak__/holders/?type={name}"
            async with client.http.post(url) as answer:
                print("\n    ".join(json.loads(await answer.text())))
        stop.set()
        await asyncio.gather(*workers, return_exceptions=True)
    finally:
        for socket in sockets:
            await socket.stop()
        await client.http.close()
        await relay_client.http.close()
    return {"tally": tally, "samples": samples, "sockets": sockets}


def log_problems(log: Path) -> list[str]:
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if "ERROR" in line or "Traceback" in line]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="memory_soak.py", description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=3.7, help="commands per second")
    parser.add_argument("--players", type=int, default=5, help="per table, besides GM, observer")
    parser.add_argument("--redis", action="store_true", help="channels_redis and Redis cache")
    parser.add_argument(
        "--frames",
        type=int,
        default=1,
        help="tracemalloc frames per allocation (0: off); each more costs the worker CPU",
    )
    parser.add_argument("--top", type=int, default=8, help="lines of growth shown")
    parser.add_argument("--churn", type=float, default=20.0, help="s between page reloads; 0")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder and logs")
    parser.add_argument(
        "--census", action="store_true", help="every minute: objects grown, by type"
    )
    parser.add_argument(
        "--collect-at-end",
        action="store_true",
        help="after the last minute, a full collection: what of the census was garbage",
    )
    parser.add_argument(
        "--holders",
        action="append",
        default=[],
        metavar="TYPE",
        help="at the end: what keeps the oldest object of this type (a class name) alive",
    )
    args = parser.parse_args(argv)
    if args.minutes < 2:
        parser.error("--minutes: 2 at least (a first half and a second)")
    os.environ.pop("REDIS_URL", None)
    os.environ["LOG_LEVEL"] = "WARNING"  # production's default
    tmp = setup_django()
    redis = relay = worker = None
    try:
        from momenta_site.catalogues import compile_catalogues

        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG")}
        env |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "PYTHONPATH": str(ROOT)}
        env |= {"STATIC_ROOT": str(tmp / "static"), "MEMORY_SOAK_FRAMES": str(args.frames)}
        # As deploy/README.md does before serving: the translations, the static files
        # (hashed, minified: STATIC_ROOT must be set when the settings load).
        compile_catalogues()
        manage = [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"]
        subprocess.run(manage, env=env, cwd=ROOT, check=True)
        tables = seed(args.players)
        layer = "in-memory layer, local-memory cache"
        if args.redis:
            redis, url = start_redis(tmp)
            env["REDIS_URL"] = f"{url}/0"
            layer = "channels_redis, Redis cache"
        worker = Worker(env, tmp)
        relay_env = env | ({"REDIS_URL": f"{url}/1"} if args.redis else {})
        relay_env["CHANNEL_LAYER_PREFIX"] = "relay"
        relay = Side("relay", RELAY, "uvicorn", 1, relay_env, ROOT, tmp)
        relay.wait_ready()
        print(
            f"one worker (manage.py serve's uvicorn, DEBUG off, SQLite, {layer});"
            f" {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        result = asyncio.run(soak(args, worker, relay, tables, tmp))
    finally:
        if worker is not None:
            worker.proc.stop()
        if relay is not None:
            relay.stop()
        if redis is not None:
            redis.stop()
    report(args, result, worker.log)
    if args.keep:
        print(f"kept: {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def report(args, result: dict, log: Path) -> None:
    tally: Tally = result["tally"]
    ok, refused, failed = tally.total()
    print(f"commands: {ok} answered, {refused} refused, {failed} failed")
    for kind in sorted(set(tally.ok) | set(tally.refused) | set(tally.failed)):
        print(
            f"  {kind:8s} {tally.ok[kind]:6d} ok {tally.refused[kind]:5d} refused"
            f" {tally.failed[kind]:4d} failed"
        )
    for reason, n in tally.reasons.most_common(8):
        print(f"  {n:5d} × {reason}")
    app_sockets = [s for s in result["sockets"] if s.app]
    frames = sum(s.frames for s in app_sockets)
    reloads = sum(s.reconnects for s in app_sockets)
    print(f"sockets: {frames} frames received on the app's, {reloads} reloads")
    problems = log_problems(log)
    print(f"worker log: {len(problems)} lines with ERROR or Traceback")
    for line in problems[:10]:
        print(f"  {line[:200]}")
    samples = result["samples"]
    half = samples[-1][0] / 2
    second = [s for s in samples if s[0] >= half]
    slope = least_squares([(t, w) for t, w, _ in second])
    relay_slope = least_squares([(t, r) for t, _, r in second])
    verdict = "under" if slope < LIMIT_MB_PER_MIN else "NOT under"
    print(
        f"worker RSS over the second half ({second[0][0]:.1f}–{second[-1][0]:.1f} min):"
        f" {second[0][1]:.1f} -> {second[-1][1]:.1f} MB, {slope:+.2f} MB/min"
        f" (least squares, {len(second)} samples; relay {relay_slope:+.2f} MB/min,"
        f" {second[-1][2]:.1f} MB): {verdict} {LIMIT_MB_PER_MIN} MB/min"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])

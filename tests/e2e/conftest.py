"""Browser tests: Debian's chromium via Playwright against a real server process.

The server is `manage.py runserver` (daphne) on a free loopback port with the
embedded stack (a fresh SQLite file, in-memory channel layer), whatever the
test run's own DATABASE_URL / REDIS_URL say. pytest-django's database is not
used: the tests talk to the server only.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

PASSWORD = "e2e-pass-123"
# Noisy CI machines: wait long for what must happen (and never sleep instead).
TIMEOUT_MS = 20_000

# Users, a Momenta campaign (where the tests roll) and a 2d20 campaign (its page
# must fit a phone too), with their characters; prints the ids.
SEED = """
import json
import os
from django.contrib.auth import get_user_model
from tables.models import Campaign, Character, Membership
from tables.services.campaigns import PRESETS

User = get_user_model()
PASSWORD = os.environ["E2E_PASSWORD"]
users = {n: User.objects.create_user(n, password=PASSWORD) for n in ("gm", "alice", "bob")}


def campaign(name, preset):
    dice_system, economy = PRESETS[preset]
    c = Campaign.objects.create(
        name=name, owner=users["gm"], preset=preset, dice_system=dice_system, economy=economy
    )
    for user, role in (("gm", "gm"), ("alice", "player"), ("bob", "player")):
        Membership.objects.create(campaign=c, user=users[user], role=role)
    return c


def character(c, owner, name, attributes, **fields):
    ch = Character.objects.create(campaign=c, owner=users[owner], name=name, **fields)
    for attribute, value in attributes.items():
        ch.attributes.create(name=attribute, value=value)
    return ch


momenta = campaign("E2E Table", Campaign.Preset.MOMENTA)
d6 = {"MIGHT": 2, "AGILITY": 3, "WITS": 4, "PRESENCE": 2, "LUCK": 2}
chars = {
    "alice": character(momenta, "alice", "Iska Vell", d6, resolve=3, resolve_max=4),
    "bob": character(momenta, "bob", "Dorran Coil", d6, resolve=2, resolve_max=4),
    "gm": character(momenta, "gm", "The Tollkeeper", d6, is_npc=True),
}
d20 = campaign("E2E Intrigue", Campaign.Preset.D20)
d20_attributes = {"Duty": 5, "Faith": 4, "Justice": 6, "Power": 7, "Truth": 5}
character(d20, "alice", "Paul", d20_attributes, determination=1)
character(d20, "bob", "Jessica", d20_attributes, determination=1)
print("SEED=" + json.dumps({
    "campaign": momenta.pk,
    "d20_campaign": d20.pk,
    "characters": {user: {"id": ch.pk, "name": ch.name} for user, ch in chars.items()},
}))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("MOMENTA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing and MOMENTA_REQUIRE_BROWSER=1")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    return CHROMIUM


class ServerProcess:
    """`manage.py runserver` (daphne) on a fixed loopback port; can be restarted."""

    def __init__(self, folder: Path, env: dict[str, str]):
        self.folder = folder
        self.env = env
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.folder / "server.log", "a") as log:
            self.process = subprocess.Popen(
                # --insecure: serve static files with DEBUG off, as the demo does.
                [*MANAGE, "runserver", "--noreload", "--insecure", f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError((self.folder / "server.log").read_text())
            try:
                urllib.request.urlopen(self.base + "/static/tables/live.js", timeout=2)
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


MANAGE = [sys.executable, str(ROOT / "manage.py")]


@pytest.fixture(scope="module")
def app_server(tmp_path_factory):
    """A freshly seeded server process: .base, .campaign (Momenta), .d20_campaign,
    .characters ({user: {id, name}}), .stop(), .start()."""
    folder = tmp_path_factory.mktemp("e2e-server")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        SQLITE_PATH=str(folder / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        PYTHONUNBUFFERED="1",
        E2E_PASSWORD=PASSWORD,
    )
    subprocess.run([*MANAGE, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=120)
    seeded = subprocess.run(
        [*MANAGE, "shell", "-c", SEED],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    seed = json.loads(seeded.stdout.split("SEED=", 1)[1])
    server = ServerProcess(folder, env)
    server.campaign = seed["campaign"]
    server.d20_campaign = seed["d20_campaign"]
    server.characters = seed["characters"]
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()

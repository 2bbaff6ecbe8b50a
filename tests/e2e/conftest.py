"""Browser tests: Debian's chromium via Playwright against a real server process.

The server is `manage.py runserver` (daphne) on a free loopback port with the
embedded stack (a fresh SQLite file, in-memory channel layer), whatever the
test run's own DATABASE_URL / REDIS_URL say (tables.devtools.server).
pytest-django's database is not used: the tests talk to the server only.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tables.devtools import browser as devtools_browser
from tables.devtools.server import ServerProcess, server_env

HERE = Path(__file__).resolve().parent
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
from tables.services.roll_templates import seed_default_templates

User = get_user_model()
PASSWORD = os.environ["E2E_PASSWORD"]
users = {n: User.objects.create_user(n, password=PASSWORD) for n in ("gm", "alice", "bob")}


def campaign(name, preset):
    dice_system, economy = PRESETS[preset]
    c = Campaign.objects.create(
        name=name, owner=users["gm"], preset=preset, dice_system=dice_system, economy=economy
    )
    seed_default_templates(c)  # as campaigns.create_campaign does (D6-04)
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


@pytest.fixture(scope="session")
def chromium_path():
    chromium = devtools_browser.CHROMIUM
    if not devtools_browser.chromium_installed():
        if os.environ.get("MOMENTA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{chromium} is missing and MOMENTA_REQUIRE_BROWSER=1")
        pytest.skip(f"{chromium} is not installed (apt-get install chromium)")
    return chromium


# The databases servers start from, made once per test process: migrating and seeding
# cost more than a server's whole start, for every module (issue 38).
_TEMPLATES: dict[str, tuple[Path, dict | None]] = {}


def _template(tmp_path_factory, kind: str) -> tuple[Path, dict | None]:
    """("migrated" | "seeded" | "demo") -> (its database file, SEED's ids or None)."""
    if kind not in _TEMPLATES:
        folder = tmp_path_factory.mktemp(f"e2e-template-{kind}")
        maker = ServerProcess(folder, [], env=server_env(folder, E2E_PASSWORD=PASSWORD))
        seed = None
        if kind == "migrated":
            maker.manage("migrate", "-v", "0")
        else:
            copy_database(_template(tmp_path_factory, "migrated")[0], maker.database)
            if kind == "demo":
                maker.manage("seed_demo", capture_output=True)
            else:
                seeded = maker.manage("shell", "-c", SEED, capture_output=True, text=True)
                seed = json.loads(seeded.stdout.split("SEED=", 1)[1])
        _TEMPLATES[kind] = (maker.database, seed)
    return _TEMPLATES[kind]


def copy_database(source: Path, target: Path) -> None:
    # SQLite's own backup: the WAL's pages too, whatever was left uncheckpointed.
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def start_from(tmp_path_factory, server: ServerProcess, kind: str = "seeded") -> dict | None:
    """Give `server` (not started) a fresh copy of a template database: "migrated" (empty),
    "seeded" (SEED: returns its ids) or "demo" (`manage.py seed_demo`'s campaigns)."""
    template, seed = _template(tmp_path_factory, kind)
    copy_database(template, server.database)
    return seed


def seeded_server(tmp_path_factory, **env: str) -> ServerProcess:
    """A freshly seeded server process (not started), with `env` added to its
    environment: .base, .campaign (Momenta), .d20_campaign, .characters ({user: {id,
    name}}), .stop(), .start()."""
    folder = tmp_path_factory.mktemp("e2e-server")
    # --insecure: serve static files with DEBUG off, as the demo does.
    server = ServerProcess(
        folder,
        ["runserver", "--noreload", "--insecure"],
        env=server_env(folder, E2E_PASSWORD=PASSWORD, **env),
    )
    seed = start_from(tmp_path_factory, server)
    server.campaign = seed["campaign"]
    server.d20_campaign = seed["d20_campaign"]
    server.characters = seed["characters"]
    return server


@pytest.fixture(scope="module")
def app_server(tmp_path_factory):
    """A freshly seeded, started server process (see seeded_server)."""
    server = seeded_server(tmp_path_factory)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(chromium_path):
    """The test process's chromium (below): a module's pages go with the module."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    browser = _shared_browser(chromium_path)
    yield browser
    for context in browser.contexts:
        context.close()


# One Playwright and chromium per test process while browser modules run one after
# another: starting them cost ~0.7 s a module (issue 38). Stopped before any other
# test runs: Playwright's sync API leaves its event loop set as running, where an
# asyncio test (pytest-asyncio) or another sync_playwright() would refuse to start.
_SHARED: dict = {}


def _shared_browser(chromium_path):
    if not _SHARED:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _SHARED["playwright"] = playwright
        _SHARED["browser"] = devtools_browser.launch(playwright, chromium_path)
    return _SHARED["browser"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a browser module's test: stop the shared chromium unless a browser test
    comes next (xdist's worker knows its next test; None: none yet, or the last)."""
    try:
        return (yield)
    finally:
        if _SHARED and (nextitem is None or HERE not in nextitem.path.parents):
            _SHARED.pop("browser").close()
            _SHARED.pop("playwright").stop()

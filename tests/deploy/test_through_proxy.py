"""The deploy recipe as users run it: two workers behind Caddy, on PostgreSQL + Redis.

Runs only where the stack is up, which `.ci/run` does in its last stage (and
there it must pass, never skip): the workers are `manage.py serve` from
collected static files and a migrated database, each kept alive by a restart
loop as systemd's Restart=always would (deploy/momenta@.service); Caddy imports
deploy/momenta-proxy.caddy. The environment names the stack:

- MOMENTA_DEPLOY_URL: the production-shaped site, balancing both workers;
- MOMENTA_DEPLOY_GM_URL, MOMENTA_DEPLOY_PLAYER_URL: one site per worker, so the
  GM's page and the player's are served by different processes;
- MOMENTA_DEPLOY_GM_PIDFILE: the pid of the GM's worker, rewritten on restart.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import PASSWORD, SEED
from tests.e2e.test_live_table import expect_roll, log_in, log_seqs, roll

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not os.environ.get("MOMENTA_DEPLOY_URL"), reason="the deploy stack runs in .ci/run only"
    ),
]

ROOT = Path(__file__).resolve().parents[2]
# A worker killed with -9 is back after the restart delay, its start-up and
# Caddy's next health check (every 5 s); the page then reconnects within 5 s.
BACK_WITHIN_MS = 60_000
# A roll reaches a page on another worker by a push through Redis, at once; the
# page's heartbeat (every 25 s) would also fetch it, later: waiting less than
# that tells the push from the fallback.
PUSH_MS = 5_000


@dataclass(frozen=True)
class Stack:
    url: str
    gm_url: str
    player_url: str
    gm_pidfile: Path
    campaign: int
    characters: dict


def manage_shell(code: str) -> str:
    """Run `code` in `manage.py shell` with the workers' own settings (the environment)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=os.environ | {"E2E_PASSWORD": PASSWORD},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def expect_pushed(page, made) -> None:
    """`page` shows the roll `made` within PUSH_MS, the same card as the roller's."""
    from playwright.sync_api import expect

    expect(page.locator(f"#roll-log > #event-{made.seq}")).to_have_count(1, timeout=PUSH_MS)
    expect_roll(page, made)


def fetch(url: str, **headers) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=15) as a:
            return a.status, a.headers, a.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, b""


def status(url: str) -> int:
    return fetch(url)[0]


@pytest.fixture(scope="module")
def stack() -> Stack:
    env = os.environ
    seed = json.loads(manage_shell(SEED).split("SEED=", 1)[1])
    return Stack(
        url=env["MOMENTA_DEPLOY_URL"],
        gm_url=env["MOMENTA_DEPLOY_GM_URL"],
        player_url=env["MOMENTA_DEPLOY_PLAYER_URL"],
        gm_pidfile=Path(env["MOMENTA_DEPLOY_GM_PIDFILE"]),
        campaign=seed["campaign"],
        characters=seed["characters"],
    )


def test_two_workers_behind_caddy_share_the_table_and_survive_a_killed_worker(browser, stack):
    from playwright.sync_api import expect

    for url in (stack.url, stack.gm_url, stack.player_url):
        assert status(url + "/healthz") == 200
    chars = stack.characters
    path = f"/campaigns/{stack.campaign}/table/"
    errors = []
    gm_context, gm = log_in(browser, stack.gm_url, "gm", path, errors)
    alice_context, alice = log_in(browser, stack.player_url, "alice", path, errors)
    # Static files come from collectstatic: hashed names, served by whitenoise.
    stylesheet = gm.locator("link[rel=stylesheet]").first.get_attribute("href")
    assert stylesheet.startswith("/static/") and stylesheet.count(".") >= 2, stylesheet

    # A roll on one worker reaches the page on the other, both ways (through Redis).
    made = [roll(alice, "alice", chars["alice"], "WITS")]
    expect_pushed(gm, made[-1])
    made.append(roll(gm, "gm", chars["gm"], "MIGHT"))
    expect_pushed(alice, made[-1])

    # kill -9 the GM's worker: its page loses the socket.
    killed = int(stack.gm_pidfile.read_text())
    os.kill(killed, signal.SIGKILL)
    expect(gm.locator("#live-status")).not_to_have_attribute("data-state", "live")
    # Meanwhile the site stays up (Caddy routes around the dead worker) and the
    # player goes on rolling: the GM's page misses these.
    assert status(stack.url + "/healthz") == 200
    made.append(roll(alice, "alice", chars["alice"], "AGILITY"))
    made.append(roll(alice, "alice", chars["alice"], "WITS"))

    # The process manager starts the worker again; the GM's page reconnects and
    # replays what it missed.
    deadline = time.monotonic() + BACK_WITHIN_MS / 1000
    while int(stack.gm_pidfile.read_text() or 0) in (0, killed):
        assert time.monotonic() < deadline, "the killed worker was not restarted"
        time.sleep(0.2)
    expect(gm.locator("#live-status")).to_have_attribute(
        "data-state", "live", timeout=BACK_WITHIN_MS
    )
    for missed in made[2:]:
        expect_pushed(gm, missed)  # replayed on reconnect, not left to the heartbeat
    made.append(roll(gm, "gm", chars["gm"], "WITS"))
    expect_pushed(alice, made[-1])

    # Nothing lost, nothing twice: both pages show the same log, each roll once,
    # and the database holds exactly the rolls made.
    seqs = log_seqs(gm)
    assert seqs == log_seqs(alice)
    assert len(seqs) == len(set(seqs))
    assert {m.seq for m in made} <= set(seqs)
    counted = manage_shell(
        "from tables.models import TableEvent; "
        f"print(TableEvent.objects.filter(campaign_id={stack.campaign}, "
        "kind='momenta_roll').count())"
    )
    assert int(counted.strip().splitlines()[-1]) == len(made)
    gm_context.close()
    alice_context.close()
    assert errors == []


def test_the_request_id_is_caddys_not_the_clients():
    """The report's `qa-client-id-0001` was adopted through Caddy; now Caddy sets its own
    uuid (deploy/momenta-proxy.caddy) and the app answers, and logs, under that."""
    sent = "qa-client-id-0001"
    request = urllib.request.Request(
        f"{os.environ['MOMENTA_DEPLOY_URL']}/login/", headers={"X-Request-ID": sent}
    )
    with urllib.request.urlopen(request, timeout=15) as answer:
        answered = answer.headers["X-Request-ID"]
    assert answered != sent
    # Caddy's {http.request.uuid}, not an id the app made up (16 hex digits).
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", answered)


def test_static_files_collected_while_the_workers_run_are_served_by_the_proxy():
    """Mid-upgrade, collectstatic writes the new release's hashed files beside the old
    ones while the old workers run; a page drawn by a new worker names them. The proxy
    serves them from STATIC_ROOT at once (deploy/momenta-static.caddy): the workers'
    whitenoise listed the folder at start and would answer 404. Hashed names are kept
    for good, others for a minute; nothing outside STATIC_ROOT is served."""
    root = Path(os.environ["STATIC_ROOT"])
    base = os.environ["MOMENTA_DEPLOY_URL"] + "/static/tables/"
    hashed, plain = root / "tables" / "app.ba9876543210.css", root / "tables" / "later.css"
    try:
        hashed.write_text("new {}")
        plain.write_text("later {}")
        subprocess.run(["gzip", "-k", str(hashed)], check=True)
        status_code, headers, body = fetch(base + hashed.name)
        assert (status_code, body) == (200, b"new {}")
        assert "immutable" in headers["Cache-Control"]
        status_code, headers, _ = fetch(base + hashed.name, **{"Accept-Encoding": "gzip"})
        assert status_code == 200 and headers["Content-Encoding"] == "gzip"
        status_code, headers, body = fetch(base + plain.name)
        assert (status_code, body) == (200, b"later {}")
        assert "immutable" not in headers["Cache-Control"]
    finally:
        for path in (hashed, plain, hashed.with_name(hashed.name + ".gz")):
            path.unlink(missing_ok=True)
    (root.parent / "outside.txt").write_text("not static")
    try:
        for path in ("/static/../outside.txt", "/static/tables/../../outside.txt"):
            status_code, _, body = fetch(os.environ["MOMENTA_DEPLOY_URL"] + path)
            assert status_code == 404 and b"not static" not in body, path
    finally:
        (root.parent / "outside.txt").unlink()

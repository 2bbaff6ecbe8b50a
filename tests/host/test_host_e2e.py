"""Issue 39's "done when": `manage.py host` in a fresh data folder, reached in a browser
by a name other than localhost. The GM logs in, a friend signs up and joins by the
printed invite link, a roll shows on both screens; after a restart on the same folder
the roll is still in the log.

chromium resolves table.test to 127.0.0.1 itself (--host-resolver-rules), so the
browser sends `Host: table.test:PORT` as it would to a GM's machine, and nothing
leaves loopback.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from momenta_site import hosting
from tables.devtools import browser as devtools_browser
from tables.devtools.server import MANAGE, ROOT, free_port, server_env
from tests.e2e.conftest import TIMEOUT_MS

pytestmark = pytest.mark.e2e

HOST = "table.test"
GM_PASSWORD = "gm-table-pass-39"
FRIEND_PASSWORD = "friend-pass-39x"


class HostedTable:
    """`manage.py host` on one data folder and port, logged to `folder`/host.log."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.log = folder.parent / "host.log"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> str:
        """Start it; what it printed this time."""
        seen = self.log.stat().st_size if self.log.exists() else 0
        env = server_env(self.folder, **{hosting.PASSWORD_VARIABLE: GM_PASSWORD})
        for name in ("SECRET_KEY", "DEBUG", "PYTEST_VERSION", "TEST_FAST_PASSWORD_HASHER"):
            env.pop(name, None)  # as a GM's shell has it: the key is the folder's own
        command = [*MANAGE, "host", "--data", str(self.folder), "--port", str(self.port)]
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [*command, "--bind", "127.0.0.1", "--host", HOST, "--gm-username", "gm"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("manage.py host stopped:\n" + self.log.read_text())
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2)
                return self.log.read_text()[seen:]
            except OSError:
                assert time.monotonic() < deadline, self.log.read_text()
                time.sleep(0.3)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


@pytest.fixture
def hosted(tmp_path):
    table = HostedTable(tmp_path / "table")
    yield table
    table.stop()


@pytest.fixture
def chromium(chromium_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    rules = f"--host-resolver-rules=MAP {HOST} 127.0.0.1"
    with sync_playwright() as playwright:
        browser = devtools_browser.launch(playwright, chromium_path, (rules,))
        yield browser
        browser.close()


def person(browser, errors: list):
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def gm_logs_in(page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", GM_PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")


def friend_joins(page, invite: str, base: str) -> int:
    """Signs up from the invite link, joins as a player, makes a character; the
    campaign's id."""
    page.goto(invite)
    page.locator("#main").get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "friend")
    page.fill("#id_password1", FRIEND_PASSWORD)
    page.fill("#id_password2", FRIEND_PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(invite)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(rf"{re.escape(base)}/campaigns/\d+/$"))
    campaign = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.goto(f"{base}/campaigns/{campaign}/characters/new/")
    page.fill("#id_name", "Wren")
    page.fill("#id_attributes-0-name", "WITS")
    page.fill("#id_attributes-0-value", "3")
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(rf"{re.escape(base)}/campaigns/{campaign}/"))
    return campaign


def test_a_hosted_table_for_friends_outlives_a_restart(hosted, chromium):
    from playwright.sync_api import expect

    from tests.e2e.test_live_table import expect_roll, roll

    printed = hosted.start()
    invite = re.search(rf"(http://{re.escape(HOST)}:\d+/join/[\w-]+/)", printed).group(1)
    assert f"GM login: {hosted.base}/login/" in printed
    errors: list[str] = []
    gm, friend = person(chromium, errors), person(chromium, errors)
    gm_logs_in(gm, hosted.base)
    campaign = friend_joins(friend, invite, hosted.base)
    table = f"{hosted.base}/campaigns/{campaign}/table/"
    for page in (gm, friend):
        page.goto(table)
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    character = {
        "id": int(friend.locator("#momenta-roll select[name=character]").input_value()),
        "name": "Wren",
    }
    made = roll(friend, "friend", character, "WITS")
    expect_roll(gm, made)  # live, without a reload

    hosted.stop()
    again = hosted.start()
    assert "/join/" not in again  # nothing made a second time
    gm.goto(table)
    expect_roll(gm, made)
    assert errors == []
    assert os.stat(hosted.folder / hosting.KEY_FILE).st_mode & 0o077 == 0

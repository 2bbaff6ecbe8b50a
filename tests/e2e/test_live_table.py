"""TB-01 and TB-04 in real browsers: three people at one table, one of them drops off.

Each browser context is one person (GM, two players) with its own cookies.
"""

import itertools

import pytest

from .conftest import PASSWORD

pytestmark = pytest.mark.e2e

_numbers = itertools.count(1)


def table_action(gm_page, label: str) -> str:
    """One action at the table, done by the GM through the page; returns its text.

    Today a table note (the only command the table page has); when the roll
    composer lands, switch this to a roll and keep the tests.
    """
    from playwright.sync_api import expect

    text = f"{label} #{next(_numbers)}"
    gm_page.fill("#note-text", text)
    gm_page.click("#note-form button[type=submit]")
    expect(gm_page.locator("#roll-log .log-entry", has_text=text)).to_have_count(1)
    return text


def log_seqs(page) -> list[int]:
    return page.eval_on_selector_all(
        "#roll-log > .log-entry", "items => items.map(i => Number(i.dataset.seq))"
    )


def log_texts(page) -> list[str]:
    return page.eval_on_selector_all(
        "#roll-log > .log-entry .log-note", "items => items.map(i => i.textContent.trim())"
    )


@pytest.fixture
def table(browser, app_server):
    """Open the table page for gm, alice and bob; yields {name: (context, page)}."""
    from playwright.sync_api import expect

    opened = {}
    errors = []
    path = f"/campaigns/{app_server.campaign}/table/"
    for name in ("gm", "alice", "bob"):
        # alice gets a phone-sized screen: the table must work at 375 px.
        viewport = {"width": 375, "height": 740} if name == "alice" else None
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.on("pageerror", lambda error, name=name: errors.append((name, str(error))))
        # Log in through the site's login form, straight back to the table.
        page.goto(f"{app_server.base}/login/?next={path}")
        page.fill("#id_username", name)
        page.fill("#id_password", PASSWORD)
        page.click("form[action='/login/'] button[type=submit]")
        page.wait_for_url(app_server.base + path)
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        opened[name] = (context, page)
    for _, page in opened.values():
        expect(page.locator("#presence .presence-person")).to_have_count(3)
    yield opened
    for context, _ in opened.values():
        context.close()
    assert errors == []


def test_tb_01_an_action_appears_on_every_screen_without_reload(table):
    from playwright.sync_api import expect

    gm = table["gm"][1]
    text = table_action(gm, "The door creaks open")
    for name in ("alice", "bob"):
        page = table[name][1]
        expect(page.locator("#roll-log .log-entry", has_text=text)).to_have_count(1)
        assert log_seqs(page) == log_seqs(gm)


def test_table_fits_a_375px_screen(table):
    alice = table["alice"][1]
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375


def test_tb_04_a_player_who_was_offline_gets_all_five_actions_in_order_once(table):
    from playwright.sync_api import expect

    gm = table["gm"][1]
    alice = table["alice"][1]
    bob_context, bob = table["bob"]
    table_action(gm, "Before the storm")
    expect(bob.locator("#roll-log .log-entry")).to_have_count(len(log_seqs(gm)))

    bob_context.set_offline(True)
    # Going offline must close bob's socket and show it (see docs/live.md).
    expect(bob.locator("#live-status")).to_have_attribute("data-state", "offline")
    expect(bob.locator("#live-status")).to_have_text("Reconnecting…")
    assert bob.evaluate("window.momentaLive.socket === null")
    seen_before = log_seqs(bob)

    texts = [table_action(gm, "While bob is away") for _ in range(5)]
    for text in texts:
        expect(alice.locator("#roll-log .log-entry", has_text=text)).to_have_count(1)
    assert log_seqs(bob) == seen_before  # nothing reached him

    bob_context.set_offline(False)
    expect(bob.locator("#live-status")).to_have_attribute("data-state", "live", timeout=15_000)
    expect(bob.locator("#roll-log .log-entry", has_text=texts[-1])).to_have_count(1)
    seqs = log_seqs(bob)
    assert seqs == log_seqs(gm)  # same entries, newest first
    assert len(seqs) == len(set(seqs))  # none twice
    assert seqs == sorted(seqs, reverse=True)
    missed = [t for t in log_texts(bob) if t.startswith("While bob is away")]
    assert missed == list(reversed(texts))  # all five, in order

    # And live again afterwards.
    text = table_action(gm, "After the storm")
    expect(bob.locator("#roll-log .log-entry", has_text=text)).to_have_count(1)
    assert log_seqs(bob) == log_seqs(gm)


def test_pages_reconnect_and_catch_up_after_the_server_restarts(table, app_server):
    """A server going away (close 1001/1006, not a browser going offline) is
    survived too: every page retries with backoff and replays what it missed."""
    from playwright.sync_api import expect

    gm = table["gm"][1]
    app_server.stop()
    for _, page in table.values():
        expect(page.locator("#live-status")).to_have_attribute("data-state", "offline")
    app_server.start()
    for _, page in table.values():
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live", timeout=15_000)
    text = table_action(gm, "The server is back")
    for name in ("alice", "bob"):
        page = table[name][1]
        expect(page.locator("#roll-log .log-entry", has_text=text)).to_have_count(1)
        assert log_seqs(page) == log_seqs(gm)

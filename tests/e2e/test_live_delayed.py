"""Issue 39 in a real browser: the connection badge says live updates are delayed while
the server reports its channel layer away, in the reader's language, and is live again,
after one catch-up, when it reports the layer back.

The test's server runs the in-memory layer, which is never away: the browser's socket is
routed through Playwright, which passes everything both ways and adds the server's two
"layer" messages (their server side: tests/live/test_layer_delayed.py).
"""

from __future__ import annotations

import json
import re

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

DELAYED_DE = "Live-Aktualisierung verzögert"


def test_the_badge_says_delayed_while_the_layer_is_away_and_live_when_it_is_back(
    browser, app_server
):
    from playwright.sync_api import expect

    sockets, pings, errors = [], [], []

    def routed(page_side):
        server_side = page_side.connect_to_server()

        def from_page(message):
            if json.loads(message).get("type") == "ping":
                pings.append(message)
            server_side.send(message)

        page_side.on_message(from_page)
        sockets.append(page_side)

    context = browser.new_context(locale="de-DE")
    context.set_default_timeout(TIMEOUT_MS)
    context.route_web_socket(re.compile(r"/ws/campaigns/\d+/"), routed)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    path = f"/campaigns/{app_server.campaign}/table/"
    page.goto(f"{app_server.base}/login/?next={path}")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(app_server.base + path)
    badge = page.locator("#live-status")
    expect(badge).to_have_attribute("data-state", "live")
    live_words = badge.text_content()

    (socket,) = sockets
    socket.send(json.dumps({"type": "layer", "state": "down"}))
    expect(badge).to_have_attribute("data-state", "delayed")
    expect(badge).to_have_text(DELAYED_DE)

    before = len(pings)
    socket.send(json.dumps({"type": "layer", "state": "up"}))
    expect(badge).to_have_attribute("data-state", "live")
    expect(badge).to_have_text(live_words)
    # The page catches up at once (a heartbeat now, the next regular one is 25 s away).
    for _ in range(200):
        if len(pings) > before:
            break
        page.wait_for_timeout(50)
    assert len(pings) > before
    context.close()
    assert errors == []

"""Issue 37 in real browsers: "Open in the spend panel" opens the test asked for, even
when a live push's refresh of the test the panel showed before answers first.

The GM's panel shows alice's first test; she rolls a second. The push that brings its
card also tells the GM's page that its panel (the first test) is stale, so the page
fetches the first test again, just as the GM presses "Open in the spend panel" on the
new card. Here the answers are held at the network and let go in turn, so the refresh
answers first, as it did 1 run in 4 on a busy table: the panel must still end on the
test asked for; and a refresh answering last must not undo an Open either."""

from __future__ import annotations

import re

import pytest

from .test_gm_tabs import give_paul_a_skill
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

# In the page: the URLs of the panel's requests asked for and those answered or called
# off (window.asked, window.done), in order.
WATCH = """() => {
  window.asked = [];
  window.done = [];
  const send = XMLHttpRequest.prototype.send;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.watched = url;
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    const url = this.watched;
    window.asked.push(url);
    this.addEventListener("loadend", () => window.done.push(url));
    return send.apply(this, args);
  };
}"""

# The refresh of the test a panel shows (live_sync.html) and a test's own panel (Open).
HELD = re.compile(r"/d20/panel/\?test=|/d20/tests/\d+/$")


class Held:
    """The panel's requests on `page` wait at the network until let go, so the answers
    come in the order a busy table gave them."""

    def __init__(self, page):
        self.page, self.routes = page, []
        page.evaluate(WATCH)
        page.route(HELD, lambda route: self.routes.append(route))

    def asked(self, part: str) -> None:
        self.page.wait_for_function(
            "(part) => window.asked.some((u) => u.includes(part))", arg=part
        )

    def let_go(self, *parts: str) -> None:
        """Each in turn answered (or called off) before the next; then two frames."""
        for part in parts:
            route = self.route(part)
            if route is not None:
                try:
                    route.continue_()
                except Exception:  # noqa: BLE001 (called off in the page meanwhile)
                    pass
            self.page.wait_for_function(
                "(part) => window.done.some((u) => u.includes(part))", arg=part
            )
        self.page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        self.page.evaluate("() => { window.asked = []; window.done = []; }")

    def route(self, part: str):
        for _ in range(100):  # the route comes a moment after the page sends it
            for route in self.routes:
                if part in route.request.url:
                    self.routes.remove(route)
                    return route
            self.page.wait_for_timeout(50)
        return None


def roll_paul(alice) -> int:
    """alice rolls a 2d20 test for Paul; returns the new test's id."""
    from playwright.sync_api import expect

    alice.locator("#d20-play select[name=skill]").select_option("Communicate")
    with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")):
        alice.locator("#roll-button").click()
    panel = alice.locator("#spend-panel[data-test-id]")
    expect(panel).to_have_count(1)
    return int(panel.get_attribute("data-test-id"))


def open_button(page, test: int):
    card = page.locator(f"#roll-log > li[data-kind=d20_test]:has(.d20-open[hx-get$='/{test}/'])")
    return card.get_by_role("button", name="Open in the spend panel")


def test_open_in_the_spend_panel_wins_over_a_late_refresh_of_the_test_shown_before(
    browser, app_server
):
    from playwright.sync_api import expect

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        first = roll_paul(alice)
        open_button(gm, first).click()
        expect(gm.locator("#spend-panel")).to_have_attribute("data-test-id", str(first))

        # The refresh of the first test is asked for as the second roll lands, the GM
        # presses Open on the second, and the refresh answers before the Open.
        held = Held(gm)
        second = roll_paul(alice)
        held.asked("/panel/?test=")
        open_button(gm, second).click()
        held.asked(f"/tests/{second}/")
        held.let_go("/panel/?test=", f"/tests/{second}/")
        expect(gm.locator("#spend-panel")).to_have_attribute("data-test-id", str(second))

        # And the other way round: the GM opens the first test as the third lands, and
        # the refresh of the second answers after the Open.
        third = roll_paul(alice)
        held.asked("/panel/?test=")
        open_button(gm, first).click()
        held.asked(f"/tests/{first}/")
        held.let_go(f"/tests/{first}/", "/panel/?test=")
        expect(gm.locator("#spend-panel")).to_have_attribute("data-test-id", str(first))
        assert third not in (first, second)
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

"""Issue 29 in a real browser, on a phone (375 × 740): the GM's table page with 40
rolls in the log ends where its content ends (the cards' visually-hidden text used to
escape the height-capped log: thousands of px of blank scroll), its folds and buttons
are at least 24 × 24 px, and no text is under 12 px."""

from __future__ import annotations

import pytest

from .test_live_table import log_in

pytestmark = pytest.mark.e2e

PHONE = {"width": 375, "height": 740}

# Submits the composer's form `n` times as htmx would (its CSRF header, an HX
# request), one after the other; the statuses.
ROLL_MANY = """async (n) => {
  const form = document.getElementById("momenta-roll");
  const headers = JSON.parse(document.body.getAttribute("hx-headers"));
  headers["HX-Request"] = "true";
  const statuses = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(form.action, {method: "POST", body: new FormData(form), headers});
    statuses.push(r.status);
  }
  return statuses;
}"""

# Where the page's content ends: the bottom of the footer (or main), in page px.
CONTENT_END = """() => {
  const last = document.querySelector("body > footer") || document.querySelector("main");
  return last.getBoundingClientRect().bottom + window.scrollY;
}"""

# Visible controls smaller than 24 px either way (summaries, buttons), as "text (w×h)".
SMALL_TARGETS = """() => [...document.querySelectorAll("#table summary, #table button")]
  .filter((el) => el.offsetParent !== null && !el.closest("[hidden], .visually-hidden, .sr-only"))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width > 0 && (r.width < 24 || r.height < 24))
  .map(([el, r]) => `${el.textContent.trim().slice(0, 30)} (${r.width}x${r.height})`)"""

# Visible text set under 12 px, as "text (size)".
SMALL_TEXT = """() => {
  const small = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.offsetParent === null) continue;
    if (el.closest(".visually-hidden, .sr-only, [hidden], svg")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 12) small.push(`${node.textContent.trim().slice(0, 30)} (${size})`);
  }
  return small;
}"""


def test_the_gm_phone_page_ends_with_its_content_and_fits_fingers_and_eyes(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    context, gm = log_in(browser, app_server.base, "gm", path, errors, PHONE)
    try:
        statuses = gm.evaluate(ROLL_MANY, 40)
        assert statuses == [200] * 40, statuses
        gm.reload()
        expect(gm.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(gm.locator("#roll-log > .log-entry").first).to_be_attached()
        assert gm.locator("#roll-log .roll-card").count() >= 30
        height = gm.evaluate("document.scrollingElement.scrollHeight")
        end = gm.evaluate(CONTENT_END)
        assert height <= end + PHONE["height"], (height, end)
        assert gm.evaluate(SMALL_TARGETS) == []
        assert gm.evaluate(SMALL_TEXT) == []
        # A player's 2d20 page too (its odds labels were 10 px).
        d20 = f"/campaigns/{app_server.d20_campaign}/table/"
        player_context, alice = log_in(browser, app_server.base, "alice", d20, errors, PHONE)
        expect(alice.locator("#d20-odds")).to_have_count(1)
        assert alice.evaluate(SMALL_TARGETS) == []
        assert alice.evaluate(SMALL_TEXT) == []
        player_context.close()
    finally:
        context.close()
    assert errors == []

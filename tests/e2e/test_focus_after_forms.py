"""Issue 29 in a real browser: after a form's answer redraws it, focus stays on the
form or moves to its result, never back to the top of the page (<body>): table
talk's Send, the GM tools' Add Threat, a 2d20 test's "Done"."""

from __future__ import annotations

import pytest

from .test_gm_tabs import give_paul_a_skill
from .test_live_table import log_in

pytestmark = pytest.mark.e2e


FOCUS_INSIDE = "(s) => { const a = document.activeElement; return !!a && !!a.closest(s); }"


def press(page, locator, url_end: str) -> None:
    """Focus `locator` and press Enter, as a keyboard user does; wait for the answer."""
    locator.focus()
    with page.expect_response(lambda r: r.url.endswith(url_end) and r.request.method == "POST"):
        page.keyboard.press("Enter")


def test_focus_stays_on_the_form_after_send_add_threat_and_done(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        # Send in table talk: the redrawn form's Send button keeps the focus.
        fold = alice.locator("#talk-form details.talk-fold")
        if not fold.evaluate("d => d.open"):
            fold.locator("summary").click()
        alice.locator("#talk-text").fill("We go in at dusk")
        press(alice, alice.locator("#talk-form button[type=submit]"), "/table/talk/")
        expect(alice.locator("#talk-text")).to_have_value("")
        expect(alice.locator("#talk-form button[type=submit]")).to_be_focused()

        # Add Threat in the GM tools: the redrawn panel's Add Threat button.
        gm.locator("#gm-tab-threat-tab").click()
        threat = gm.locator("#gm-tab-threat form.gm-form")
        threat.locator("input[name=reason]").fill("The guards are wary")
        press(gm, threat.locator("button[value=add]"), "/threat/")
        expect(gm.locator("#gm-panel .notice, #gm-panel .error")).to_have_count(1)
        expect(gm.locator("#gm-tab-threat form.gm-form button[value=add]")).to_be_focused()

        # A 2d20 test, then "Done": focus lands in the spend panel's answer.
        alice.locator("#d20-play select[name=skill]").select_option("Communicate")
        with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")):
            alice.locator("#roll-button").click()
        done = alice.locator("#spend-panel form.d20-done button[type=submit]")
        expect(done).to_be_visible()
        press(alice, done, "/resolve/")
        expect(alice.locator("#spend-panel form.d20-done")).to_have_count(0)
        # Focus comes back once htmx has settled the answer (20 ms after the swap that
        # took the form away), so wait for it rather than look at the swap's moment.
        alice.wait_for_function(FOCUS_INSIDE, arg="#spend-panel", timeout=5000)
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

"""Issue 29 in a real browser, on a laptop (1280 × 900): play first. A player sees the
Roll button and, once rolled, the last roll without scrolling; "More options" starts
folded and stays as the person left it; the GM's tools sit beside the composer, not
under the roll form and the table note."""

from __future__ import annotations

import pytest

from .test_live_table import log_in, roll

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 900}


def test_a_player_rolls_and_sees_the_roll_without_scrolling(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    context, alice = log_in(browser, app_server.base, "alice", path, errors, LAPTOP)
    try:
        more = alice.locator("#momenta-roll details.composer-more")
        assert not more.evaluate("d => d.open")  # folded on a fresh browser
        expect(alice.locator("#momenta-roll button.mc-roll")).to_be_in_viewport()
        made = roll(alice, "alice", app_server.characters["alice"], "WITS")
        # roll() opened "More options"; the person folds it again.
        assert more.evaluate("d => d.open")
        alice.locator("#momenta-roll details.composer-more > summary").click()
        alice.evaluate("window.scrollTo(0, 0)")
        expect(alice.locator("#momenta-roll button.mc-roll")).to_be_in_viewport()
        expect(alice.locator(f"#roll-log > #event-{made.seq} .roll-result")).to_be_in_viewport()
        # The fold stays as the person left it: closed after a reload, then open.
        alice.reload()
        expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
        assert not more.evaluate("d => d.open")
        more.locator("summary").click()
        alice.reload()
        expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
        assert more.evaluate("d => d.open")
    finally:
        context.close()
    assert errors == []


def test_the_gm_tools_sit_beside_the_composer_on_a_laptop(browser, app_server):
    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    context, gm = log_in(browser, app_server.base, "gm", path, errors, LAPTOP)
    try:
        tools = gm.locator(".table-tools").bounding_box()
        composer = gm.locator(".table-main").bounding_box()
        roll_button = gm.locator("#momenta-roll button.mc-roll").bounding_box()
        # Not under the roll form: the tools start above the Roll button, in another column.
        assert tools["y"] < roll_button["y"], (tools, roll_button)
        assert tools["x"] + tools["width"] <= composer["x"], (tools, composer)
        # The most used tools start on the first screen.
        assert gm.locator("#gm-panel").bounding_box()["y"] < LAPTOP["height"]
    finally:
        context.close()
    assert errors == []

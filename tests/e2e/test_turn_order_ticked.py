"""Issue 37 in a real browser: the conflict's order is the order the GM ticks, and the GM
reorders the running one by keyboard and by dragging, seen on a player's page too.

At the Momenta table the start form lists Dorran Coil, Iska Vell, The Tollkeeper (NPCs
last, by name). The GM ticks Iska, then Dorran, unticks Dorran (back to its place),
ticks The Tollkeeper, then Dorran: the list reads 1. Iska, 2. The Tollkeeper, 3. Dorran,
and the conflict starts so (Iska acts first, the GM's order). Then the GM moves The
Tollkeeper down with the keyboard: the focus stays on its Move down button; alice sees
Dorran before The Tollkeeper. Last, the GM drags The Tollkeeper back above Dorran.
"""

from __future__ import annotations

import pytest

from .test_live_table import log_in

pytestmark = pytest.mark.e2e

ISKA, DORRAN, TOLL = "Iska Vell", "Dorran Coil", "The Tollkeeper"


def test_the_conflict_starts_in_the_order_ticked_and_reorders_by_keyboard_and_drag(
    browser, app_server
):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    opened = [log_in(browser, app_server.base, name, path, errors) for name in ("gm", "alice")]
    (_, gm), (_, alice) = opened
    toll = app_server.characters["gm"]["id"]
    try:
        start = gm.locator("#turn-tracker .turn-start")
        rows = start.locator(".turn-start-list > li")

        # innerText: the hidden Move up/down of an unticked row are not read.
        def reads(texts):
            expect(rows).to_have_text(texts, use_inner_text=True)

        reads([DORRAN, ISKA, TOLL + " (NPC)"])
        for name in (ISKA, DORRAN):
            start.get_by_role("checkbox", name=name).check()
        reads(
            [
                "1. " + ISKA + " Move up Move down",
                "2. " + DORRAN + " Move up Move down",
                TOLL + " (NPC)",
            ]
        )
        start.get_by_role("checkbox", name=DORRAN).uncheck()
        reads(["1. " + ISKA + " Move up Move down", DORRAN, TOLL + " (NPC)"])
        for name in (TOLL, DORRAN):
            start.get_by_role("checkbox", name=name).check()
        reads(
            [
                f"{n}. {who} Move up Move down"
                for n, who in ((1, ISKA), (2, TOLL + " (NPC)"), (3, DORRAN))
            ]
        )
        start.locator("button[value=start]").click()

        to_act = [page.locator("#turn-tracker .turn-to-act > li") for page in (gm, alice)]
        for page, waiting in zip((gm, alice), to_act, strict=True):
            expect(page.locator("#turn-tracker .turn-acting")).to_contain_text(ISKA)
            expect(waiting).to_contain_text([TOLL, DORRAN])

        # Keyboard: focus The Tollkeeper's Move down, press Enter.
        down = gm.locator(f"#turn-down-{toll}")
        down.focus()
        gm.keyboard.press("Enter")
        for waiting in to_act:
            expect(waiting).to_contain_text([DORRAN, TOLL])
        expect(gm.locator(f"#turn-down-{toll}")).to_be_focused()

        # Drag and drop: The Tollkeeper onto the top half of Dorran's row. On a laptop
        # the GM's tracker scrolls in a box of its own: the GM sees both rows first.
        dorran_row = to_act[0].first
        dorran_row.evaluate("row => row.scrollIntoView({block: 'center'})")
        toll_row = gm.locator(f"#turn-tracker .turn-to-act > li[data-character='{toll}']")
        toll_row.drag_to(dorran_row, target_position={"x": 5, "y": 5})
        for waiting in to_act:
            expect(waiting).to_contain_text([TOLL, DORRAN])
    finally:
        for context, _ in opened:
            context.close()
    assert errors == []

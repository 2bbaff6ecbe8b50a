"""Issue 37, "The first screen": what a table is about is in view without scrolling.

On a 1280 x 800 laptop, scrolled to the top, a player and the GM see the pools, whose
turn it is (the turn tracker's round and acting lines, a conflict running), the scene
board's standing traits and the Roll button, in both demo campaigns. On a 390 x 844
phone the acting player's composer comes before the characters on their turn, and the
GM's tools come before the log.

The demo server and people are test_accessibility's; the conflict and the trait are
the GM's commands through the server, so every open page is pushed the same.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from .test_accessibility import LAPTOP, demo_server, open_page, people  # noqa: F401

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
TABLES = ["momenta_table", "d20_table"]


def gm_command(gm, base: str, path: str, form: dict) -> None:
    """POST one of the GM's table commands (`path` under the table) as htmx would."""
    csrf = next(c["value"] for c in gm.context.cookies() if c["name"] == "csrftoken")
    answer = gm.request.post(
        base + path,
        data=urlencode(form, doseq=True),
        headers={
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Referer": gm.url,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert answer.ok, answer.text()[:500]
    assert 'role="alert"' not in answer.text(), answer.text()[:1500]


@pytest.fixture(scope="module")
def in_play(people, demo_server):  # noqa: F811
    """Each demo table with a conflict running (every character taking part, alice's
    first if she has one), one standing trait on the scene board, no pattern waiting."""
    from playwright.sync_api import expect

    gm, base = people["gm"], demo_server.base
    # The demo rolls may have left a pattern to allocate (doubles, by chance): settle it,
    # so every run measures the same composer.
    for page in (people["alice"], gm):
        open_page(page, base, demo_server.paths["momenta_table"])
        for chooser in page.locator("form.chooser").all():
            chooser.locator("button[type=submit]").click()
        expect(page.locator("form.chooser")).to_have_count(0)
    for where in TABLES:
        table = demo_server.paths[where]
        open_page(gm, base, table)
        ids = gm.locator(".turn-start input[name=character]").evaluate_all(
            "boxes => boxes.map(b => b.value)"
        )
        theirs = people["alice"]
        open_page(theirs, base, table)
        hers = theirs.locator(".character-card", has_text="alice").evaluate_all(
            "cards => cards.map(c => c.id.replace('character-', ''))"
        )
        ids.sort(key=lambda pk: pk not in hers)
        assert ids, f"{where}: nobody to start a conflict with"
        gm_command(gm, base, table + "turns/", {"action": "start", "character": ids})
        gm_command(
            gm, base, table + "board/", {"action": "add", "text": "Thick fog", "kind": "trait"}
        )
    return people


# The class of the first box that scrolls on its own (a GM's tracker on a laptop) and
# hides the part's first line (its top 20 px), or null: in the viewport is not enough.
HIDDEN_BY = """part => {
    const top = part.getBoundingClientRect().top;
    for (let box = part.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowY === "visible") continue;
        const edge = box.getBoundingClientRect();
        if (top < edge.top || top + 20 > edge.bottom) return box.className || box.tagName;
    }
    return null;
}"""


def assert_in_view(page, parts: dict, size: dict) -> None:
    """Every part's box inside the viewport, its first line not scrolled out of a box
    that scrolls on its own; all that are not, in one message."""
    outside = {}
    for name, part in parts.items():
        box = part.bounding_box()
        if box is None:
            outside[name] = "not shown"
        elif not (
            box["y"] >= 0
            and box["y"] + box["height"] <= size["height"]
            and box["x"] >= 0
            and box["x"] + box["width"] <= size["width"]
        ):
            outside[name] = {k: round(v) for k, v in box.items()}
        elif hidden_by := part.evaluate(HIDDEN_BY):
            outside[name] = f"scrolled out of view in .{hidden_by}"
    assert outside == {}, outside


@pytest.mark.parametrize("where", TABLES)
@pytest.mark.parametrize("who", ["alice", "gm"])
def test_on_a_laptop_the_pools_turn_scene_and_roll_are_on_the_first_screen(
    in_play,
    demo_server,  # noqa: F811
    who,
    where,
):
    page = in_play[who]
    page.set_viewport_size(LAPTOP)
    open_page(page, demo_server.base, demo_server.paths[where])
    page.evaluate("window.scrollTo(0, 0)")
    assert_in_view(
        page,
        {
            "#pools": page.locator("#pools"),
            "the round": page.locator("#turn-tracker .turn-round"),
            "the traits": page.locator("#scene-board .board-traits"),
            "the standing trait": page.locator("#scene-board .board-trait", has_text="Thick fog"),
            "#roll-button": page.locator("#roll-button"),
            # Who acts, or (2d20, the players' side to choose) who chooses.
            "who acts": page.locator("#turn-tracker .turn-round ~ :visible").first,
        },
        LAPTOP,
    )
    assert page.errors == []


def top(page, selector: str) -> float:
    return page.locator(selector).bounding_box()["y"]


def test_on_a_phone_the_acting_player_s_composer_comes_first(in_play, demo_server):  # noqa: F811
    """alice's character acts first in the Momenta conflict: her composer is above the
    pools, the characters and the tracker, its top on the first screen; when it is not
    her turn (2d20: her side chooses) the characters come first, as before."""
    page = in_play["alice"]
    page.set_viewport_size(PHONE)
    try:
        open_page(page, demo_server.base, demo_server.paths["momenta_table"])
        page.evaluate("window.scrollTo(0, 0)")
        assert page.locator("#turn-tracker .turn-yours").is_visible()
        assert top(page, ".table-main") < top(page, "#pools") < top(page, "#turn-tracker")
        assert 0 <= top(page, ".table-main") < PHONE["height"] / 2
        open_page(page, demo_server.base, demo_server.paths["d20_table"])
        assert not page.locator("#turn-tracker .turn-yours").is_visible()
        assert top(page, "#pools") < top(page, ".table-main")
    finally:
        page.set_viewport_size(LAPTOP)


@pytest.mark.parametrize("where", TABLES)
def test_on_a_phone_the_gm_tools_come_before_the_log(in_play, demo_server, where):  # noqa: F811
    page = in_play["gm"]
    page.set_viewport_size(PHONE)
    try:
        open_page(page, demo_server.base, demo_server.paths[where])
        assert top(page, ".table-main") < top(page, "#gm-panel") < top(page, "#roll-log")
    finally:
        page.set_viewport_size(LAPTOP)

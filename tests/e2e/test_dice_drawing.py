"""Issue 14 in a real browser: the table's dice are inline SVG drawn under the page's
Content-Security-Policy, and the roll animation runs only for a person who turned it
on, never when their system asks for reduced motion."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables.devtools.server import ServerProcess, server_env

from .conftest import TIMEOUT_MS, start_from

pytestmark = pytest.mark.e2e

DEMO_PASSWORD = "momenta-demo"  # tables/management/commands/seed_demo.py
MOMENTA = "The Salt Roads"
D20 = "House Intrigue"

ROLL_ANSWER = re.compile(r"/(momenta|d20)/roll/$")
# The newest entry's first die: a d6 face or a d20 (site.css animates these).
NEWEST_DIE = "#roll-log > li:first-child :is(svg.die-face, .d20-die)"


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    """The demo campaigns (sheets with skills, so a 2d20 test can be rolled as they are);
    alice plays in both."""
    folder = Path(tmp_path_factory.mktemp("dice-server"))
    server = ServerProcess(
        folder, ["runserver", "--noreload", "--insecure"], env=server_env(folder)
    )
    start_from(tmp_path_factory, server, "demo")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def log_in(browser, base: str, name: str):
    """A page logged in as `name`; .refused gathers CSP refusals and page errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.refused = []
    page.on(
        "console",
        lambda m: page.refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: page.refused.append(str(error)))
    page.goto(f"{base}/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def open_table(page, base: str, name: str) -> None:
    """Open the table of the campaign called `name`, from the home page's list."""
    from playwright.sync_api import expect

    page.goto(f"{base}/")
    campaign = page.locator("a", has_text=name).first.get_attribute("href").rstrip("/")
    page.goto(f"{base}{campaign}/table/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")


def roll(page, button: str) -> None:
    """Click Roll; wait until the new entry is the first of the log."""
    from playwright.sync_api import expect

    with page.expect_response(
        lambda r: ROLL_ANSWER.search(r.url) and r.request.method == "POST"
    ) as answer:
        page.locator(button).first.click()
    found = re.search(r'id="(event-\d+)"', answer.value.text())
    assert answer.value.ok and found, answer.value.text()[:3000]
    entry = found.group(1)
    expect(page.locator(f"#roll-log > li:first-child#{entry}")).to_have_count(1)


def set_animation(page, base: str, on: bool) -> None:
    page.goto(f"{base}/account/settings/")
    page.locator("#id_animate_dice").set_checked(on)
    page.locator("main form:has(#id_animate_dice) button[type=submit]").click()
    page.wait_for_url(f"{base}/account/settings/")
    assert page.locator("#id_animate_dice").is_checked() == on


def animation_of_newest_die(page) -> str:
    return page.eval_on_selector(NEWEST_DIE, "d => getComputedStyle(d).animationName")


def test_dice_are_svg_under_the_csp_and_animate_only_when_asked(browser, demo_server):
    page = log_in(browser, demo_server.base, "alice")
    try:
        # The setting off (the default): SVG dice, no animation class, no animation.
        open_table(page, demo_server.base, MOMENTA)
        roll(page, "#momenta-roll button.mc-roll")
        faces = page.locator("#roll-log > li:first-child .roll-dice svg.die-face")
        assert faces.count() >= 1 and faces.first.is_visible()
        assert page.locator("#roll-log > li:first-child .die-pip").count() >= 1
        # The face as text is still there for screen readers and scripts.
        text = page.locator("#roll-log > li:first-child .roll-dice .die").first.text_content()
        assert text.strip() in {"1", "2", "3", "4", "5", "6"}
        assert page.locator("#table.dice-motion").count() == 0
        assert animation_of_newest_die(page) == "none"

        # Turned on: the class is on the page and the newest dice tumble...
        set_animation(page, demo_server.base, True)
        page.emulate_media(reduced_motion="no-preference")
        open_table(page, demo_server.base, MOMENTA)
        assert page.locator("#table.dice-motion").count() == 1
        assert animation_of_newest_die(page) == "die-tumble"
        # ...but never when the system asks for reduced motion.
        page.emulate_media(reduced_motion="reduce")
        assert animation_of_newest_die(page) == "none"
        page.emulate_media(reduced_motion="no-preference")

        # A d20 test: d20 silhouettes with their faces as text, animated the same way.
        open_table(page, demo_server.base, D20)
        roll(page, "#roll-button")
        dice = page.locator("#roll-log > li:first-child .d20-die")
        assert dice.count() >= 2 and dice.first.locator("svg.d20-shape").is_visible()
        assert dice.first.locator(".d20-num").text_content().strip().isdigit()
        assert animation_of_newest_die(page) == "die-tumble"

        # Off again: no class, no animation.
        set_animation(page, demo_server.base, False)
        open_table(page, demo_server.base, MOMENTA)
        assert page.locator("#table.dice-motion").count() == 0
        assert animation_of_newest_die(page) == "none"
        assert page.refused == []
    finally:
        page.context.close()

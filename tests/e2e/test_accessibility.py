"""Issue 14: the pages are usable without a mouse, without sight, and on a phone.

axe-core (bundled by axe-playwright-python) checks every page people use, as a
player and as the GM, in both rulesets, light and dark, on a laptop and a phone:
no serious or critical violation. A keyboard-only player reaches Roll in a few
Tabs, rolls with Enter, and focus lands on the result. On a 375 x 812 phone the
pools and the Roll button are on the first screen.

One server with the demo data (`manage.py seed_demo`) and one browser for the
module; each person is one browser context, reused for every page and mode.
"""

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
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}
MODES = [
    (scheme, name, size)
    for scheme in ("light", "dark")
    for name, size in (("laptop", LAPTOP), ("phone", PHONE))
]
# What the issue asks to be zero; "moderate" and "minor" are reported, not failed.
BLOCKING = {"serious", "critical"}
ROLL_ANSWER = re.compile(r"/(momenta|d20)/roll/$")


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    """The demo campaigns on a fresh server; .paths: the pages to check, by name."""
    folder = Path(tmp_path_factory.mktemp("a11y-server"))
    server = ServerProcess(
        folder, ["runserver", "--noreload", "--insecure"], env=server_env(folder)
    )
    start_from(tmp_path_factory, server, "demo")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def log_in(browser, base: str, name: str | None):
    context = browser.new_context(viewport=LAPTOP)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    if name:
        page.goto(f"{base}/login/")
        page.fill("#id_username", name)
        page.fill("#id_password", DEMO_PASSWORD)
        page.click("form[action='/login/'] button[type=submit]")
        page.wait_for_url(f"{base}/")
    return page


@pytest.fixture(scope="module")
def people(browser, demo_server):
    """{name: page} for the GM, a player (alice) and a visitor; plus .paths."""
    pages = {name: log_in(browser, demo_server.base, name) for name in ("gm", "alice")}
    pages["visitor"] = log_in(browser, demo_server.base, None)
    alice = pages["alice"]
    alice.goto(demo_server.base + "/")

    def campaign(name):
        return alice.locator("a", has_text=name).first.get_attribute("href").rstrip("/")

    momenta, d20 = campaign(MOMENTA), campaign(D20)
    alice.goto(demo_server.base + momenta + "/")
    sheet = alice.locator("a[href$='/edit/']").first.get_attribute("href")
    # Something in each log, so axe sees dice (misses, successes) and roll cards.
    for path, button in ((momenta, "#momenta-roll button.mc-roll"), (d20, "#roll-button")):
        for page in (alice, pages["gm"]):
            open_page(page, demo_server.base, path + "/table/")
            roll_and_wait(page, button)
    demo_server.paths = {
        "momenta_table": momenta + "/table/",
        "d20_table": d20 + "/table/",
        "campaign": momenta + "/",
        "sheet": sheet,
        "ledger": momenta + "/table/ledger/?pool=group_momentum",
        "login": "/login/",
        "signup": "/signup/",
    }
    yield pages
    for page in pages.values():
        page.context.close()


def open_page(page, base: str, path: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + path)
    if path.endswith("/table/"):
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")


def roll_and_wait(page, button: str) -> str:
    """Click Roll (`button`); the id of the new roll's log entry, once it is shown."""
    from playwright.sync_api import expect

    with page.expect_response(
        lambda r: ROLL_ANSWER.search(r.url) and r.request.method == "POST"
    ) as answer:
        page.locator(button).click()
    found = re.search(r'id="(event-\d+)"', answer.value.text())
    assert answer.value.ok and found, answer.value.text()[:500]
    expect(page.locator(f"#roll-log > #{found.group(1)}")).to_have_count(1)
    return found.group(1)


def blocking_violations(page) -> list[str]:
    """axe's serious and critical violations on `page`, one line per element."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    return [
        f"{v['id']} ({v['impact']}): {', '.join(node['target'])}: {v['help']}"
        for v in results["violations"]
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


def check_modes(page) -> list[str]:
    """Blocking violations of the open page in every colour scheme and width."""
    found = []
    for scheme, size_name, size in MODES:
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size(size)
        # Let the layout follow the new width and scheme (two frames).
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        found += [f"[{scheme} {size_name}] {line}" for line in blocking_violations(page)]
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(LAPTOP)
    return found


PAGES = [
    ("alice", "momenta_table"),
    ("gm", "momenta_table"),
    ("alice", "d20_table"),
    ("gm", "d20_table"),
    ("alice", "campaign"),
    ("gm", "campaign"),
    ("alice", "sheet"),
    ("alice", "ledger"),
    ("visitor", "login"),
    ("visitor", "signup"),
]


@pytest.mark.parametrize(("who", "where"), PAGES)
def test_axe_finds_no_serious_violation(people, demo_server, who, where):
    page = people[who]
    open_page(page, demo_server.base, demo_server.paths[where])
    found = check_modes(page)
    assert found == [], "\n".join(found)
    assert page.errors == []


def focused(page) -> dict:
    return page.evaluate(
        "() => ({id: document.activeElement.id, tag: document.activeElement.tagName,"
        " text: document.activeElement.textContent.trim().slice(0, 40),"
        " kind: document.activeElement.dataset.kind || ''})"
    )


@pytest.mark.parametrize(
    ("where", "kind"), [("momenta_table", "momenta_roll"), ("d20_table", "d20_test")]
)
def test_a_keyboard_player_reaches_roll_in_six_tabs_and_lands_on_the_result(
    browser, demo_server, people, where, kind
):
    """From page load: Tab (following a skip link with Enter if one comes) until the
    Roll button has focus, at most 6 Tabs; Enter rolls; focus is on the new roll card."""
    from playwright.sync_api import expect

    page = log_in(browser, demo_server.base, "alice")
    try:
        open_page(page, demo_server.base, demo_server.paths[where])
        tabs = 0
        while focused(page)["id"] != "roll-button":
            assert tabs < 6, f"after {tabs} Tabs the focus is on {focused(page)}"
            page.keyboard.press("Tab")
            tabs += 1
            link = page.locator("a.skip-link[href='#roll-button']:focus")
            if link.count():
                # A sighted keyboard user sees where the Tab went.
                box = link.bounding_box()
                assert box and box["y"] >= 0 and box["width"] > 0
                page.keyboard.press("Enter")
        with page.expect_response(
            lambda r: ROLL_ANSWER.search(r.url) and r.request.method == "POST"
        ) as answer:
            page.keyboard.press("Enter")
        entry = re.search(r'id="(event-\d+)"', answer.value.text()).group(1)
        expect(page.locator(f"#roll-log > #{entry}")).to_be_focused()
        assert focused(page)["kind"] == kind
    finally:
        page.context.close()


@pytest.mark.parametrize("where", ["momenta_table", "d20_table"])
@pytest.mark.parametrize("who", ["alice", "gm"])
def test_on_a_phone_the_pools_and_roll_are_on_the_first_screen(people, demo_server, who, where):
    """375 x 812, scrolled to the top: the table's pools, the viewer's own characters'
    pools and the Roll button are all inside the viewport."""
    page = people[who]
    page.set_viewport_size(PHONE)
    try:
        open_page(page, demo_server.base, demo_server.paths[where])
        page.evaluate("window.scrollTo(0, 0)")
        own = page.locator(".character-card", has_text=who).locator(".character-pools")
        parts = {"#pools": page.locator("#pools"), "#roll-button": page.locator("#roll-button")}
        parts.update({f"{who}'s pools #{i}": p for i, p in enumerate(own.all())})
        assert own.count() >= 1 or who == "gm"
        for name, part in parts.items():
            box = part.bounding_box()
            assert box is not None, f"{name} is not shown"
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (name, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (name, box)
    finally:
        page.set_viewport_size(LAPTOP)

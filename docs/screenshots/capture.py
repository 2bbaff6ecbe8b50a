"""Take the README's screenshots of the table page, in both rulesets.

    .venv/bin/python docs/screenshots/capture.py

Starts the demo (`manage.py demo 127.0.0.1:PORT`) on a free loopback port with
a fresh SQLite file in a temporary folder (DATABASE_URL and REDIS_URL ignored),
has the GM and two players play a little through the pages, saves full-page
PNGs from headless Debian chromium next to this file (each ruleset, a player's
page and the GM's, 1280 px and 375 x 812, light and dark: <ruleset>[-gm]-
<laptop|phone>[-dark].png), and stops the server.
The server and the browser launch are tables.devtools', shared with tests/e2e.
The dice are seeded (seeded_dice/sitecustomize.py, SEED below), so every run plays
the same faces; screenshots wait for the roll stage to settle into the log.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
# Run as a script from any folder: import this checkout's tables, not another one.
sys.path.insert(0, str(ROOT))

from tables.devtools import browser as devtools_browser  # noqa: E402
from tables.devtools.server import ServerProcess, server_env  # noqa: E402

PASSWORD = "momenta-demo"  # tables/management/commands/seed_demo.py
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}
SCHEMES = ("light", "dark")  # prefers-color-scheme: site.css follows the system setting
MAX_BYTES = 1_000_000  # above this, the PNG is clipped to a few screens
TIMEOUT_MS = 20_000
SEED = 29  # the demo's dice (seeded_dice/): change it for other faces


# --- Driving the pages -------------------------------------------------------------------


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def settled(target: str) -> str:
    """`target` swapped in by htmx and processed (handlers attach when content settles)."""
    return f"{target}:not([data-stale]):not(.htmx-added):not(.htmx-settling)"


def swap(page, target: str, action) -> None:
    """Do `action`, which makes htmx redraw `target` (outerHTML), and wait for the new one."""
    expect(page.locator(settled(target))).to_have_count(1)
    page.eval_on_selector(target, "e => { e.dataset.stale = '1'; }")
    action()
    expect(page.locator(settled(target))).to_have_count(1)


def log_in(browser, base: str, name: str):
    context = browser.new_context(viewport=LAPTOP)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: print(f"  page error ({name}): {error}", file=sys.stderr))
    page.goto(base + "/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(base + "/")
    return page


def open_table(page, base: str, path: str) -> None:
    page.set_viewport_size(LAPTOP)
    page.goto(base + path)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")


def table_path(page, campaign_name: str) -> str:
    """The table page of the campaign named so, from the home page's links."""
    href = page.locator("a", has_text=campaign_name).first.get_attribute("href")
    return href.rstrip("/") + "/table/"


def log_count(page) -> int:
    return page.locator("#roll-log > .log-entry").count()


def wait_for_log(pages, count: int) -> None:
    """Every page's log holds at least `count` entries."""
    for page in pages:
        expect(page.locator(f"#roll-log > .log-entry:nth-child({count})")).to_have_count(1)


def in_step(gm, *pages) -> None:
    """Every page has had, by live push, all that the GM's page has (the GM sees all)."""
    last = max(
        gm.eval_on_selector_all("#roll-log > .log-entry", "es => es.map(e => +e.dataset.seq)")
    )
    for page in (gm, *pages):
        expect(page.locator("#table")).to_have_attribute("data-last-seq", str(last))


def unfold(page, form: str) -> None:
    """Open the composer's "More options" (folded until its person opens it, issue 29)."""
    more = page.locator(f"{form} details.composer-more")
    if more.count() and not more.evaluate("d => d.open"):
        more.locator("summary").click()


# --- Momenta -----------------------------------------------------------------------------


def momenta_roll(page, character: str, attribute: str, **choices) -> None:
    """Fill the Momenta composer and roll. choices: kind, play, modifiers, thread (its text),
    advantage (list of source values), resolve (points of the roller's Resolve)."""
    form = "#momenta-roll"
    select = page.locator(f"{form} select[name=character]")
    if select.locator("option:checked").inner_text().strip() != character:
        swap(page, "#composer", lambda: select.select_option(label=character))
    attribute_select = page.locator(f"{form} select[name=attribute]")
    if attribute_select.input_value() != attribute:
        swap(page, "#composer", lambda: attribute_select.select_option(attribute))
    unfold(page, form)
    page.check(f"{form} input[name=kind][value={choices.get('kind', 'action')}]")
    page.check(f"{form} input[name=play][value={choices.get('play', 'narrative')}]")
    if "modifiers" in choices:
        page.fill(f"{form} input[name=modifiers]", choices["modifiers"])
    if "thread" in choices:
        page.select_option(f"{form} select[name=thread]", label=choices["thread"])
    for source in choices.get("advantage", ()):
        page.check(f"{form} input[name=advantage_sources][value={source}]")
    if "resolve" in choices:
        page.fill(f"{form} .mc-resolve input[type=number] >> nth=0", str(choices["resolve"]))
    before = log_count(page)
    # A roll answers with the form's changed parts, out of band (its odds among them); a
    # refusal, with the whole composer (its odds too).
    swap(page, "#momenta-odds", lambda: page.click(f"{form} button.mc-roll"))
    error = page.locator("#composer .composer-error")
    if error.count():
        raise RuntimeError(f"the roll was refused: {error.inner_text()}")
    wait_for_log([page], before + 1)


def play_momenta(gm, alice, bob) -> None:
    # Dorran, pulled along by his Thread; the Tollkeeper (the GM's NPC) sizes him up.
    momenta_roll(bob, "Dorran Coil", "MIGHT", thread="Hunted by his old captain")
    momenta_roll(gm, "The Tollkeeper", "PRESENCE", modifiers="+1")
    in_step(gm, alice, bob)
    # Iska reads the toll ledgers: Advantage from a Boon (1 Momentum) and 1 Resolve.
    # Rolled until the dice make a pattern, so the allocation chooser shows (at most
    # three times: Momentum 3, Resolve 3).
    for _ in range(3):
        momenta_roll(alice, "Iska Vell", "WITS", advantage=["boon"], resolve=1)
        if alice.locator("#composer .chooser").count():
            break
    in_step(gm, alice, bob)


# --- 2d20 --------------------------------------------------------------------------------


def d20_test(page, character: str, attribute: str, skill: str, **fields) -> None:
    """Fill the 2d20 composer and roll; the spend panel opens for the test."""
    form = "#d20-composer"
    select = page.locator(f"{form} select[name=character]")
    if select.locator("option:checked").inner_text().strip() != character:
        swap(page, "#d20-play", lambda: select.select_option(label=character))
    unfold(page, form)
    page.select_option(f"{form} select[name=attribute]", attribute)
    page.select_option(f"{form} select[name=skill]", skill)
    if "focus" in fields:
        page.select_option(f"{form} select[name=focus]", fields.pop("focus"))
    for name, value in fields.items():
        page.fill(f"{form} input[name={name}]", str(value))
    before = log_count(page)
    # A test answers with the spend panel and the composer's changed parts, out of band; a
    # refusal, with the whole composer (its spend panel too).
    swap(page, "#spend-panel", lambda: page.click(f"{form} button.d20-roll-button"))
    error = page.locator("#d20-messages > .error")
    if error.count():
        raise RuntimeError(f"the test was refused: {error.inner_text()}")
    expect(page.locator("#spend-panel[data-test-id]")).to_have_count(1)
    wait_for_log([page], before + 1)


def gm_panel_form(page, section: str, fill, button: str) -> None:
    """Choose a GM tools tab, fill its form and submit it (the panel is redrawn)."""
    page.locator("#gm-panel [role=tab]", has_text=section).click()
    panel = page.locator("#gm-panel [role=tabpanel]:visible")
    fill(panel)
    swap(page, "#gm-panel", lambda: panel.get_by_role("button", name=button).click())
    error = page.locator("#gm-panel > .error")
    if error.count():
        raise RuntimeError(f"the GM panel refused: {error.inner_text()}")


def play_d20(gm, alice, bob) -> None:
    def threat(details):
        details.locator("input[name=amount]").fill("2")
        details.locator("input[name=reason]").fill("Marcus's guards watch the ballroom doors")

    gm_panel_form(gm, "Threat", threat, "Add Threat")
    wait_for_log([gm], 1)

    def contest(details):
        details.locator("select[name=opposer]").select_option(label="Marcus")
        details.locator("select[name=active]").select_option(label="Dastan")
        details.locator("input[name=attribute]").fill("Power")
        details.locator("input[name=skill]").fill("Battle")
        details.locator("input[name=focus]").fill("Poisons")

    gm_panel_form(gm, "Contest", contest, "Roll the opposer")
    wait_for_log([gm], 2)
    in_step(gm, alice, bob)

    # Kara works the room: Power + Communicate, focus Persuasion, one d20 bought
    # from group Momentum. A failed test is closed and tried again (at most 3).
    for _ in range(3):
        d20_test(
            alice,
            "Kara",
            "Power",
            "Communicate",
            focus="Persuasion",
            difficulty=1,
            bought_dice=1,
            buy_from_momentum=1,
        )
        if alice.locator("#spend-panel .d20-verdict--pass").count():
            break
        done = alice.locator("#spend-panel").get_by_role("button", name="Done")
        swap(alice, "#spend-panel", done.click)
    # One spend, then leave the rest on the panel.
    spend = alice.locator("#spend-panel .spend-form")
    if spend.count() and spend.locator("input[value=obtain_information]:enabled").count():
        spend.locator("input[value=obtain_information]").check()
        spend.locator("input[name=note]").fill("Who invited Marcus?")
        swap(alice, "#spend-panel", lambda: spend.get_by_role("button", name="Spend").click())
    in_step(gm, alice, bob)
    # The GM looks at Kara's open test, with the veto and refund controls.
    gm.reload()
    expect(gm.locator("#live-status")).to_have_attribute("data-state", "live")
    opened = gm.locator(".d20-open-tests button", has_text="Kara").first
    if opened.count():
        swap(gm, "#spend-panel", opened.click)
    gm.locator("#gm-panel [role=tab]", has_text="Contest").click()


# --- Screenshots -------------------------------------------------------------------------


def shoot_all(page, prefix: str) -> None:
    """`prefix`-{laptop,phone}[-dark].png: both widths, light and dark."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        suffix = "" if scheme == "light" else "-dark"
        shoot(page, f"{prefix}-laptop{suffix}.png", LAPTOP)
        shoot(page, f"{prefix}-phone{suffix}.png", PHONE)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(LAPTOP)


def shoot(page, name: str, viewport: dict) -> None:
    # The last roll settled into the log: the stage shows it large for a few seconds.
    expect(page.locator("#roll-stage")).to_be_hidden()
    page.set_viewport_size(viewport)
    page.mouse.move(0, 0)  # no hover effects
    page.evaluate("window.scrollTo(0, 0)")
    # Let the layout settle at the new width (two animation frames).
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > viewport["width"]:
        print(f"  warning: {name} is {width} px wide at {viewport['width']} px", file=sys.stderr)
    path = OUT / name
    page.screenshot(path=str(path), full_page=True)
    if path.stat().st_size > MAX_BYTES:
        height = viewport["height"] * 3
        page.screenshot(
            path=str(path), clip={"x": 0, "y": 0, "width": viewport["width"], "height": height}
        )
    print(f"  {path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")


def main() -> None:
    from playwright.sync_api import expect as playwright_expect
    from playwright.sync_api import sync_playwright

    playwright_expect.set_options(timeout=TIMEOUT_MS)
    with tempfile.TemporaryDirectory(prefix="momenta-shots-") as folder:
        env = server_env(
            Path(folder),
            PYTHONPATH=os.pathsep.join([str(OUT / "seeded_dice"), str(ROOT)]),
            MOMENTA_SCREENSHOT_SEED=str(SEED),
        )
        demo = ServerProcess(Path(folder), ["demo"], env=env)
        with demo as server, sync_playwright() as playwright:
            print(f"Demo server on {server.base}")
            browser = devtools_browser.launch(playwright)
            gm, alice, bob = (log_in(browser, server.base, n) for n in ("gm", "alice", "bob"))
            everyone = (gm, alice, bob)

            path = table_path(gm, "Momenta demo")
            for page in everyone:
                open_table(page, server.base, path)
            play_momenta(gm, alice, bob)
            shoot_all(alice, "momenta")
            shoot_all(gm, "momenta-gm")

            gm.goto(server.base + "/")
            path = table_path(gm, "2d20 demo")
            for page in everyone:
                open_table(page, server.base, path)
            play_d20(gm, alice, bob)
            shoot_all(alice, "2d20")
            shoot_all(gm, "2d20-gm")
            browser.close()
    print("Done.")


if __name__ == "__main__":
    main()

"""TB-01 and TB-04 in real browsers: three people at one table, one of them drops off.

Each browser context is one person (GM, two players) with its own cookies. The
actions are real Momenta rolls made through the roll composer: a person picks
what to roll, clicks "Roll the dice", and the roll card (who, which character,
the faces) must reach the other screens without a reload.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Roll:
    seq: int
    actor: str
    character: str
    faces: list[int]


# What one roll card shows: who rolled, the character, the dice rolled.
CARD_JS = """entry => ({
    actor: entry.querySelector('.log-actor').textContent.trim(),
    character: entry.querySelector('.roll-what strong').textContent.trim(),
    faces: Array.from(entry.querySelectorAll('.roll-dice .die')).map(d => Number(d.textContent)),
})"""


def card(page, seq: int) -> dict:
    return page.eval_on_selector(f"#roll-log > #event-{seq}", CARD_JS)


# The composer after an htmx swap: the new one, processed by htmx. htmx attaches
# its handlers to swapped-in content only when it settles (~20 ms later, then
# drops .htmx-added); a click before that would be a plain form submit.
READY_COMPOSER = "#composer:not([data-stale]):not(.htmx-added):not(.htmx-settling)"


def redraw(page, change, part: str = "#composer") -> None:
    """Do `change` (which makes htmx redraw `part`) and wait for the new one."""
    from playwright.sync_api import expect

    page.eval_on_selector(part, "c => { c.dataset.stale = '1'; }")
    change()
    expect(page.locator(READY_COMPOSER.replace("#composer", part))).to_have_count(1)


def roll(page, user: str, character: dict, attribute: str, modifier: str = "") -> Roll:
    """`user` fills the roll composer on `page` and rolls; returns the roll as logged.

    Waits until the roll card is in the roller's own log (from the HTTP answer)
    and the composer is drawn again.
    """
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    form = page.locator("#momenta-roll")
    chosen = form.locator("select[name=character]")
    if chosen.input_value() != str(character["id"]):
        redraw(page, lambda: chosen.select_option(str(character["id"])))
    expect(form.locator(".mc-pools")).to_contain_text(character["name"])
    if form.locator("select[name=attribute]").input_value() != attribute:
        redraw(page, lambda: form.locator("select[name=attribute]").select_option(attribute))
    form.locator("input[name=kind][value=action]").check()
    form.locator("input[name=play][value=narrative]").check()
    # On a phone the modifiers are folded under "More options" (static/tables/folds.js).
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    form.locator("input[name=modifiers]").fill(modifier)

    def click():
        with page.expect_response(
            lambda r: r.url.endswith("/momenta/roll/") and r.request.method == "POST"
        ) as answer:
            form.locator("button.mc-roll").click()
        click.answer = answer.value

    # A roll answers with the form's changed parts, the roller's pools among them
    # (#momenta-roller); a refusal, with the composer, which holds a new one too.
    redraw(page, click, "#momenta-roller")
    assert click.answer.ok, click.answer.status
    found = re.search(r'data-seq="(\d+)" data-kind="momenta_roll"', click.answer.text())
    assert found, "the roll was refused: " + " ".join(
        page.locator("#composer .composer-error").all_inner_texts()
    )
    seq = int(found.group(1))
    expect(page.locator(f"#roll-log > #event-{seq}")).to_have_count(1)
    # The odds of the reset form load on their own, inside the composer (not over it).
    expect(page.locator("#composer #momenta-odds .odds-pool")).to_have_count(1)
    # What to roll stays as chosen; what the roll spent (the modifier) is cleared.
    expect(form.locator("select[name=attribute]")).to_have_value(attribute)
    expect(form.locator("input[name=kind][value=action]")).to_be_checked()
    expect(form.locator("input[name=modifiers]")).to_have_value("")
    shown = card(page, seq)
    made = Roll(seq, shown["actor"], shown["character"], shown["faces"])
    assert made.actor == user
    assert made.character == character["name"]
    assert made.faces and all(1 <= f <= 6 for f in made.faces)
    return made


def expect_roll(page, made: Roll) -> None:
    """`page` shows the roll card once, the same as the roller's: who, character, faces."""
    from playwright.sync_api import expect

    expect(page.locator(f"#roll-log > #event-{made.seq}")).to_have_count(1)
    expect(page.locator(f"#event-{made.seq}")).to_have_attribute("data-kind", "momenta_roll")
    assert card(page, made.seq) == {
        "actor": made.actor,
        "character": made.character,
        "faces": made.faces,
    }


def log_seqs(page) -> list[int]:
    return page.eval_on_selector_all(
        "#roll-log > .log-entry", "items => items.map(i => Number(i.dataset.seq))"
    )


def log_in(browser, base: str, name: str, path: str, errors: list, viewport=None):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error, name=name: errors.append((name, str(error))))
    # Log in through the site's login form, straight back to the table.
    page.goto(f"{base}/login/?next={path}")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(base + path)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    return context, page


@pytest.fixture
def table(browser, app_server):
    """Open the Momenta table page for gm, alice and bob; yields {name: (context, page)}."""
    from playwright.sync_api import expect

    opened = {}
    errors = []
    path = f"/campaigns/{app_server.campaign}/table/"
    for name in ("gm", "alice", "bob"):
        # alice gets a phone-sized screen: the table must work at 375 px.
        viewport = {"width": 375, "height": 740} if name == "alice" else None
        opened[name] = log_in(browser, app_server.base, name, path, errors, viewport)
    for _, page in opened.values():
        expect(page.locator("#presence .presence-person")).to_have_count(3)
    yield opened
    for context, _ in opened.values():
        context.close()
    assert errors == []


def test_tb_01_a_roll_appears_on_every_screen_without_reload(table, app_server):
    chars = app_server.characters
    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))

    # A player fills the composer (attribute, a +1 modifier) and rolls.
    made = roll(alice, "alice", chars["alice"], "WITS", modifier="+1")
    assert len(made.faces) == 5  # WITS 4 +1
    for page in (gm, bob):
        expect_roll(page, made)
    # The GM rolls for an NPC.
    made = roll(gm, "gm", chars["gm"], "MIGHT")
    assert len(made.faces) == 2
    for page in (alice, bob):
        expect_roll(page, made)
    assert log_seqs(alice) == log_seqs(bob) == log_seqs(gm)


def test_table_fits_a_375px_screen(table, app_server):
    from playwright.sync_api import expect

    alice = table["alice"][1]
    roll(alice, "alice", app_server.characters["alice"], "AGILITY")
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375
    # The 2d20 table too.
    alice.goto(f"{app_server.base}/campaigns/{app_server.d20_campaign}/table/")
    expect(alice.locator("#d20-composer")).to_be_visible()
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_pool_opens_its_history_in_a_dialog_that_fits_a_phone(table, app_server):
    """Issue 5: a player records trauma (PM-03, PM-04), then taps her Momentum: the
    dialog shows who changed it, by how much, the value after and why; it closes."""
    from playwright.sync_api import expect

    # Players record their own trauma only where the GM allows it (issue 11).
    app_server.manage(
        "shell",
        "-c",
        "from tables.models import Campaign; "
        "Campaign.objects.filter(name='E2E Table').update(players_declare_edges=True)",
    )
    alice = table["alice"][1]
    alice.reload()
    iska = app_server.characters["alice"]
    expect(alice.locator(READY_COMPOSER)).to_have_count(1)
    trauma = alice.locator("#momenta-trauma")
    trauma.locator("summary").click()
    trauma.locator("select[name=character]").select_option(str(iska["id"]))
    trauma.locator("input[name=points]").fill("6")
    redraw(alice, lambda: trauma.locator("button[type=submit]").click())
    momentum = alice.locator(f"#character-{iska['id']} [data-pool=momentum]")
    expect(momentum.locator(".pool-value")).to_have_text("6")

    dialog = alice.locator("#pool-ledger")
    expect(dialog).to_be_hidden()
    momentum.locator("a.pool-open").click()  # the card was swapped in by the answer
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text(f"History: {iska['name']}'s Momentum")
    newest = dialog.locator(".ledger-line").first
    expect(newest.locator(".ledger-actor")).to_have_text("alice")
    expect(newest.locator(".ledger-after")).to_have_text("→ 6")
    expect(newest.locator(".ledger-reason")).to_contain_text("trauma")
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    # The GM's page opens the same history from its own (pushed) card.
    gm = table["gm"][1]
    gm.locator(f"#character-{iska['id']} [data-pool=momentum] a.pool-open").click()
    expect(gm.locator("#pool-ledger .ledger-line").first).to_contain_text("alice")
    gm.keyboard.press("Escape")
    expect(gm.locator("#pool-ledger")).to_be_hidden()


def test_a_phone_gets_the_roll_button_and_the_log_early_and_a_laptop_the_log_beside(
    table, app_server
):
    """At 375 px the advanced options are folded, so the Roll button and the log are
    near the top; at 1280 px the log sits beside the composer, in view without
    scrolling."""
    from playwright.sync_api import expect

    alice, gm = table["alice"][1], table["gm"][1]
    roll(gm, "gm", app_server.characters["gm"], "MIGHT")
    alice.reload()
    expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
    more = alice.locator("#momenta-roll details.composer-more")
    assert more.evaluate("d => d.open") is False
    expect(alice.locator("#momenta-roll button.mc-roll")).to_be_visible()
    # From the character select to the Roll button: the essentials and the odds, about
    # one screen (a pattern chooser, when a roll waits for one, comes before it).
    form = alice.locator("#momenta-roll").bounding_box()
    roll_button = alice.locator("#momenta-roll button.mc-roll").bounding_box()
    log = alice.locator("#roll-log").bounding_box()
    assert roll_button["y"] - form["y"] < 700, (form, roll_button)
    # The Roll button rides the bottom of the phone's screen (issue 14: an action bar),
    # out of the form's flow: the log comes soon after the form's end.
    expect(alice.locator("#momenta-roll button.mc-roll")).to_be_in_viewport()
    form_end = form["y"] + form["height"]
    assert log["y"] - form_end < 250, (form, log)  # Assists, Trauma, heading
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375
    # Wider again, the fold stays as the person left it (issue 29: "More options"
    # starts folded and remembers its state); a laptop sees the log on the right.
    alice.set_viewport_size({"width": 1280, "height": 800})
    assert more.evaluate("d => d.open") is False
    for page in (alice, gm):
        page.evaluate("window.scrollTo(0, 0)")
        composer = page.locator("#composer").bounding_box()
        log = page.locator("#roll-log").bounding_box()
        assert log["x"] >= composer["x"] + composer["width"], (composer, log)
        # Under the roll stage's band at the column's top (issue 37: it covers nothing).
        band = page.locator(".roll-stage-band").bounding_box()
        assert band["y"] + band["height"] <= log["y"] < 400 + band["height"], (band, log)
        expect(page.locator("#roll-log > .log-entry").first).to_be_in_viewport()


def test_a_page_load_asks_for_nothing_missing(table, app_server):
    """No 404s (a /favicon.ico on every page before): the icon is inline."""
    from playwright.sync_api import expect

    context = table["bob"][0]
    page = context.new_page()
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(f"{app_server.base}/campaigns/{app_server.campaign}/table/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    page.goto(f"{app_server.base}/")
    page.wait_for_load_state("networkidle")
    assert missing == []
    page.close()


def test_tb_04_a_player_who_was_offline_gets_all_five_rolls_in_order_once(table, app_server):
    from playwright.sync_api import expect

    chars = app_server.characters
    gm, alice = table["gm"][1], table["alice"][1]
    bob_context, bob = table["bob"]
    expect_roll(bob, roll(gm, "gm", chars["gm"], "WITS"))

    bob_context.set_offline(True)
    # Going offline must close bob's socket and show it (see docs/live.md).
    expect(bob.locator("#live-status")).to_have_attribute("data-state", "offline")
    expect(bob.locator("#live-status")).to_have_text("Reconnecting…")
    assert bob.evaluate("window.momentaLive.socket === null")
    seen_before = log_seqs(bob)

    # Five rolls while bob is away, alice and the GM taking turns.
    rolls = []
    for i in range(5):
        if i % 2 == 0:
            made = roll(alice, "alice", chars["alice"], ("AGILITY", "MIGHT", "WITS")[i // 2])
            expect_roll(gm, made)
        else:
            made = roll(gm, "gm", chars["gm"], "PRESENCE")
            expect_roll(alice, made)
        rolls.append(made)
    assert [r.seq for r in rolls] == sorted(r.seq for r in rolls)
    assert log_seqs(bob) == seen_before  # nothing reached him

    bob_context.set_offline(False)
    expect(bob.locator("#live-status")).to_have_attribute("data-state", "live", timeout=30_000)
    for made in rolls:
        expect_roll(bob, made)
    seqs = log_seqs(bob)
    assert seqs == log_seqs(gm)  # same entries, newest first
    assert len(seqs) == len(set(seqs))  # none twice
    assert seqs == sorted(seqs, reverse=True)
    missed = [s for s in reversed(seqs) if s > max(seen_before)]
    assert missed == [r.seq for r in rolls]  # all five, in order, nothing else

    # And live again afterwards: bob rolls, the others see it.
    made = roll(bob, "bob", chars["bob"], "PRESENCE")
    for page in (gm, alice):
        expect_roll(page, made)
    assert log_seqs(bob) == log_seqs(gm)


def test_pages_reconnect_and_catch_up_after_the_server_restarts(table, app_server):
    """A server going away (close 1001/1006, not a browser going offline) is
    survived too: every page retries with backoff and replays what it missed."""
    from playwright.sync_api import expect

    gm = table["gm"][1]
    app_server.stop()
    for _, page in table.values():
        expect(page.locator("#live-status")).to_have_attribute("data-state", "offline")
    app_server.start()
    for _, page in table.values():
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live", timeout=30_000)
    made = roll(gm, "gm", app_server.characters["gm"], "AGILITY")
    for name in ("alice", "bob"):
        page = table[name][1]
        expect_roll(page, made)
        assert log_seqs(page) == log_seqs(gm)


# --- Every region live (issue 10) -------------------------------------------------------


def post_from_page(page, path: str, data: dict) -> tuple[int, str]:
    """A command sent from `page` as htmx sends it (its CSRF header, an HX request)."""
    return page.evaluate(
        """async ([path, data]) => {
            const headers = JSON.parse(document.body.getAttribute('hx-headers'));
            headers['HX-Request'] = 'true';
            const r = await fetch(path, {method: 'POST', body: new URLSearchParams(data), headers});
            return [r.status, await r.text()];
        }""",
        [path, data],
    )


def test_the_gm_tools_assist_queue_changes_live_when_a_player_asks_for_an_assist(table, app_server):
    from playwright.sync_api import expect

    chars = app_server.characters
    gm, bob = table["gm"][1], table["bob"][1]
    queue = gm.locator("#momenta-assist-queue")
    expect(queue).to_contain_text("No Assist is waiting")
    # Bob offers Dorran's help to Iska from his composer (PM-08).
    expect(bob.locator(READY_COMPOSER)).to_have_count(1)
    panel = bob.locator("#momenta-assists")
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").click()
    form = panel.locator("form.mc-subform")
    form.locator("select[name=helper]").select_option(str(chars["bob"]["id"]))
    form.locator("select[name=roller]").select_option(str(chars["alice"]["id"]))
    redraw(bob, lambda: form.locator("button[type=submit]").click())
    # The GM's queue shows it without a reload, with the answers to give.
    line = f"{chars['bob']['name']} → {chars['alice']['name']}: Requested"
    expect(queue).to_contain_text(line)
    expect(queue.locator("button", has_text="Accept")).to_have_count(1)


def buy_a_d20_with_threat(app_server, page) -> None:
    """Alice tests Paul with one bought d20, paid by adding 1 to Threat (MO-08)."""
    paul = page.locator("#d20-character option").first.get_attribute("value")
    status, answer = post_from_page(
        page,
        f"/campaigns/{app_server.d20_campaign}/d20/roll/",
        {
            "character": paul,
            "attribute": "Power",
            "skill": "Communicate",
            "focus": "",
            "difficulty": "1",
            "harder": "0",
            "easier": "0",
            "bought_dice": "1",
            "buy_from_momentum": "0",
            "bonus_momentum": "0",
        },
    )
    assert status == 200 and 'data-kind="d20_test"' in answer, answer[:500]


def test_the_gm_tools_threat_heading_changes_live_when_a_player_buys_a_d20(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    # The seed's 2d20 characters have attributes only: give Paul a skill to test.
    app_server.manage(
        "shell",
        "-c",
        "from tables.models import Character; "
        "Character.objects.get(name='Paul').skills.get_or_create(name='Communicate', value=6)",
    )
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        heading = gm.locator("#gm-threat-heading .gm-threat")
        before = int(heading.inner_text())
        buy_a_d20_with_threat(app_server, alice)
        expect(heading).to_have_text(str(before + 1))
        # The player's page never gets the GM's tools.
        expect(alice.locator("#gm-threat-heading")).to_have_count(0)
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

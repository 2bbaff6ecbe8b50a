"""PM-08 in real browsers: the helper's player agrees before any of their Momentum moves.

alice (Iska) asks for Dorran (bob's character) to fund Iska's roll; the GM accepts; bob
sees the request on his own Assist panel without a reload and accepts; only then does
Iska's roll spend Dorran's point, on every screen. A decline moves no point.
"""

from __future__ import annotations

import pytest

from .test_live_table import READY_COMPOSER, redraw, table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


def momentum(page, character: dict) -> str:
    return page.locator(f"#character-{character['id']} [data-pool=momentum] .pool-value")


def open_assists(page, showing: str | None = None):
    """The page's Assists panel, opened; `showing`: first wait for the request with this
    text to arrive live. The redraw that brings it draws the panel open: landing between
    a look at the closed panel and a click on its summary, it would be closed again."""
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    panel = page.locator("#momenta-assists")
    if showing is not None:
        expect(panel.locator("li", has_text=showing)).to_have_count(1)
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").click()
    return panel


def ask(page, helper: dict, roller: dict) -> None:
    """Ask, from `page`'s composer, for `helper` to fund `roller`'s roll."""
    form = open_assists(page).locator("form.mc-subform")
    form.locator("select[name=helper]").select_option(str(helper["id"]))
    form.locator("select[name=roller]").select_option(str(roller["id"]))
    redraw(page, lambda: form.locator("button[type=submit]").click())


def gm_accepts(gm, helper: dict, roller: dict) -> None:
    from playwright.sync_api import expect

    line = gm.locator("#momenta-assist-queue li", has_text=f"{helper['name']} → {roller['name']}")
    expect(line).to_contain_text("Requested")
    # The GM tools are tabs (issue 14): the queue is the Assists tab's panel.
    gm.locator("#momenta-assist-queue-tab").click()
    line.locator("button", has_text="Accept").click()
    expect(gm.locator("#momenta-assist-queue")).to_contain_text("Accepted")


def roll_with_assist(page, roller: dict, helper: dict):
    """Redraw the composer (it is one person's form, never pushed), choose the Assist
    and roll; returns the composer's error text ('' if the roll was made)."""
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    form = page.locator("#momenta-roll")
    redraw(page, lambda: form.locator("select[name=attribute]").select_option("AGILITY"))
    form = page.locator("#momenta-roll")
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    choice = form.locator("select[name=assist] option", has_text=helper["name"])
    form.locator("select[name=assist]").select_option(choice.get_attribute("value"))
    with page.expect_response(lambda r: r.url.endswith("/momenta/roll/")) as answer:
        form.locator("button.mc-roll").click()
    html = answer.value.text()
    if 'data-kind="momenta_roll"' in html:
        return ""
    expect(page.locator("#composer .composer-error")).to_have_count(1)
    return page.locator("#composer .composer-error").inner_text()


def test_pm_08_bob_accepts_before_dorrans_momentum_is_spent(table, app_server):  # noqa: F811
    from playwright.sync_api import expect

    chars = app_server.characters
    iska, dorran = chars["alice"], chars["bob"]
    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))
    for page in (gm, alice, bob):
        expect(momentum(page, dorran)).to_have_text("3")

    ask(alice, dorran, iska)
    gm_accepts(gm, dorran, iska)
    # bob's own panel shows the request live, with his answers.
    asked = f"{dorran['name']} → {iska['name']}"
    mine = open_assists(bob, showing=asked).locator("li", has_text=asked)
    expect(mine).to_contain_text(f"waiting for {dorran['name']}'s player")
    expect(mine.locator("button", has_text="Accept")).to_have_count(1)
    expect(mine.locator("button", has_text="Decline")).to_have_count(1)

    # The GM's acceptance alone spends nothing: the roll is refused, Dorran keeps 3.
    refused = roll_with_assist(alice, iska, dorran)
    assert "has not agreed" in refused, refused
    for page in (gm, alice, bob):
        expect(momentum(page, dorran)).to_have_text("3")

    redraw(bob, lambda: mine.locator("button", has_text="Accept").click())
    asked = f"{dorran['name']} → {iska['name']}"
    mine = open_assists(bob, showing=asked).locator("li", has_text=asked)
    expect(mine).to_contain_text(f"{dorran['name']} agreed to pay")
    expect(mine.locator("button", has_text="Withdraw")).to_have_count(1)
    # Rolled again as the refusal left the composer (the Assist still chosen): the
    # refusal's words go with the roll made.
    expect(alice.locator("#composer .composer-error")).to_have_count(1)
    with alice.expect_response(lambda r: r.url.endswith("/momenta/roll/")) as answer:
        alice.locator("#momenta-roll button.mc-roll").click()
    assert 'data-kind="momenta_roll"' in answer.value.text()
    expect(alice.locator("#composer .composer-error")).to_have_count(0)
    for page in (gm, alice, bob):
        expect(momentum(page, dorran)).to_have_text("2")
        expect(momentum(page, iska)).to_have_text("3")


def test_pm_08_bobs_decline_moves_no_point(table, app_server):  # noqa: F811
    from playwright.sync_api import expect

    chars = app_server.characters
    iska, dorran = chars["alice"], chars["bob"]
    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))
    before = momentum(gm, dorran).inner_text()

    ask(alice, dorran, iska)
    asked = f"{dorran['name']} → {iska['name']}"
    mine = open_assists(bob, showing=asked).locator("li", has_text=asked)
    expect(mine.locator("button", has_text="Decline")).to_have_count(1)
    redraw(bob, lambda: mine.locator("button", has_text="Decline").click())
    # The GM's queue empties live; the log says bob declined; no pool moved.
    expect(gm.locator("#momenta-assist-queue")).to_contain_text("No Assist is waiting")
    for page in (gm, alice):
        expect(page.locator("#roll-log")).to_contain_text(f"{dorran['name']} declines")
        expect(momentum(page, dorran)).to_have_text(before)

"""Issue 15 in real browsers: the GM voids a player's roll that spent Momentum.

alice's Iska paid 1 Momentum for a Boon's Advantage (PM-05). The GM opens "Void…" on
that card and gives a reason; on the GM's and alice's screens, without a reload, the
card is struck through with who voided it and why, and Iska's Momentum is back.
"""

from __future__ import annotations

import re

import pytest

from .test_live_table import READY_COMPOSER, redraw, table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


def paid_roll(page, character: dict) -> int:
    """alice rolls WITS for `character` with a Boon's Advantage, paying 1 Momentum (PM-05)."""
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    form = page.locator("#momenta-roll")
    chosen = form.locator("select[name=character]")
    if chosen.input_value() != str(character["id"]):
        redraw(page, lambda: chosen.select_option(str(character["id"])))
    if form.locator("select[name=attribute]").input_value() != "WITS":
        redraw(page, lambda: form.locator("select[name=attribute]").select_option("WITS"))
    form = page.locator("#momenta-roll")
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    form.locator("input[name=advantage_sources][value=boon]").check()
    with page.expect_response(lambda r: r.url.endswith("/momenta/roll/")) as answer:
        form.locator("button.mc-roll").click()
    found = re.search(r'data-seq="(\d+)" data-kind="momenta_roll"', answer.value.text())
    assert found, "the roll was refused"
    return int(found.group(1))


def test_voiding_a_paid_roll_restores_momentum_on_every_screen(table, app_server):  # noqa: F811
    from playwright.sync_api import expect

    iska = app_server.characters["alice"]
    gm, alice = table["gm"][1], table["alice"][1]
    momentum = f"#character-{iska['id']} [data-pool=momentum] .pool-value"
    before = int(alice.locator(momentum).inner_text())
    seq = paid_roll(alice, iska)
    card = f"#roll-log > #event-{seq}"
    for page in (gm, alice):
        expect(page.locator(card)).to_have_count(1)
        expect(page.locator(momentum)).to_have_text(str(before - 1))
        expect(page.locator(f"{card}.log-entry--voided")).to_have_count(0)
    expect(alice.locator(f"{card} .log-void")).to_have_count(0)  # players cannot void

    void = gm.locator(f"{card} details.log-void")
    void.locator("summary").click()
    void.locator("input[name=reason]").fill("Wrong attribute")
    void.locator("button[type=submit]").click()

    for page in (gm, alice):
        struck = page.locator(card)
        expect(page.locator(f"{card}.log-entry--voided")).to_have_count(1)
        expect(struck.locator(".log-voided")).to_have_text("Voided by gm: Wrong attribute")
        # Retried like the other expectations: the card may be swapped in as it is read.
        expect(struck.locator(".log-head")).to_have_css("text-decoration-line", "line-through")
        expect(page.locator(momentum)).to_have_text(str(before))
        expect(page.locator("#roll-log > li[data-kind=voided]")).to_have_count(1)

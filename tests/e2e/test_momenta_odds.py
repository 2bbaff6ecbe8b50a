"""The Momenta composer's odds preview follows every change (issue 11, D6-12, PM-05..PM-11).

The preview (#momenta-odds) is fetched on each change of the composer's fields.
It used to follow the first change only: the fields inherited the form's
hx-swap="outerHTML", so the first answer replaced #momenta-odds by its content,
and every later answer found no target (htmx:targetError in the console).
"""

from __future__ import annotations

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

THREAD = "Owes the Tollkeeper"


@pytest.fixture(scope="module")
def seeded(app_server):
    """Iska (alice) and the GM's NPC get Momentum to pay an Advantage and a Thread, and
    the GM lets players declare their own Disadvantage (off by default)."""
    app_server.manage(
        "shell",
        "-c",
        "from tables.models import Campaign, Character, Trait\n"
        f"Campaign.objects.filter(pk={app_server.campaign}).update(players_declare_edges=True)\n"
        "for c in Character.objects.filter(name__in=['Iska Vell', 'The Tollkeeper']):\n"
        "    c.momentum = 4\n"
        "    c.save()\n"
        f"    Trait.objects.create(character=c, kind=Trait.Kind.THREAD, text={THREAD!r})\n",
    )
    return app_server


def open_table(browser, server, name: str, console: list):
    from playwright.sync_api import expect

    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("console", lambda m: console.append((name, m.type, m.text)))
    page.on("pageerror", lambda e: console.append((name, "pageerror", str(e))))
    path = f"/campaigns/{server.campaign}/table/"
    page.goto(f"{server.base}/login/?next={path}")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(server.base + path)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    return context, page


def follow(page, change, pool: str, *texts: str) -> None:
    """Make one `change` to the composer; the preview must show `pool` dice and `texts`."""
    from playwright.sync_api import expect

    with page.expect_response(lambda r: "/momenta/odds/" in r.url) as answer:
        change()
    assert answer.value.ok
    odds = page.locator("#composer #momenta-odds")
    expect(odds).to_have_count(1)
    expect(odds.locator(".odds-pool strong")).to_have_text(pool)
    for text in texts:
        expect(odds).to_contain_text(text)


def redraw(page, select, value: str) -> None:
    """Choose `value` in `select` (another character or attribute redraws the composer)."""
    from playwright.sync_api import expect

    if select.input_value() == value:
        return
    page.eval_on_selector("#composer", "c => { c.dataset.stale = '1'; }")
    select.select_option(value)
    expect(page.locator("#composer:not([data-stale]):not(.htmx-settling)")).to_have_count(1)


def compose(page, character: dict):
    """The roll form with `character`'s WITS (4d) chosen and every option in view."""
    from playwright.sync_api import expect

    form = page.locator("#momenta-roll")
    redraw(page, form.locator("select[name=character]"), str(character["id"]))
    redraw(page, form.locator("select[name=attribute]"), "WITS")
    expect(form.locator("#momenta-odds .odds-pool strong")).to_have_text("4d")
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    return form


def test_the_odds_preview_follows_five_changes_in_a_row(browser, seeded):
    console: list = []
    chars = seeded.characters
    opened = [open_table(browser, seeded, name, console) for name in ("alice", "gm")]
    try:
        alice, gm = opened[0][1], opened[1][1]

        form = compose(alice, chars["alice"])
        boon = form.locator("input[name=advantage_sources][value=boon]")
        modifiers = form.locator("input[name=modifiers]")
        follow(alice, lambda: modifiers.fill("+1"), "5d")
        follow(alice, lambda: modifiers.fill("+2"), "6d")
        follow(alice, boon.check, "7d", "Advantage (+1d) costs 1 Momentum")
        follow(alice, form.locator("input[name=disadvantage]").check, "6d", "cancel")
        follow(alice, lambda: form.locator("select[name=thread]").select_option(label=THREAD), "8d")

        # The GM's composer has opposition too (D6-10).
        form = compose(gm, chars["gm"])
        follow(gm, lambda: form.locator("input[name=modifiers]").fill("+1"), "5d")
        follow(gm, form.locator("input[name=advantage_sources][value=boon]").check, "6d")
        follow(gm, form.locator("input[name=disadvantage]").check, "5d", "cancel")
        follow(gm, lambda: form.locator("select[name=thread]").select_option(label=THREAD), "7d")
        follow(
            gm,
            lambda: form.locator("input[name=opposition_pool]").fill("2"),
            "7d",
            "against an opposition roll of 2d",
        )
        follow(
            gm,
            lambda: form.locator("input[name=modifiers]").fill("-1"),
            "5d",
            "against an opposition roll of 2d",
        )
    finally:
        for context, _ in opened:
            context.close()
    errors = [m for m in console if m[1] in ("error", "pageerror")]
    assert not [m for m in console if "targetError" in m[2]], console
    assert errors == []

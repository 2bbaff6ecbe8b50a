"""Roll from the sheet (issue 37) in a real browser, from the keyboard only: a player
tabs to an attribute on their own card, presses Enter, the composer comes back with it
chosen and its Roll button focused (static/tables/sheet_rolls.js), and Enter on Roll
puts the roll in the log. After a 2d20 test, the composer keeps what to roll (issue 38)."""

from __future__ import annotations

import re

import pytest

from .test_gm_tabs import give_paul_a_skill
from .test_live_table import log_in, redraw

pytestmark = pytest.mark.e2e


def tab_to(page, locator, most: int = 10) -> None:
    """Press Tab until `locator` has the focus (at most `most` times)."""
    for _ in range(most):
        if locator.evaluate("e => e === document.activeElement"):
            return
        page.keyboard.press("Tab")
    assert locator.evaluate("e => e === document.activeElement"), "Tab never reached it"


def test_a_player_rolls_an_attribute_from_their_card_with_the_keyboard(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    iska = app_server.characters["alice"]["id"]
    path = f"/campaigns/{app_server.campaign}/table/"
    context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        # Only her own card has the links: Dorran's (bob's) has none.
        expect(alice.locator(f"#sheet-rolls-{app_server.characters['bob']['id']}")).to_have_count(0)
        composer = alice.locator("#composer select[name=attribute]")
        expect(composer).not_to_have_value("PRESENCE")
        # From her card's last pool link, Tab on to her sheet's PRESENCE.
        alice.locator(f"#character-{iska} .pool-open").last.focus()
        presence = alice.locator(f"#sheet-rolls-{iska} a.sheet-roll", has_text="PRESENCE")
        tab_to(alice, presence)
        with alice.expect_response(lambda r: "/momenta/composer/" in r.url):
            alice.keyboard.press("Enter")
        expect(alice.locator("#composer select[name=attribute]")).to_have_value("PRESENCE")
        expect(alice.locator("#composer select[name=character]")).to_have_value(str(iska))
        roll = alice.locator("#composer #roll-button")
        expect(roll).to_be_focused()
        with alice.expect_response(
            lambda r: r.url.endswith("/momenta/roll/") and r.request.method == "POST"
        ) as answer:
            alice.keyboard.press("Enter")
        found = re.search(r'data-seq="(\d+)" data-kind="momenta_roll"', answer.value.text())
        assert found, "the roll was refused"
        entry = alice.locator(f"#roll-log > #event-{found.group(1)}")
        expect(entry).to_have_count(1)
        expect(entry).to_contain_text("Iska Vell")
        expect(entry).to_contain_text("PRESENCE")
    finally:
        context.close()
    assert errors == []


def test_a_player_builds_a_2d20_test_from_their_card_with_the_keyboard(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        sheet = alice.locator(".sheet-rolls")  # Paul's: Jessica's card has none
        expect(sheet).to_have_count(1)
        play = alice.locator("#d20-play")
        # An attribute, then a skill: each link keeps the composer's other choice.
        for name, field in (("Justice", "attribute"), ("Communicate", "skill")):
            link = sheet.locator("a.sheet-roll", has_text=name)
            link.focus()
            with alice.expect_response(lambda r: "/d20/composer/" in r.url):
                alice.keyboard.press("Enter")
            expect(play.locator(f"select[name={field}]")).to_have_value(name)
            expect(play.locator("#roll-button")).to_be_focused()
        expect(play.locator("select[name=attribute]")).to_have_value("Justice")
        with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")) as answer:
            alice.keyboard.press("Space")
        assert answer.value.ok
        found = re.search(r'data-seq="(\d+)"', answer.value.text())
        assert found, "the test was refused"
        expect(alice.locator(f"#roll-log > #event-{found.group(1)}")).to_contain_text("Justice")
    finally:
        context.close()
    assert errors == []


def test_after_a_2d20_test_the_composer_keeps_its_choices_and_drops_the_refusal(
    browser, app_server
):
    """Issue 38: a test's answer swaps only the composer's parts the roll changed, out of
    band. What to roll stays as chosen (Justice + Communicate), what was bought is
    cleared and the odds are the next test's (2d20, not the 3d20 just rolled), and the
    words of a refusal said before the roll are gone."""
    from playwright.sync_api import expect

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        play = alice.locator("#d20-play")
        play.locator("select[name=attribute]").select_option("Justice")
        play.locator("select[name=skill]").select_option("Communicate")
        if not play.locator("details.composer-more").evaluate("d => d.open"):
            play.locator("details.composer-more > summary").click()
        play.locator("input[name=bought_dice]").fill("4")
        # Refused: the composer comes back whole, as sent; wait until htmx has processed it.
        redraw(alice, lambda: play.locator("#roll-button").click(), "#d20-play")
        alert = play.locator("[role=alert]")
        expect(alert).to_contain_text("At most 3 bonus d20s")
        odds = play.locator("#d20-odds")
        with alice.expect_response(lambda r: "/d20/odds/" in r.url):
            play.locator("input[name=bought_dice]").fill("1")
        expect(odds).to_contain_text("3d20")
        with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")) as answer:
            play.locator("#roll-button").click()
        assert 'data-kind="d20_test"' in answer.value.text(), "the test was refused"
        expect(alert).to_have_count(0)
        expect(play.locator("input[name=bought_dice]")).to_have_value("0")
        expect(play.locator("select[name=attribute]")).to_have_value("Justice")
        expect(play.locator("select[name=skill]")).to_have_value("Communicate")
        expect(odds).to_contain_text("(Justice + Communicate)")
        expect(odds).to_contain_text("2d20")
        expect(odds).not_to_contain_text("3d20")
    finally:
        context.close()
    assert errors == []


def test_the_links_outlive_a_push_that_redraws_every_card(browser, app_server):
    """A harm track the GM sets redraws all the cards, once per audience and so with
    nobody's own links (sheet_rolls.js puts this page's back): alice still rolls from
    her sheet afterwards."""
    from playwright.sync_api import expect

    errors: list = []
    iska = app_server.characters["alice"]["id"]
    path = f"/campaigns/{app_server.campaign}/table/"
    context, alice = log_in(browser, app_server.base, "alice", path, errors)
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    try:
        expect(alice.locator(f"#sheet-rolls-{iska}")).to_have_count(1)
        # The GM's command, as the harm tools send it (through the server, so it pushes).
        csrf = next(c["value"] for c in gm_context.cookies() if c["name"] == "csrftoken")
        answer = gm.request.post(
            f"{app_server.base}/campaigns/{app_server.campaign}/table/harm/",
            form={"action": "set_track", "character": str(iska), "track": "strain", "maximum": "9"},
            headers={"X-CSRFToken": csrf, "HX-Request": "true", "Referer": gm.url},
        )
        assert answer.ok, answer.text()
        expect(alice.locator("#characters[data-seq]")).to_have_count(1)  # the push landed
        links = alice.locator(f"#sheet-rolls-{iska}")
        expect(links).to_have_count(1)
        # Still in its place: after her card, before the next one.
        assert links.evaluate(
            "n => { let p = n.previousElementSibling;"
            " while (p && !p.matches('article')) p = p.previousElementSibling;"
            f" return p && p.id === 'character-{iska}'; }}"
        )
        with alice.expect_response(lambda r: "/momenta/composer/" in r.url):
            links.locator("a.sheet-roll", has_text="PRESENCE").click()
        expect(alice.locator("#composer select[name=attribute]")).to_have_value("PRESENCE")
        expect(alice.locator("#composer #roll-button")).to_be_focused()
    finally:
        context.close()
        gm_context.close()
    assert errors == []

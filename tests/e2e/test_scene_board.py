"""Issue 23 in real browsers: the scene board, live on three screens (MO-09, MO-09b, MO-12).

The GM and two players at one 2d20 table. The server's d20s all show 1 (a test-only
sitecustomize hook, as in test_called_tests.py), so every test passes with Momentum to
spend. Alice's Create Trait spend puts a trait on all three boards without a reload;
Bob's next roll marks it as hindering, and his odds and Difficulty change; the GM vetoes
a second Create Trait and that trait leaves every board; the GM ends the scene keeping
one trait, and only that one remains.
"""

from __future__ import annotations

import pytest

from tables.devtools.server import ServerProcess, server_env

from .conftest import PASSWORD, start_from
from .test_called_tests import FIXED_DICE
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

FIRST = "The guards are Distracted"
SECOND = "Smoke in the hall"
GM_TRAIT = "Curfew bells"
THIRD = "Alarm raised"
FOURTH = "Lamps out"


@pytest.fixture(scope="module")
def board_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e-board")
    hook = folder / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FIXED_DICE)
    env = server_env(folder, E2E_PASSWORD=PASSWORD, PYTHONPATH=str(hook), E2E_D20_FACES="1")
    server = ServerProcess(folder, ["runserver", "--noreload", "--insecure"], env=env)
    seed = start_from(tmp_path_factory, server)
    server.d20_campaign = seed["d20_campaign"]
    server.manage(
        "shell",
        "-c",
        "from tables.models import Character\n"
        "for name in ('Paul', 'Jessica'):\n"
        "    Character.objects.get(name=name).skills.create(name='Athletics', value=3)\n",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def boards(pages):
    return [page.locator("#scene-board .board-traits") for page in pages]


def roll(page, expect, *, hinder: str | None = None) -> None:
    """Roll Power + Athletics at Difficulty 1 from the composer (ticking `hinder` first);
    the answer opens the new test in the spend panel."""
    composer = page.locator("#d20-composer")
    composer.locator("select[name=attribute]").select_option("Power")
    composer.locator("select[name=skill]").select_option("Athletics")
    composer.locator("input[name=difficulty]").fill("1")
    if hinder is not None:
        odds = page.locator("#d20-odds")
        expect(odds).to_contain_text("Difficulty 1")
        before = odds.inner_text()
        mark = page.locator("#composer-traits .board-mark", has_text=hinder)
        mark.locator("input[name=hinders]").check()
        expect(odds).to_contain_text("Difficulty 2")
        assert odds.inner_text() != before  # the exact odds followed the mark
    panel = page.locator("#spend-panel")
    shown = panel.get_attribute("data-test-id") or ""
    with page.expect_response(lambda r: r.url.endswith("/d20/roll/")) as answer:
        page.locator("#roll-button").click()
    assert answer.value.ok
    # The new test's panel, not the last one's (which may still take a spend).
    expect(panel).not_to_have_attribute("data-test-id", shown)
    expect(page.locator("#spend-panel .spend-form")).to_have_count(1)


def create_trait(page, expect, text: str) -> None:
    panel = page.locator("#spend-panel")
    panel.locator("input[name=kind][value=create_trait]").check()
    panel.locator("input[name=note]").fill(text)
    panel.locator(".spend-form button[type=submit]").click()
    expect(panel.locator(".spends-made")).to_contain_text(text)


def test_the_scene_board_lives_on_every_screen(browser, board_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{board_server.d20_campaign}/table/"
    opened = [
        log_in(browser, board_server.base, name, path, errors) for name in ("gm", "alice", "bob")
    ]
    (gm_context, gm), (alice_context, alice), (bob_context, bob) = opened
    oob_misses: list = []
    for _, page in opened:
        page.on(
            "console",
            lambda m: oob_misses.append(m.text) if "oobErrorNoTarget" in m.text else None,
        )
    everyone = [gm, alice, bob]
    try:
        # MO-09: Alice's Create Trait spend reaches every board, no reload.
        roll(alice, expect)
        create_trait(alice, expect, FIRST)
        for board in boards(everyone):
            expect(board).to_contain_text(FIRST)

        # MO-09b: Bob's next roll leans on it; the card names it.
        roll(bob, expect, hinder=FIRST)
        for page in everyone:
            card = page.locator("#roll-log > li[data-kind=d20_test]").first
            expect(card).to_contain_text(f"{FIRST} (hinders, +1)")

        # MO-12: the GM vetoes a second Create Trait; it leaves every board.
        roll(alice, expect)
        create_trait(alice, expect, SECOND)
        for board in boards(everyone):
            expect(board).to_contain_text(SECOND)
        # The newest test card is Alice's second roll: the GM opens it in the spend panel.
        gm.locator("#roll-log > li[data-kind=d20_test]").first.locator(".d20-open").click()
        spend = gm.locator("#spend-panel .spend-made", has_text=SECOND)
        spend.locator("button", has_text="Veto").click()
        for board in boards(everyone):
            expect(board).not_to_contain_text(SECOND)
            expect(board).to_contain_text(FIRST)
        expect(gm.locator("#roll-log")).to_contain_text(f"“{SECOND}” leaves the board.")

        # The GM starts a note; Alice's next trait redraws every board meanwhile: what
        # the GM typed stays in the field (static/tables/drafts.js).
        add = gm.locator("#scene-board .board-add")
        add.locator("input[name=text]").fill(GM_TRAIT)
        for extra in (THIRD, FOURTH):  # two redraws: what was kept is kept again
            roll(alice, expect)
            create_trait(alice, expect, extra)
            for board in boards(everyone):
                expect(board).to_contain_text(extra)
            expect(add.locator("input[name=text]")).to_have_value(GM_TRAIT)
        # MO-09b: the GM adds the trait, then ends the scene keeping only the first.
        add.locator("button[type=submit]").click()
        for board in boards(everyone):
            expect(board).to_contain_text(GM_TRAIT)
        kept = gm.locator("#scene-board .board-trait", has_text=FIRST)
        kept.locator("input[name=keep_trait]").check()
        gm.locator("#gm-scene-end button[type=submit]").click()
        for board in boards(everyone):
            expect(board).not_to_contain_text(GM_TRAIT)
            expect(board.locator(".board-trait")).to_have_count(1)
            expect(board).to_contain_text(FIRST)
    finally:
        for context, _ in opened:
            context.close()
    assert errors == []
    assert oob_misses == []

"""Issue 15 in real browsers: Challenge dice (GL-04) rolled from one table page appear on
another without a reload, with the same faces, total and Effects.

The module's server plays the 2d20 campaign on Star Trek Adventures, 1st edition (a line
with Challenge dice); the dice are the server's (TB-02), so the test reads them from the
roller's card and checks the other screen shows the same.
"""

from __future__ import annotations

import re

import pytest

from .test_live_table import log_in

pytestmark = pytest.mark.e2e


def test_gl_04_a_challenge_roll_appears_on_two_screens(browser, app_server):
    from playwright.sync_api import expect

    app_server.manage(
        "shell",
        "-c",
        "from tables.models import Campaign; "
        f"Campaign.objects.filter(pk={app_server.d20_campaign}).update(game_line='sta1')",
    )
    errors = []
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        form = alice.locator("#challenge-dice form")
        form.locator("input[name=dice]").fill("4")
        form.locator("select[name=character]").select_option(label="Paul")
        form.locator("input[name=note]").fill("Phaser, stun")
        with alice.expect_response(lambda r: r.url.endswith("/d20/challenge/")) as answer:
            form.locator("button[type=submit]").click()
        found = re.search(r'data-seq="(\d+)" data-kind="challenge_roll', answer.value.text())
        assert found, "the roll was refused"
        card = f"#roll-log > #event-{found.group(1)}"
        for page in (alice, gm):
            expect(page.locator(card)).to_have_count(1)
            expect(page.locator(f"{card} .challenge-summary")).to_contain_text(
                "Paul rolls 4 Challenge dice"
            )
            expect(page.locator(f"{card} .challenge-die")).to_have_count(4)
        seen = [
            (
                page.locator(f"{card} .challenge-total").inner_text(),
                page.locator(f"{card} .challenge-effects").inner_text(),
                page.locator(f"{card} .challenge-die").all_inner_texts(),
            )
            for page in (alice, gm)
        ]
        assert seen[0] == seen[1]
        total, effects, dice = seen[0]
        # Each die reads 0, 1 or 2 (an Effect: 1 and ✦); the total adds them up.
        values = [int(d.rstrip("✦")) for d in dice]
        assert all(v in (0, 1, 2) for v in values) and int(total) == sum(values)
        assert effects.startswith(f"{sum(d.endswith('✦') for d in dice)} Effect")
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

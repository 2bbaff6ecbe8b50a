"""Issue 15 in real browsers: the GM calls a 2d20 test with a hidden Difficulty.

The GM calls for Paul's Power + Athletics at Difficulty 2, hidden. On alice's screen,
without a reload, the composer fills itself from the call, with no Difficulty in the
page. She rolls; the server's d20s are fixed (2 then 15: one success against target 10),
and both screens show the result against Difficulty 2, revealed, failed, on the test's
own card (one card per answer, issue 25).

The dice are fixed in the server process by a sitecustomize module on its PYTHONPATH
(test-only: it replaces rules.d20's random source with the faces in E2E_D20_FACES).
"""

from __future__ import annotations

import pytest

from tables.devtools.server import ServerProcess, server_env

from .conftest import PASSWORD, start_from
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

FIXED_DICE = """
import itertools
import os

faces = os.environ.get("E2E_D20_FACES")
if faces:
    import rules.d20

    _cycle = itertools.cycle(int(f) for f in faces.split(","))

    class _Fixed:
        def randint(self, low, high):
            return next(_cycle)

    rules.d20._rng = lambda rng: _Fixed() if rng is None else rng
"""


@pytest.fixture(scope="module")
def fixed_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e-calls")
    hook = folder / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FIXED_DICE)
    env = server_env(folder, E2E_PASSWORD=PASSWORD, PYTHONPATH=str(hook), E2E_D20_FACES="2,15")
    server = ServerProcess(folder, ["runserver", "--noreload", "--insecure"], env=env)
    seed = start_from(tmp_path_factory, server)
    server.d20_campaign = seed["d20_campaign"]
    server.manage(
        "shell",
        "-c",
        "from tables.models import Character; "
        "Character.objects.get(name='Paul').skills.create(name='Athletics', value=3)",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_hidden_difficulty_call_fills_the_composer_and_is_revealed_on_both_screens(
    browser, fixed_server
):
    from playwright.sync_api import expect

    errors = []
    path = f"/campaigns/{fixed_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, fixed_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, fixed_server.base, "alice", path, errors)
    try:
        expect(alice.locator("#d20-composer input[name=call]")).to_have_count(0)
        # The GM calls the test, the Difficulty hidden.
        panel = gm.locator("#called-tests")
        panel.locator("details.call-new summary").click()
        form = panel.locator("#call-form")
        form.locator("select[name=character]").select_option(label="Paul")
        form.locator("input[name=attribute]").fill("Power")
        form.locator("input[name=skill]").fill("Athletics")
        form.locator("input[name=difficulty]").fill("2")
        form.locator("input[name=hidden]").check()
        form.locator("button[type=submit]").click()
        expect(gm.locator("#called-tests .call")).to_contain_text("Difficulty 2")

        # alice's composer fills itself from the call, live, the Difficulty not in the page.
        composer = alice.locator("#d20-composer")
        expect(composer.locator("input[name=call]")).to_have_count(1)
        expect(composer.locator("select[name=attribute]")).to_have_value("Power")
        expect(composer.locator("select[name=skill]")).to_have_value("Athletics")
        expect(composer.locator(".call-banner")).to_contain_text("Difficulty hidden")
        expect(composer.locator("input[name=difficulty]")).to_have_count(0)
        expect(alice.locator("#d20-odds .call-odds dt")).to_have_count(6)
        assert "Difficulty 2" not in alice.content()

        alice.locator("#roll-button").click()
        for page in (gm, alice):
            # One card for the answer (issue 25): the test's own, saying the verdict.
            card = page.locator("#roll-log > li[data-kind=d20_test]")
            expect(card).to_have_count(1)
            expect(page.locator("#roll-log > li[data-kind=call_answered]")).to_have_count(0)
            expect(card.locator(".call-difficulty")).to_have_text("Difficulty 2")
            expect(card.locator(".call-verdict")).to_contain_text("revealed")
            expect(card.locator(".call-verdict")).to_contain_text("1 success, failed")
            expect(page.locator("#called-tests .call")).to_have_count(0)
        expect(alice.locator("#d20-composer input[name=call]")).to_have_count(0)
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

"""Issue 25 in real browsers: the Momenta composer follows what others do, live.

The GM, alice (Iska) and bob (Dorran) at one Momenta table; no page is reloaded or its
composer redrawn by hand, and what alice typed in her composer stays:
- alice asks for Dorran's Assist; the GM accepts and it is offered in her "Use an Assist"
  list, waiting for Dorran's player; bob agrees and it is offered plainly; bob withdraws
  and it goes (PM-08);
- the GM rolls for Iska: alice's page gets the pattern chooser, and when she confirms,
  the GM's copy of it goes (PAT-02);
- the GM calls a test from Iska with Disadvantage: alice's composer fills with it,
  ticked and not hers to clear, and her answer gains her 1 Momentum (PM-02).

The server's d6s all show 5 (a test-only sitecustomize hook, as in test_called_tests.py),
so every roll has a set and waits for its patterns.
"""

from __future__ import annotations

import os

import pytest

from tables.devtools.server import ServerProcess, server_env

from .conftest import PASSWORD, start_from
from .test_assist_consent import ask, gm_accepts, momentum, open_assists
from .test_live_table import READY_COMPOSER, log_in, redraw, roll

pytestmark = pytest.mark.e2e

FIXED_D6 = """
import itertools
import os

faces = os.environ.get("E2E_D6_FACES")
if faces:
    import rules.dice

    _cycle = itertools.cycle(int(f) for f in faces.split(","))

    class _Fixed:
        def randint(self, low, high):
            return next(_cycle)

    rules.dice.system_random = lambda: _Fixed()
"""


@pytest.fixture(scope="module")
def d6_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e-composer")
    hook = folder / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FIXED_D6)
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH", "")) if p)
    env = server_env(folder, E2E_PASSWORD=PASSWORD, PYTHONPATH=path, E2E_D6_FACES="5")
    server = ServerProcess(folder, ["runserver", "--noreload", "--insecure"], env=env)
    seed = start_from(tmp_path_factory, server)
    server.campaign, server.characters = seed["campaign"], seed["characters"]
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pages(browser, d6_server):
    """gm, alice and bob at the Momenta table: {name: page}."""
    from playwright.sync_api import expect

    errors, contexts, opened = [], [], {}
    path = f"/campaigns/{d6_server.campaign}/table/"
    for name in ("gm", "alice", "bob"):
        context, page = log_in(browser, d6_server.base, name, path, errors)
        contexts.append(context)
        opened[name] = page
    for page in opened.values():
        expect(page.locator("#presence .presence-person")).to_have_count(3)
    yield opened
    for context in contexts:
        context.close()
    assert errors == []


def open_more(page):
    """The composer's "More options", unfolded; returns the roll form."""
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    form = page.locator("#momenta-roll")
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    return form


def test_pm_08_the_assist_list_follows_accept_and_decline_without_reload(pages, d6_server):
    from playwright.sync_api import expect

    iska, dorran = d6_server.characters["alice"], d6_server.characters["bob"]
    gm, alice, bob = pages["gm"], pages["alice"], pages["bob"]
    ask(alice, dorran, iska)
    form = open_more(alice)
    form.locator("input[name=modifiers]").fill("+1")  # typed, never sent: must stay
    offered = form.locator("select[name=assist] option", has_text=dorran["name"])
    expect(offered).to_have_count(0)  # asked, not accepted yet

    gm_accepts(gm, dorran, iska)
    expect(offered).to_have_text(f"{dorran['name']} (waiting for {dorran['name']}'s agreement)")

    asked = f"{dorran['name']} → {iska['name']}"
    mine = open_assists(bob, showing=asked).locator("li", has_text=asked)
    redraw(bob, lambda: mine.locator("button", has_text="Accept").click())
    expect(offered).to_have_text(dorran["name"])
    form.locator("select[name=assist]").select_option(label=dorran["name"])

    mine = open_assists(bob, showing=asked).locator("li", has_text=asked)
    redraw(bob, lambda: mine.locator("button", has_text="Withdraw").click())
    expect(offered).to_have_count(0)
    expect(form.locator("select[name=assist]")).to_have_value("")
    # The rest of the form was never redrawn: what alice typed is still there.
    expect(form.locator("input[name=modifiers]")).to_have_value("+1")


def test_pat_02_a_gm_roll_for_alices_character_gives_alice_the_chooser_live(pages, d6_server):
    from playwright.sync_api import expect

    iska = d6_server.characters["alice"]
    gm, alice = pages["gm"], pages["alice"]
    alice_chooser = alice.locator("#momenta-choosers .chooser")
    expect(alice_chooser).to_have_count(0)

    made = roll(gm, "gm", iska, "AGILITY")
    expect(gm.locator("#momenta-choosers .chooser")).to_have_count(1)
    expect(alice.locator(f"#event-{made.seq} .roll-awaiting")).to_contain_text(iska["name"])
    expect(alice_chooser).to_have_count(1)
    expect(alice_chooser).to_contain_text(iska["name"])

    with alice.expect_response(lambda r: "/allocate/" in r.url) as answer:
        alice_chooser.locator("button[type=submit]").click()
    assert answer.value.ok
    for page in (gm, alice):
        expect(page.locator(f"#event-{made.seq} .roll-patterns")).to_have_count(1)
        expect(page.locator("#momenta-choosers .chooser")).to_have_count(0)


def test_pm_02_a_called_test_with_disadvantage_fills_alices_composer_with_it(pages, d6_server):
    from playwright.sync_api import expect

    iska = d6_server.characters["alice"]
    gm, alice = pages["gm"], pages["alice"]
    before = int(momentum(alice, iska).inner_text())

    panel = gm.locator("#called-tests")
    panel.locator("details.call-new summary").click()
    form = panel.locator("#call-form")
    form.locator("select[name=character]").select_option(label=iska["name"])
    form.locator("input[name=attribute]").fill("AGILITY")
    form.locator("input[name=disadvantage]").check()
    form.locator("button[type=submit]").click()
    expect(gm.locator("#called-tests .call")).to_contain_text("with Disadvantage")

    composer = alice.locator("#composer")
    expect(composer.locator("input[name=call]")).to_have_count(1)
    expect(composer.locator(".call-banner")).to_contain_text("with Disadvantage")
    expect(composer.locator("select[name=attribute]")).to_have_value("AGILITY")
    box = composer.locator("input[name=disadvantage]")
    expect(box).to_be_checked()
    expect(box).to_be_disabled()

    with alice.expect_response(lambda r: "/calls/" in r.url and r.request.method == "POST"):
        open_more(alice).locator("button.mc-roll").click()
    # One card for the answer (the roll's, saying it answered the call), on both screens.
    for page in (gm, alice):
        card = page.locator("#roll-log > li[data-kind=momenta_roll]").first
        expect(card.locator(".call-verdict")).to_contain_text("Answers the GM's call")
        expect(page.locator("#roll-log > li[data-kind=call_answered]")).to_have_count(0)
        expect(momentum(page, iska)).to_have_text(str(before + 1))  # PM-02

"""Issue 29 in real browsers: the roll stage. When alice rolls, bob's and the GM's
screens show her roll large for a moment (who, the dice, the outcome), then it is
gone and the card is in the log; under reduced motion it comes without movement; a
screen reader hears one short polite line, never the whole card.

What the stage showed is recorded in the page by a MutationObserver set up before
the roll, so nothing here races the moment it lasts."""

from __future__ import annotations

import pytest

from .test_live_table import roll, table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e

# Records each card put on the stage (its text, dice, animation) and each line said.
WATCH = """() => {
  window.staged = [];
  window.said = [];
  const stage = document.getElementById("roll-stage");
  new MutationObserver(() => {
    const card = stage.querySelector(".roll-stage-card");
    if (!card || stage.hidden) return;
    window.staged.push({
      text: card.textContent.replace(/\\s+/g, " "),
      dice: card.querySelectorAll("svg.die-face").length,
      ids: card.querySelectorAll("[id]").length,
      buttons: card.querySelectorAll("button, form").length,
      animation: getComputedStyle(stage).animationName,
      big: parseFloat(getComputedStyle(card).fontSize),
    });
  }).observe(stage, { childList: true, attributes: true });
  const announce = document.getElementById("table-announce");
  // Each change of the text counts, however quickly they follow each other.
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.textContent.trim()) window.said.push(node.textContent.trim());
      }
      if (r.type === "characterData" && r.target.textContent.trim()) {
        window.said.push(r.target.textContent.trim());
      }
    }
  }).observe(announce, { childList: true, characterData: true, subtree: true });
}"""


def test_a_roll_is_staged_on_other_screens_and_announced_once(table, app_server):  # noqa: F811
    from playwright.sync_api import expect

    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))
    gm.emulate_media(reduced_motion="reduce")
    bob.emulate_media(reduced_motion="no-preference")
    for page in (gm, bob):
        page.evaluate(WATCH)
        # The log is not a live region: a card would be read out whole.
        expect(page.locator(".roll-log-live")).to_have_attribute("aria-live", "off")

    made = roll(alice, "alice", app_server.characters["alice"], "WITS")
    for page in (gm, bob):
        expect(page.locator(f"#roll-log > #event-{made.seq}")).to_have_count(1)
        # The moment passes: the stage empties, the card stays in the log.
        expect(page.locator("#roll-stage")).to_be_hidden()
        staged = page.evaluate("window.staged")
        assert len(staged) == 1, staged
        shown = staged[0]
        outcome = page.locator(f"#event-{made.seq} .roll-result strong").inner_text().strip()
        assert made.character in shown["text"] and outcome in shown["text"]
        assert shown["dice"] == len(made.faces)
        assert shown["ids"] == 0 and shown["buttons"] == 0  # a look-alike, nothing to press
        assert shown["big"] >= 18
        # One polite line: who rolled what, and the outcome; not the card's pool breakdown.
        said = page.evaluate("window.said")
        assert len(said) == 1, said
        assert made.character in said[0] and outcome in said[0]
        pool = page.locator(f"#event-{made.seq} .roll-pool").inner_text().strip()
        assert pool not in said[0]
    # Movement for bob; the GM asked for reduced motion: the same moment, standing still.
    assert bob.evaluate("window.staged[0].animation") == "roll-stage"
    assert gm.evaluate("window.staged[0].animation") == "roll-stage-still"


def test_the_roller_sees_the_stage_and_focus_is_on_the_result(table, app_server):  # noqa: F811
    from playwright.sync_api import expect

    alice = table["alice"][1]
    alice.evaluate(WATCH)
    made = roll(alice, "alice", app_server.characters["alice"], "MIGHT")
    expect(alice.locator(f"#event-{made.seq}")).to_be_focused()
    expect(alice.locator("#roll-stage")).to_be_hidden()
    assert len(alice.evaluate("window.staged")) == 1
    # Focus reads the result to the roller: no second announcement of it.
    assert alice.evaluate("window.said") == []


def test_not_at_all_for_a_person_who_turned_the_stage_off(table, app_server):  # noqa: F811
    """bob asks for reduced motion and turns "Show each roll large as it lands" off in
    his settings: alice's roll goes straight into his log, with no stage, and he still
    hears the one line. The GM, who kept it on, sees the stage as before."""
    from playwright.sync_api import expect

    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))
    table_url = bob.url
    bob.emulate_media(reduced_motion="reduce")
    bob.goto(app_server.base + "/account/settings/")
    bob.get_by_label("Show each roll large as it lands").uncheck()
    bob.get_by_role("button", name="Save", exact=True).click()
    expect(bob.get_by_label("Show each roll large as it lands")).not_to_be_checked()
    try:
        bob.goto(table_url)
        expect(bob.locator("#live-status")).to_have_attribute("data-state", "live")
        for page in (gm, bob):
            page.evaluate(WATCH)

        made = roll(alice, "alice", app_server.characters["alice"], "AGILITY")
        for page in (gm, bob):
            expect(page.locator(f"#roll-log > #event-{made.seq}")).to_have_count(1)
            page.wait_for_function("window.said.length > 0")
            said = page.evaluate("window.said")
            assert len(said) == 1 and made.character in said[0], said
        expect(gm.locator("#roll-stage")).to_be_hidden()
        assert len(gm.evaluate("window.staged")) == 1
        assert bob.evaluate("window.staged") == []
        assert bob.locator("#roll-stage .roll-stage-card").count() == 0
    finally:
        # The module's server is shared: bob's screen as the other tests expect it.
        bob.goto(app_server.base + "/account/settings/")
        bob.get_by_label("Show each roll large as it lands").check()
        bob.get_by_role("button", name="Save", exact=True).click()
        expect(bob.get_by_label("Show each roll large as it lands")).to_be_checked()


# Issue 37: while a card is on the stage, each frame, every visible, enabled control
# of the page (the stage's own copy aside: it is inert) that the stage's box meets.
COVERED = """() => {
  window.covered = [];
  window.stagedBoxes = 0;
  const stage = document.getElementById("roll-stage");
  const CONTROLS =
    "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1']), summary";
  function meets(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }
  function frame() {
    if (stage.hidden) return;
    const box = stage.getBoundingClientRect();
    window.stagedBoxes++;
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (stage.contains(el) || el.disabled || el.type === "hidden") continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width && r.height && meets(box, r)) {
        const words = (el.textContent || "").trim().slice(0, 40);
        window.covered.push((el.id || el.tagName) + " " + words);
      }
    }
    requestAnimationFrame(frame);
  }
  new MutationObserver(() => {
    if (!stage.hidden && stage.querySelector(".roll-stage-card")) requestAnimationFrame(frame);
  }).observe(stage, { childList: true });
}"""

SCREENS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


def uncovered_while_staged(page) -> None:
    """The stage came and went on `page` and covered nothing there."""
    from playwright.sync_api import expect

    page.wait_for_function("window.stagedBoxes > 0")
    expect(page.locator("#roll-stage")).to_be_hidden()
    assert page.evaluate("window.covered") == []


@pytest.mark.parametrize("screen", SCREENS, ids=["laptop", "phone"])
def test_the_stage_covers_no_control_of_a_watching_player(table, app_server, screen):  # noqa: F811
    """bob watches alice roll, at the top of his page and scrolled to his composer: the
    stage has a place of its own and never lies over a button, field or link."""
    alice, bob = table["alice"][1], table["bob"][1]
    bob.set_viewport_size(screen)
    for scrolled in (False, True):
        if scrolled:
            bob.locator("#momenta-roll button.mc-roll").scroll_into_view_if_needed()
        bob.evaluate(COVERED)
        roll(alice, "alice", app_server.characters["alice"], "WITS")
        uncovered_while_staged(bob)


@pytest.mark.parametrize("screen", SCREENS, ids=["laptop", "phone"])
def test_on_a_2d20_table_the_stage_covers_neither_the_roller_nor_the_watcher(
    browser, app_server, screen
):
    """alice rolls a 2d20 test: on her screen the spend panel she is about to use, and
    on bob's, his composer, stay clear of the stage."""
    from playwright.sync_api import expect

    from .test_gm_tabs import give_paul_a_skill
    from .test_live_table import log_in

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors, screen)
    bob_context, bob = log_in(browser, app_server.base, "bob", path, errors, screen)
    try:
        for page in (alice, bob):
            page.evaluate(COVERED)
        alice.locator("#d20-play select[name=skill]").select_option("Communicate")
        with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")):
            alice.locator("#roll-button").click()
        expect(alice.locator("#spend-panel form.d20-done button[type=submit]")).to_be_visible()
        for page in (alice, bob):
            uncovered_while_staged(page)
    finally:
        alice_context.close()
        bob_context.close()
    assert errors == []

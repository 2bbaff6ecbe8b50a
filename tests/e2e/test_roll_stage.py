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

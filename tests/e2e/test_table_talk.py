"""Issue 15 in real browsers: table talk, and a message to the GM that only the GM sees.

alice sends "To the GM" from the talk form on her table page. Without a reload the
GM's page shows it and bob's does not; bob's page then still receives the next public
message live (his socket skipped the private one without a word, and the next frame
says what it follows).
"""

from __future__ import annotations

import re

import pytest

from .test_live_table import table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


def send(page, mode: str, text: str) -> int:
    """Post `text` in `mode` from the page's talk form; the new event's seq."""
    from playwright.sync_api import expect

    form = page.locator("#talk-form")
    # Folded on alice's phone-sized screen (folds.js), open on a laptop.
    fold = form.locator("details.talk-fold")
    if not fold.evaluate("d => d.open"):
        fold.locator("summary").click()
    form.locator("select[name=mode]").select_option(mode)
    form.locator("textarea[name=text]").fill(text)
    with page.expect_response(lambda r: r.url.endswith("/table/talk/")) as answer:
        form.locator("button[type=submit]").click()
    found = re.search(r'data-seq="(\d+)" data-kind="talk', answer.value.text())
    assert found, "the message was refused"
    # The form comes back empty and open, the mode kept, ready for the next message.
    expect(page.locator("#talk-form textarea[name=text]")).to_have_value("")
    expect(page.locator("#talk-form textarea[name=text]")).to_be_visible()
    return int(found.group(1))


def test_a_private_message_reaches_the_gm_and_not_the_other_player(table):  # noqa: F811
    from playwright.sync_api import expect

    gm, alice, bob = (table[name][1] for name in ("gm", "alice", "bob"))
    secret = send(alice, "gm", "I slip the <ring> into my boot")
    card = f"#roll-log > #event-{secret}"
    for page in (gm, alice):
        expect(page.locator(card)).to_have_count(1)
        expect(page.locator(card)).to_contain_text("I slip the <ring> into my boot")
        expect(page.locator(f"{card} .talk-mode")).to_have_text("To the GM")
        expect(page.locator(f"{card} .log-actor")).to_have_text("alice")

    public = send(gm, "ic", "The innkeeper eyes you both")
    for page in (gm, alice, bob):
        expect(page.locator(f"#roll-log > #event-{public}")).to_contain_text("eyes you both")
    expect(bob.locator(f"#roll-log > #event-{public} .talk-mode")).to_have_text("In character")
    # bob's page got the later message, and nothing of the private one, ever.
    expect(bob.locator(card)).to_have_count(0)
    assert "into my boot" not in bob.content()
    # The filter keeps talk; bob's page still has no trace of the private message.
    bob.locator(".log-filter input[value=talk]").check()
    expect(bob.locator("#log-view[data-show=talk]")).to_have_count(1)
    expect(bob.locator(f"#roll-log > #event-{public}")).to_be_visible()
    expect(bob.locator(card)).to_have_count(0)

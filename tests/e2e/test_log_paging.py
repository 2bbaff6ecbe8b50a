"""Issue 14 in a real browser: the table log loads older entries on demand and filters,
and a live push still arrives (hidden or shown by the filter) while it is filtered; older
entries are not announced as news."""

from __future__ import annotations

import pytest

from .test_live_table import log_in, log_seqs, post_from_page

pytestmark = pytest.mark.e2e

# 40 notes and 5 pool changes, older than the page: more than one page of log.
SEED = """
from django.contrib.auth import get_user_model
from tables.services import sessions
gm = get_user_model().objects.get(username="gm")
for n in range(45):
    if n % 9 == 0:
        sessions.adjust_pool({campaign}, gm, "group_momentum", 1, "seeded")
    else:
        sessions.post_note({campaign}, gm, f"Seeded note {{n}}")
"""


def test_older_entries_load_on_demand_and_the_filter_hides_what_it_leaves_out(browser, app_server):
    from playwright.sync_api import expect

    from tables.live.render import LOG_LIMIT

    app_server.manage("shell", "-c", SEED.format(campaign=app_server.campaign))
    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        first = log_seqs(alice)
        assert len(first) == LOG_LIMIT
        alice.get_by_role("button", name="Older entries").focus()
        alice.keyboard.press("Enter")
        expect(alice.locator("#log-view .log-entry")).to_have_count(45)
        older = alice.eval_on_selector_all(
            "#roll-log-older > .log-entry", "items => items.map(i => Number(i.dataset.seq))"
        )
        seqs = first + older
        assert seqs == sorted(set(seqs), reverse=True) and len(seqs) == 45
        expect(alice.get_by_role("button", name="Older entries")).to_have_count(0)
        # Screen readers: the older page is not inside the live region (it would be read
        # out as news), a status line says how many came, and focus is on the first.
        expect(alice.locator("[aria-live] .log-entry")).to_have_count(LOG_LIMIT)
        expect(alice.locator("#log-older-status")).to_have_text(
            f"{45 - LOG_LIMIT} older entries loaded; that is the start of the log."
        )
        expect(alice.locator(f"#event-{older[0]}")).to_be_focused()

        alice.get_by_role("radio", name="Pool changes").check()
        expect(alice.locator("#log-view")).to_have_attribute("data-show", "pools")
        expect(alice.locator("#roll-log > .log-entry")).to_have_count(5)
        expect(alice.locator("#roll-log > .log-entry:not(.log-topic--pools)")).to_have_count(0)

        # A note pushed live while filtered arrives, but stays out of sight.
        status, _ = post_from_page(gm, f"{path}note/", {"text": "Pushed while filtered"})
        assert status == 200
        note = alice.locator("#roll-log > .log-entry--note", has_text="Pushed while filtered")
        expect(note).to_have_count(1)
        expect(note).to_be_hidden()

        alice.get_by_role("radio", name="Everything").check()
        expect(alice.locator("#log-view")).to_have_attribute("data-show", "all")
        expect(alice.locator("#roll-log > .log-entry").first).to_contain_text(
            "Pushed while filtered"
        )
        expect(alice.locator("#roll-log > .log-entry")).to_have_count(LOG_LIMIT)
        assert not errors, errors
    finally:
        gm_context.close()
        alice_context.close()

"""TB-03 in a real browser: a player's page hears nothing when the GM rolls in secret,
and takes the next visible event without asking the server to resync (issue 12)."""

from __future__ import annotations

import re

import pytest

from tests.html_forms import form_fields

from .test_live_table import log_in, log_seqs, post_from_page

pytestmark = pytest.mark.e2e

# Everything alice's socket receives and sends from now on.
RECORD_JS = """() => {
    const socket = window.momentaLive.socket;
    window.heard = [];
    window.said = [];
    socket.addEventListener('message', e => window.heard.push(JSON.parse(e.data)));
    const send = socket.send.bind(socket);
    socket.send = m => { window.said.push(JSON.parse(m)); send(m); };
}"""


def gm_roll(gm, campaign: int, *, secret: bool) -> int:
    fields = {k: v[0] for k, v in form_fields(gm.content(), "momenta-roll").items()}
    if secret:
        fields["secret"] = "on"
    status, answer = post_from_page(gm, f"/campaigns/{campaign}/momenta/roll/", fields)
    found = re.search(r'data-seq="(\d+)" data-kind="momenta_roll"', answer)
    assert status == 200 and found, answer[:500]
    return int(found.group(1))


def test_tb_03_a_secret_roll_sends_nothing_to_a_players_page(browser, app_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        alice.evaluate(RECORD_JS)
        secret = gm_roll(gm, app_server.campaign, secret=True)
        expect(gm.locator(f"#roll-log > #event-{secret}")).to_have_count(1)
        alice.wait_for_timeout(1000)
        heard = alice.evaluate("window.heard.map(m => m.type)")
        assert "event" not in heard and "cursor" not in heard, heard

        shown = gm_roll(gm, app_server.campaign, secret=False)
        expect(alice.locator(f"#roll-log > #event-{shown}")).to_have_count(1)
        assert alice.evaluate("window.momentaLive.last") == shown
        assert secret not in log_seqs(alice)
        assert alice.evaluate("window.said.filter(m => m.type === 'resync').length") == 0
        expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []

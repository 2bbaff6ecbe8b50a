"""Issue 37 in real browsers: a whisper to one player.

alice whispers to bob from the talk form. Without a reload bob's page and the GM's show
it, each worded for its reader; carol, a third player, never gets it, and her page still
receives the next public message live (her socket skipped the whisper without a word).
"""

from __future__ import annotations

import re

import pytest

from .conftest import seeded_server
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

CAROL = (
    "from django.contrib.auth import get_user_model\n"
    "from tables.models import Campaign, Membership\n"
    "import os\n"
    "carol = get_user_model().objects.create_user('carol', password=os.environ['E2E_PASSWORD'])\n"
    "campaign = Campaign.objects.get(name='E2E Table')\n"
    "Membership.objects.create(campaign=campaign, user=carol, role='player')\n"
)


@pytest.fixture(scope="module")
def whisper_server(tmp_path_factory):
    """The seeded server, with a third player (carol) at the Momenta table."""
    server = seeded_server(tmp_path_factory)
    server.manage("shell", "-c", CAROL)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def send(page, mode: str, text: str, to: str | None = None) -> int:
    """Post `text` from the page's talk form (a whisper `to` a player); the event's seq."""
    form = page.locator("#talk-form")
    form.locator("select[name=mode]").select_option(mode)
    if to is not None:
        form.locator("select[name=to]").select_option(label=to)
    form.locator("textarea[name=text]").fill(text)
    with page.expect_response(lambda r: r.url.endswith("/table/talk/")) as answer:
        form.locator("button[type=submit]").click()
    found = re.search(r'data-seq="(\d+)" data-kind="talk', answer.value.text())
    assert found, "the message was refused"
    return int(found.group(1))


def test_a_whisper_reaches_its_recipient_and_the_gm_and_not_another_player(browser, whisper_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{whisper_server.campaign}/table/"
    opened = {
        name: log_in(browser, whisper_server.base, name, path, errors)
        for name in ("gm", "alice", "bob", "carol")
    }
    pages = {name: page for name, (_, page) in opened.items()}
    try:
        for page in pages.values():
            expect(page.locator("#presence .presence-person")).to_have_count(4)
        # The recipient's list shows only for a whisper (site.css).
        expect(pages["alice"].locator("#talk-to")).to_be_hidden()
        pages["alice"].locator("#talk-mode").select_option("whisper")
        expect(pages["alice"].locator("#talk-to")).to_be_visible()
        whisper = send(pages["alice"], "whisper", "Meet me by the <mill>", to="bob")
        card = f"#roll-log > #event-{whisper}"
        lines = {
            "alice": "To bob (whisper)",
            "bob": "alice whispers to you",
            "gm": "alice whispers to bob",
        }
        for name, line in lines.items():
            expect(pages[name].locator(card)).to_contain_text("Meet me by the <mill>")
            expect(pages[name].locator(f"{card} .talk-whisper-line")).to_have_text(line)

        public = send(pages["gm"], "ic", "The mill wheel turns")
        carol = pages["carol"]
        expect(carol.locator(f"#roll-log > #event-{public}")).to_contain_text("wheel turns")
        expect(carol.locator(card)).to_have_count(0)
        assert "by the &lt;mill&gt;" not in carol.content()
        assert "whisper" not in carol.locator("#roll-log").inner_text().casefold()
    finally:
        for context, _ in opened.values():
            context.close()
    assert errors == []

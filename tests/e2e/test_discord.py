"""Issue 15, Discord, in a real browser: the GM pastes a webhook on the settings page,
a player rolls at the table, and the group's channel (a local fake webhook server,
tests/discord_fake.py: no network) gets the roll as an embed; a secret roll goes only
to the GM's webhook."""

from __future__ import annotations

import time

import pytest

from tests.discord_fake import FakeDiscord

from .conftest import seeded_server
from .test_live_table import log_in, post_from_page, roll

pytestmark = pytest.mark.e2e

TABLE_HOOK, GM_HOOK = 11, 12


@pytest.fixture(scope="module")
def fake():
    server = FakeDiscord()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def discord_server(tmp_path_factory, fake):
    server = seeded_server(
        tmp_path_factory, DISCORD_WEBHOOK_HOSTS=fake.origin, DISCORD_ALLOWED_HOSTS="127.0.0.1"
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def posts_to(fake: FakeDiscord, hook: int, count: int, timeout: float = 20) -> list[dict]:
    """The first `count` posts to `hook`, waiting for them (the sender works after commit)."""
    deadline = time.monotonic() + timeout
    while len(fake.posts_to(hook)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return fake.posts_to(hook)


def embed_text(post: dict) -> str:
    embed = post["embeds"][0]
    return f"{embed['title']}\n{embed.get('description', '')}"


def test_a_roll_reaches_the_groups_discord_channel_and_a_secret_one_only_the_gms(
    browser, discord_server, fake
):
    from playwright.sync_api import expect

    server = discord_server
    errors: list = []
    settings = f"/campaigns/{server.campaign}/settings/"
    table = f"/campaigns/{server.campaign}/table/"
    gm_context, gm = log_in(browser, server.base, "gm", table, errors)
    alice_context, alice = log_in(browser, server.base, "alice", table, errors)
    try:
        gm.goto(server.base + settings)
        gm.get_by_label("Webhook for the table's channel").fill(fake.url(TABLE_HOOK, "tbl"))
        gm.get_by_label("Webhook for the GM only").fill(fake.url(GM_HOOK, "gmo"))
        gm.get_by_role("button", name="Save webhooks").click()
        expect(gm.locator("#discord")).to_contain_text("No delivery errors.")

        made = roll(alice, "alice", server.characters["alice"], "WITS")
        (posted,) = posts_to(fake, TABLE_HOOK, 1)
        text = embed_text(posted)
        assert text.startswith(server.characters["alice"]["name"] + ": "), text
        assert "Dice: " + " · ".join(map(str, made.faces)) in text, (made.faces, text)
        assert fake.posts_to(GM_HOOK) == []

        # The GM's secret roll: the GM's channel only, never the table's.
        gm.goto(server.base + table)
        expect(gm.locator("#live-status")).to_have_attribute("data-state", "live")
        npc = server.characters["gm"]["id"]
        status, _ = post_from_page(
            gm,
            f"/campaigns/{server.campaign}/momenta/roll/",
            {
                "character": npc,
                "attribute": "MIGHT",
                "kind": "action",
                "play": "narrative",
                "secret": "on",
            },
        )
        assert status == 200
        (secret,) = posts_to(fake, GM_HOOK, 1)
        assert embed_text(secret).startswith("Secret"), embed_text(secret)
        time.sleep(1)  # nothing more may arrive at the table's channel
        assert len(fake.posts_to(TABLE_HOOK)) == 1
        assert not errors, errors
    finally:
        gm_context.close()
        alice_context.close()

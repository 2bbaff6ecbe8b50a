"""Issue 28 in real browsers: the GM reads German in Berlin, a player French in Montreal,
another player English (his browser's) in Tokyo, at the same table. Each sets their
language and time zone in their own settings (in effect on the next page); one Momenta
roll and one 2d20 test then reach every page, each in its reader's language and time
zone, and the group's Discord channel in the campaign's language (Spanish), whoever
rolled."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tables import events
from tests.discord_fake import FakeDiscord

from .conftest import seeded_server
from .test_discord import embed_text, posts_to
from .test_live_table import log_in, post_from_page, roll

pytestmark = pytest.mark.e2e

MOMENTA_HOOK, D20_HOOK = 21, 22
# Bob, a second player, chose no language (his browser's: English) but Tokyo's time:
# the players' frames are drawn once per reader, never one reader's for another.
READERS = {
    "gm": ("de", "Europe/Berlin", "+01:00"),
    "alice": ("fr", "America/Toronto", "-05:00"),  # not America/Montreal: a backward name
    "bob": ("", "Asia/Tokyo", "+09:00"),
}


# What the settings page says once saved, in the language just chosen (locale/).
def _saved(language: str) -> tuple[str, str]:
    from django.utils import translation

    with translation.override(language):
        return translation.gettext("Language"), translation.gettext("Your settings are saved.")


@pytest.fixture(scope="module")
def fake():
    server = FakeDiscord()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory, fake):
    server = seeded_server(
        tmp_path_factory, DISCORD_WEBHOOK_HOSTS=fake.origin, DISCORD_ALLOWED_HOSTS="127.0.0.1"
    )
    # Both campaigns speak Spanish to their channel (the GM's campaign setting).
    hooks = {
        server.campaign: fake.url(MOMENTA_HOOK, "m"),
        server.d20_campaign: fake.url(D20_HOOK, "d"),
    }
    server.manage(
        "shell",
        "-c",
        "from tables.models import Campaign, Character\n"
        f"for pk, url in {hooks!r}.items():\n"
        "    Campaign.objects.filter(pk=pk).update(language='es', discord_webhook_url=url)\n"
        "Character.objects.get(name='Paul').skills.create(name='Communicate', value=3)\n",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def label(kind, language: str) -> str:
    """A kind's name in the log, as the catalogue words it in `language` (the seeds' pool
    names: both tables play the 2d20 core's line)."""
    with translation.override(language):
        return events.label_of(kind.name)


def choose(page, base: str, language: str, zone: str) -> None:
    """The person's own settings: language and time zone, saved; the next page is in it."""
    from playwright.sync_api import expect

    page.goto(base + "/account/settings/")
    page.locator("select[name=language]").select_option(language)
    page.locator("select[name=time_zone]").select_option(zone)
    page.locator("form:has(select[name=language]) button[type=submit]").click()
    language = language or "en"  # none chosen: the browser's
    expect(page.locator("html")).to_have_attribute("lang", language)
    field, saved = _saved(language)  # from the catalogue, compiled by the test session
    assert language == "en" or (field, saved) != _saved("en"), language
    expect(page.locator("label[for=id_language]")).to_contain_text(field)
    expect(page.locator("body")).to_contain_text(saved)


def open_table(page, base: str, campaign: int, language: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/campaigns/{campaign}/table/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")


def entry(page, seq: int):
    from playwright.sync_api import expect

    found = page.locator(f"#roll-log > #event-{seq}")
    expect(found).to_have_count(1)
    return found


def reads_own_time(page, seq: int, offset: str) -> None:
    """The entry's time is the reader's own (its datetime carries the zone's offset)."""
    stamp = entry(page, seq).locator(".log-time").get_attribute("datetime")
    assert stamp.endswith(offset), (stamp, offset)


def test_gm_in_german_and_player_in_french_each_read_their_own_language_discord_spanish(
    browser, server, fake
):
    errors: list = []
    momenta_table = f"/campaigns/{server.campaign}/table/"
    gm_context, gm = log_in(browser, server.base, "gm", momenta_table, errors)
    alice_context, alice = log_in(browser, server.base, "alice", momenta_table, errors)
    bob_context, bob = log_in(browser, server.base, "bob", momenta_table, errors)
    pages = {"gm": gm, "alice": alice, "bob": bob}
    try:
        for name, page in pages.items():
            language, zone, _ = READERS[name]
            choose(page, server.base, language, zone)
            open_table(page, server.base, server.campaign, language or "en")

        # One Momenta roll by the French player: both pages get it pushed.
        made = roll(alice, "alice", server.characters["alice"], "WITS")
        for name, page in pages.items():
            language, _, offset = READERS[name]
            reads_own_time(page, made.seq, offset)
            words = label(events.MOMENTA_ROLL, language or "en")
            shown = entry(page, made.seq).locator(".log-kind").inner_text().strip()
            assert not language or words != label(events.MOMENTA_ROLL, "en"), (language, words)
            assert shown == words, (name, shown, words)
        (posted,) = posts_to(fake, MOMENTA_HOOK, 1)
        text = embed_text(posted)
        assert "Dados: " + " · ".join(map(str, made.faces)) in text, text  # es, not fr or de

        # The GM's page drawn afresh shows the pushed entry in German too.
        open_table(gm, server.base, server.campaign, "de")
        reads_own_time(gm, made.seq, READERS["gm"][2])

        # One 2d20 test by the same player at the 2d20 table.
        for name, page in pages.items():
            open_table(page, server.base, server.d20_campaign, READERS[name][0] or "en")
        paul = alice.locator("#d20-character option").first.get_attribute("value")
        status, answer = post_from_page(
            alice,
            f"/campaigns/{server.d20_campaign}/d20/roll/",
            {
                "character": paul,
                "attribute": "Power",
                "skill": "Communicate",
                "focus": "",
                "difficulty": "1",
                "harder": "0",
                "easier": "0",
                "bought_dice": "0",
                "buy_from_momentum": "0",
                "bonus_momentum": "0",
            },
        )
        found = re.search(r'data-seq="(\d+)" data-kind="d20_test"', answer)
        assert status == 200 and found, answer[:500]
        seq = int(found.group(1))
        for name, page in pages.items():
            language, _, offset = READERS[name]
            reads_own_time(page, seq, offset)
            words = label(events.D20_TEST, language or "en")
            shown = entry(page, seq).locator(".log-kind").inner_text().strip()
            assert not language or words != label(events.D20_TEST, "en"), (language, words)
            assert shown == words, (name, shown, words)
        (tested,) = posts_to(fake, D20_HOOK, 1)
        assert embed_text(tested).startswith("Paul: "), embed_text(tested)
        assert not errors, errors
    finally:
        for context in (gm_context, alice_context, bob_context):
            context.close()

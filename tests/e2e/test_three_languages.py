"""Issue 35 in real browsers: three people at one table in German, French and Spanish
(each chose it in their own settings) read the same live roll, pushed over the
websocket, each in their own language: its kind in the log, its result band and its
summary; the German reader's 2d20 odds read with a decimal comma ("91,0 %"). And the
table page, at a phone's and a desktop's width, cuts none of their words."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tables import events

from .conftest import seeded_server
from .test_languages import choose, entry, label, open_table
from .test_live_table import log_in, roll

pytestmark = pytest.mark.e2e

NBSP = "\u00a0"
# Alice owns Paul at the 2d20 table, so the German reader is the one who composes there.
READERS = {
    "alice": ("de", "Europe/Berlin"),
    "bob": ("fr", "Europe/Paris"),
    "gm": ("es", "Europe/Madrid"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = seeded_server(tmp_path_factory)
    # Paul's Power 7 + Communicate 7: target 14 on 2d20 at Difficulty 1 passes
    # 1 − (6/20)² = 91.0 %, a chance shown with one decimal.
    server.manage(
        "shell",
        "-c",
        "from tables.models import Character\n"
        "Character.objects.get(name='Paul').skills.create(name='Communicate', value=7)\n",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def summary(language: str, character: str, template: str) -> str:
    """The roll's first line (who, attribute, kind, play, template: a seeded one's English
    name) as the catalogue words it in `language`."""
    with translation.override(language):
        narrative = translation.pgettext("play mode inside a sentence", "narrative")
        play = translation.gettext(", %(play)s play") % {"play": narrative}
        kind = translation.gettext("action roll")
        return f"{character} · WITS {kind}{play} · {translation.gettext(template)}"


def band(language: str, tone: int) -> str:
    from rules.templates import DEFAULT_BAND_LABELS

    with translation.override(language):
        return translation.gettext(DEFAULT_BAND_LABELS[tone])


def successes(language: str, n: int) -> str:
    from tables.words import wording

    with translation.override(language):
        return wording.successes(n)


# What the pushed card shows: its first line, its band (and the band's number), the
# successes line.
CARD_JS = """entry => ({
    what: entry.querySelector('.roll-what').textContent.replace(/\\s+/g, ' ').trim(),
    template: entry.querySelector('.roll-what .muted').textContent.trim(),
    band: entry.querySelector('.roll-result strong').textContent.trim(),
    tone: Number(entry.querySelector('.roll-result').className.match(/roll-band-(\\d)/)[1]),
    successes: entry.querySelector('.roll-successes').textContent.trim(),
})"""


def test_three_readers_read_one_live_roll_each_in_their_own_language(browser, server):
    from playwright.sync_api import expect

    errors: list = []
    momenta_table = f"/campaigns/{server.campaign}/table/"
    opened = {name: log_in(browser, server.base, name, momenta_table, errors) for name in READERS}
    pages = {name: page for name, (_, page) in opened.items()}
    try:
        for name, page in pages.items():
            language, zone = READERS[name]
            choose(page, server.base, language, zone)
            open_table(page, server.base, server.campaign, language)

        # Bob (French) rolls; the GM's and Alice's pages get the card over the websocket.
        made = roll(pages["bob"], "bob", server.characters["bob"], "WITS")
        shown = {name: entry(page, made.seq).evaluate(CARD_JS) for name, page in pages.items()}
        tone = shown["bob"]["tone"]
        n = int(re.search(r"\d+", shown["bob"]["successes"]).group())
        for name, page in pages.items():
            language, _ = READERS[name]
            kind = entry(page, made.seq).locator(".log-kind").inner_text().strip()
            assert kind == label(events.MOMENTA_ROLL, language), (name, kind)
            assert kind != label(events.MOMENTA_ROLL, "en"), (name, kind)
            card = shown[name]
            assert card["tone"] == tone, (name, card)
            assert card["band"] == band(language, tone) != band("en", tone), (name, card)
            assert card["successes"] == successes(language, n) != successes("en", n), card
            template = seeded_template(card["template"], language)
            words = summary(language, made.character, template)
            assert card["what"] == words, (name, card["what"], words)
            assert words != summary("en", made.character, template), words

        # The German reader's 2d20 odds: target 14 at Difficulty 1 passes "91,0 %".
        alice = pages["alice"]
        open_table(alice, server.base, server.d20_campaign, "de")
        composer = alice.locator("#d20-composer")
        composer.locator("select[name=attribute]").select_option("Power")
        composer.locator("select[name=skill]").select_option("Communicate")
        composer.locator("input[name=difficulty]").fill("1")
        odds = alice.locator("#d20-odds")
        expect(odds.locator(".d20-odds-test strong").first).to_have_text("14")
        figures = odds.locator(".d20-odds-figures dd")
        expect(figures.first).to_have_text(f"91,0{NBSP}%")
        assert re.fullmatch(r"\d+,\d\d", figures.nth(1).inner_text().strip())  # Momentum
        assert not errors, errors
    finally:
        for context, _ in opened.values():
            context.close()


def seeded_template(shown: str, language: str) -> str:
    """The seeded template (stored in English) that `shown` words in `language`."""
    from tables.words.wording import DEFAULT_TEMPLATE_NAMES

    with translation.override(language):
        keys = [name for name in DEFAULT_TEMPLATE_NAMES if translation.gettext(name) == shown]
    assert keys, (shown, language)
    return keys[0]


VIEWPORTS = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})

# Visible words the table page cuts or lets spill, as "what: words (needed > room)": an
# odds-bar label wider than its segment, a button, tab or fold whose words overflow it,
# an ellipsis hiding words, a select whose chosen option does not fit (a select cannot
# wrap; its arrow taken as 20 px beyond the padding, on the safe side).
CLIPPED = """() => {
  const out = [];
  const seen = (el) => el.checkVisibility() && !el.closest('.visually-hidden, .sr-only');
  for (const text of document.querySelectorAll('.odds-chart text')) {
    const rect = text.parentElement.querySelector('rect');
    const x = rect.x.baseVal.value, w = rect.width.baseVal.value;
    const box = text.getBBox();
    if (box.x < x - 0.5 || box.x + box.width > x + w + 0.5)
      out.push(`bar: ${text.textContent} (${box.width.toFixed(1)} > ${w})`);
  }
  for (const el of document.querySelectorAll('#table :is(button, [role=tab], summary)')) {
    if (seen(el) && el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.tagName}: ${el.textContent.trim()} (${el.scrollWidth} > ${el.clientWidth})`);
  }
  for (const el of document.querySelectorAll('#table *')) {
    if (seen(el) && getComputedStyle(el).textOverflow === 'ellipsis'
        && el.scrollWidth > el.clientWidth + 1)
      out.push(`ellipsis: ${el.textContent.trim()}`);
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('#table select')) {
    if (!seen(select) || select.multiple || select.selectedIndex < 0) continue;
    const style = getComputedStyle(select);
    canvas.font = style.font;
    const words = select.options[select.selectedIndex].text;
    const needed = canvas.measureText(words).width;
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;
    if (needed > room) out.push(`select ${select.name}: ${words} (${needed} > ${room})`);
  }
  return out;
}"""


def test_the_table_page_fits_the_longest_words_on_a_phone_and_a_desktop(browser, server):
    """Issue 35: in German, French and Spanish, at 390 and 1280 px, the GM's and a
    player's table pages (both rulesets: the odds bar, the composer, the GM's tabs) cut
    no words."""
    errors: list = []
    start = f"/campaigns/{server.campaign}/table/"
    opened = {name: log_in(browser, server.base, name, start, errors) for name in ("gm", "alice")}
    cut: list = []
    try:
        for language in ("de", "fr", "es"):
            for name, (_, page) in opened.items():
                choose(page, server.base, language, READERS[name][1])
                for viewport in VIEWPORTS:
                    page.set_viewport_size(viewport)
                    for campaign in (server.campaign, server.d20_campaign):
                        open_table(page, server.base, campaign, language)
                        where = (language, name, campaign, viewport["width"])
                        cut += [(*where, words) for words in page.evaluate(CLIPPED)]
        assert not cut, cut
        assert not errors, errors
    finally:
        for context, _ in opened.values():
            context.close()

"""Issue 37, "Harm in two clicks", in real browsers on the demo campaigns: a player's
attack, and the GM applies its damage with one press of the card's own button.

2d20 (the demo played on Star Trek Adventures 1st edition, a line with Challenge dice):
Kara's attack on Marcus, then her Challenge dice; the GM's card turns live into "Apply N
to Marcus", N the dice's total, and one click moves Marcus's Stress on both pages.
Momenta: Iska's attack on the Tollkeeper; once resolved, one click applies it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tables.devtools.server import ServerProcess, server_env

from .conftest import start_from
from .test_accessibility import log_in, open_page

pytestmark = pytest.mark.e2e

IDS = """
import json
from tables.models import Campaign, Character
d20 = Campaign.objects.get(name__startswith="House Intrigue")
d20.game_line = "sta1"
d20.save(update_fields=["game_line"])
momenta = Campaign.objects.get(name__startswith="The Salt Roads")
ids = {c.name: c.pk for c in Character.objects.filter(campaign__in=[d20, momenta])}
print("IDS=" + json.dumps({"d20": d20.pk, "momenta": momenta.pk, "characters": ids}))
"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = Path(tmp_path_factory.mktemp("two-clicks-server"))
    server = ServerProcess(
        folder, ["runserver", "--noreload", "--insecure"], env=server_env(folder)
    )
    start_from(tmp_path_factory, server, "demo")
    made = server.manage("shell", "-c", IDS, capture_output=True, text=True)
    server.ids = json.loads(made.stdout.split("IDS=", 1)[1])
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pages(browser, demo):
    opened = {name: log_in(browser, demo.base, name) for name in ("gm", "alice")}
    yield opened
    for page in opened.values():
        page.context.close()


def post(page, button, ending: str) -> str:
    """Click `button` and return the answer to the POST whose URL ends with `ending`."""
    with page.expect_response(
        lambda r: r.url.endswith(ending) and r.request.method == "POST"
    ) as answer:
        button.click()
    assert answer.value.ok, answer.value.text()[:500]
    return answer.value.text()


def test_a_2d20_attack_and_its_challenge_dice_are_applied_in_one_click(pages, demo):
    from playwright.sync_api import expect

    gm, alice = pages["gm"], pages["alice"]
    ids, marcus = demo.ids, demo.ids["characters"]["Marcus"]
    path = f"/campaigns/{ids['d20']}/table/"
    for page in (gm, alice):
        open_page(page, demo.base, path)
    composer = alice.locator("#d20-composer")
    if composer.locator("select[name=character] option:checked").inner_text() != "Kara":
        with alice.expect_response(lambda r: "/d20/composer/" in r.url):
            composer.locator("select[name=character]").select_option(label="Kara")
    composer = alice.locator("#d20-composer")
    composer.locator("select[name=attribute]").select_option("Power")
    composer.locator("select[name=skill]").select_option("Communicate")
    composer.locator("[name=difficulty]").fill("0")  # Difficulty 0: it passes (T-R1)
    composer.locator("select[name=target]").select_option(label="Marcus")
    rolled = post(alice, alice.locator("#roll-button"), "/d20/roll/")
    test = re.search(r'data-d20-test="(\d+)"', rolled)
    assert test, "the test was refused"
    done = alice.locator(f"#spend-panel[data-test-id='{test.group(1)}'] .d20-done button")
    expect(done).to_be_visible()
    post(alice, done, "/resolve/")
    hit = gm.locator(f"[data-hit-test='{test.group(1)}']").first
    expect(hit).to_contain_text("Roll the Challenge dice to fill this in.")
    stress = f"#harm-{marcus}-stress meter"
    maximum = int(gm.locator(stress).get_attribute("max"))

    dice = alice.locator("#challenge-dice form")
    dice.locator("input[name=dice]").fill("8")  # a total of 0 is 1 in 6,561
    dice.locator("select[name=character]").select_option(label="Kara")
    answer = post(alice, dice.locator("button[type=submit]"), "/d20/challenge/")
    total = int(re.search(r'class="challenge-total"[^>]*>\s*(\d+)', answer).group(1))

    button = hit.locator("form button[type=submit]")
    expect(button).to_have_text(f"Apply {total} to Marcus")  # live: no reload
    expect(hit.locator("input[name=total]")).to_have_value(str(total))
    post(gm, button, "/harm/")
    taken = str(min(total, maximum))
    for page in (gm, alice):
        expect(page.locator(stress)).to_have_attribute("value", taken)
        expect(page.locator(f"[data-hit-test='{test.group(1)}']").first).to_contain_text(
            "damage applied in #"
        )
    assert gm.errors == [] and alice.errors == []


def momenta_attack(alice) -> str:
    """Alice's attack on the Tollkeeper; each pattern choice it asks made (PAT-09: the
    first offered). Returns the roll's id."""
    form = alice.locator("#momenta-roll")
    form.locator("input[name=kind][value=attack]").check()
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    form.locator("select[name=template]").select_option(label="Attack (damage)")
    form.locator("select[name=target]").select_option(label="The Tollkeeper")
    rolled = post(alice, alice.locator("#roll-button"), "/momenta/roll/")
    roll = re.search(r'data-hit-roll="(\d+)"', rolled)
    assert roll, "the roll names no target"
    from playwright.sync_api import expect

    # A roll awaiting its patterns loads its chooser after the answer: wait for it.
    expect(alice.locator(f"#chooser-load-{roll.group(1)}")).to_have_count(0)
    chooser = alice.locator(f"#chooser-{roll.group(1)} button[type=submit]")
    for _ in range(3):
        if not chooser.count():
            break
        post(alice, chooser.first, "/allocate/")
    return roll.group(1)


def test_a_momenta_attack_is_applied_in_one_click(pages, demo):
    from playwright.sync_api import expect

    gm, alice = pages["gm"], pages["alice"]
    path = f"/campaigns/{demo.ids['momenta']}/table/"
    for page in (gm, alice):
        open_page(page, demo.base, path)
    # The demo rolls real dice; an attack whose card offers nothing yet is rolled again.
    for _ in range(6):
        roll = momenta_attack(alice)
        hit = gm.locator(f"[data-hit-roll='{roll}']").first
        expect(hit).to_be_visible()
        awaiting = gm.locator(f"[data-momenta-roll='{roll}'] .roll-awaiting")
        expect(awaiting).to_have_count(0)  # the patterns chosen: the card is final
        if hit.locator("form").count():
            break
    button = hit.locator("form button[type=submit]")
    expect(button).to_have_text("Apply to The Tollkeeper")
    post(gm, button, "/harm/")
    for page in (gm, alice):
        expect(page.locator(f"[data-hit-roll='{roll}']").first).to_contain_text(
            "damage applied in #"
        )
    assert gm.errors == [] and alice.errors == []

"""Issue 40 in a real browser: a short session on each ruleset, then its recap read by
the GM and by a player.

Each table plays a session through the services with chosen dice (rolls, a Momentum
spend, a complication, on the 2d20 table an extended task finished, a secret roll and a
hidden trait), one roll through the page by the player and the scene ended from the
campaign page by the GM. The recap is then checked against what the table stores,
read without the recap's code: each chart point against the pool's ledger page (the
value after each change), each character's luck against the exact expectation of every
roll's own odds (rules.odds and rules.d20 over the stored rows), and the secret roll and
the hidden trait in the GM's recap only.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

HIDDEN_TRAIT = "Harkonnen-spy-in-the-hall"

PLAY = """
import json
from django.contrib.auth import get_user_model
from rules.dice import FixedDice
from tables.models import Campaign, Character
from tables.services import d20, extended_tasks, momenta, scene_board, sessions
from tables.services.momenta import RollRequest

User = get_user_model()
gm, alice, bob = (User.objects.get(username=n) for n in ("gm", "alice", "bob"))
played = {}

m = Campaign.objects.get(name="E2E Table")
names = ("Iska Vell", "Dorran Coil", "The Tollkeeper")
iska, dorran, toll = (m.characters.get(name=n) for n in names)
sessions.start_session(m.pk, gm)
sessions.start_scene(m.pk, gm, "The Toll Bridge")
edge = RollRequest(attribute="WITS", advantage_sources=["characteristic"])  # pays 2 Momentum
momenta.roll_momenta(m.pk, alice, iska.pk, edge, rng=FixedDice([5, 6, 6, 2, 1]))
plain = RollRequest(attribute="WITS")
momenta.roll_momenta(m.pk, bob, dorran.pk, plain, rng=FixedDice([1, 2, 3, 4]))  # a Setback
secret = momenta.roll_momenta(
    m.pk, gm, toll.pk, RollRequest(attribute="WITS", secret=True), rng=FixedDice([5, 5, 1, 2])
)
played["momenta_secret_seq"] = secret.event.seq
scene_board.add_trait(m.pk, gm, "HIDDEN_TRAIT", hidden=True)
scene_board.add_trait(m.pk, gm, "The bridge is giving way", kind="complication")

c = Campaign.objects.get(name="E2E Intrigue")
c.game_line = "dune"
c.save(update_fields=["game_line"])
paul = c.characters.get(name="Paul")
paul.skills.create(name="Discipline", value=3)  # Power 7 + 3: target 10


def test(faces, **kw):
    request = d20.D20TestRequest(attribute="Power", skill="Discipline", **kw)
    return d20.roll_d20_test(c.pk, alice, paul.pk, request, rng=FixedDice(faces))


sessions.start_session(c.pk, gm)
sessions.start_scene(c.pk, gm, "The Landsraad")
first = test([1, 4])  # 3 successes at Difficulty 1: 2 Momentum
d20.spend_momentum(c.pk, alice, first.pk, "obtain_information")
d20.resolve_test(c.pk, alice, first.pk)
second = test([20, 12])  # a complication, and a failure
d20.resolve_test(c.pk, alice, second.pk)
task = extended_tasks.create_task(c.pk, gm, "Sway the Baron", work=4, difficulty=1)
for faces in ([2, 3], [5, 6]):  # two passes, 2 points each: the task is complete
    passed = test(faces)
    d20.resolve_test(c.pk, alice, passed.pk)
    extended_tasks.link_roll(c.pk, alice, task.payload["task_id"], passed.pk)
request = d20.D20TestRequest(attribute="Power", skill="Discipline", secret=True)
hidden = d20.roll_d20_test(c.pk, gm, paul.pk, request, rng=FixedDice([7, 8]))
played["d20_secret_seq"] = hidden.event.seq
scene_board.add_trait(c.pk, gm, "HIDDEN_TRAIT", hidden=True)
print("PLAYED=" + json.dumps(played))
""".replace("HIDDEN_TRAIT", HIDDEN_TRAIT)

# The exact expectation of each character's rolls in the session, from the stored rows
# (the rules' own odds of each roll's spec), for the GM and for a player (no secret one).
EXPECTED = """
import json
from rules import odds
from rules.d20 import expected_successes
from rules.d6 import RollSpec
from tables.models import D20Test, MomentaRoll
from tables.policy.d20_records import result_of

found = {}
for audience in ("gm", "player"):
    tally = found.setdefault(audience, {})
    for roll in MomentaRoll.objects.all():
        if audience == "player" and roll.hidden:
            continue
        e, o = tally.get(str(roll.character_id), ("0", 0))
        spec = RollSpec.from_dict(roll.spec)
        expected = Fraction(e) + odds.expected_successes(spec.pool)
        tally[str(roll.character_id)] = (str(expected), o + roll.result["successes"])
    for test in D20Test.objects.all():
        if audience == "player" and test.hidden:
            continue
        result = result_of(test)
        e, o = tally.get(str(test.character_id), ("0", 0))
        expected = Fraction(e) + expected_successes(result.test)
        tally[str(test.character_id)] = (str(expected), o + result.successes)
print("EXPECTED=" + json.dumps(found))
""".replace("import json\n", "import json\nfrom fractions import Fraction\n", 1)


@pytest.fixture(scope="module")
def played(app_server):
    done = app_server.manage("shell", "-c", PLAY, capture_output=True, text=True)
    return json.loads(done.stdout.split("PLAYED=", 1)[1])


def _page(browser, base: str, name: str):
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"{base}/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


@pytest.fixture(scope="module")
def people(browser, app_server, played):
    """The GM and alice logged in; alice rolls once from her table page, and the GM ends
    each table's scene from the campaign page."""
    from playwright.sync_api import expect

    pages = {name: _page(browser, app_server.base, name) for name in ("gm", "alice")}
    alice, gm = pages["alice"], pages["gm"]
    for campaign, button in (
        (app_server.campaign, "#momenta-roll button.mc-roll"),
        (app_server.d20_campaign, "#roll-button"),
    ):
        alice.goto(f"{app_server.base}/campaigns/{campaign}/table/")
        expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
        count = alice.locator("#roll-log > li").count()
        alice.locator(button).click()
        expect(alice.locator("#roll-log > li")).to_have_count(count + 1)
        gm.goto(f"{app_server.base}/campaigns/{campaign}/")
        with gm.expect_response(lambda r: r.url.endswith("/scenes/end/")):
            gm.locator("#play form[action$='/scenes/end/'] button").click()
    yield pages
    for page in pages.values():
        page.context.close()


def _chart_lines(page) -> list[dict]:
    return page.eval_on_selector_all(
        "g.recap-line",
        """lines => lines.map(g => ({
            pool: g.dataset.pool, character: g.dataset.character || "",
            points: [...g.querySelectorAll("a.recap-dot")].map(
                a => [Number(a.dataset.seq), Number(a.dataset.value)])
        }))""",
    )


def _ledger(page, base: str, campaign: int, pool: str, character: str) -> list[list[int]]:
    """(seq, value after) of every line of the pool's ledger page, oldest first."""
    query = f"?pool={pool}" + (f"&character={character}" if character else "")
    page.goto(f"{base}/campaigns/{campaign}/table/ledger/{query}")
    lines = page.eval_on_selector_all(
        "li.ledger-line",
        """lines => lines.map(li => [Number(li.dataset.seq),
            Number(li.querySelector('.ledger-after').textContent.replace('→', '').trim())])""",
    )
    return list(reversed(lines))


@pytest.mark.parametrize("table", ["momenta", "d20"])
@pytest.mark.parametrize("who", ["gm", "alice"])
def test_the_recap_draws_the_ledger_and_weighs_the_luck_exactly(
    people, app_server, played, table, who
):
    from playwright.sync_api import expect

    page = people[who]
    campaign = app_server.campaign if table == "momenta" else app_server.d20_campaign
    recap = f"{app_server.base}/campaigns/{campaign}/recap/"
    page.goto(recap)
    expect(page.locator("h1")).to_contain_text("1")
    _check_moments(page, table)
    lines = _chart_lines(page)
    assert lines, "the recap draws no pool"
    html = page.content()
    luck = page.eval_on_selector_all(
        "li.recap-luck-row",
        "rows => rows.map(r => [r.dataset.character, r.dataset.expected, r.dataset.observed,"
        " r.dataset.rolls])",
    )
    assert luck, "the recap weighs no luck"
    for line in lines:
        ledger = _ledger(page, app_server.base, campaign, line["pool"], line["character"])
        session = [p for p in ledger if p[0] >= min(s for s, _ in line["points"])]
        assert line["points"] == session, line["pool"]
    done = app_server.manage("shell", "-c", EXPECTED, capture_output=True, text=True)
    expected = json.loads(done.stdout.split("EXPECTED=", 1)[1])["gm" if who == "gm" else "player"]
    for character, exact, observed, _ in luck:
        want_exact, want_observed = expected[character]
        assert Fraction(exact) == Fraction(want_exact)
        assert int(observed) == want_observed
    rolls = {int(seq) for _, _, _, seqs in luck for seq in seqs.split()}
    assert (played[f"{table}_secret_seq"] in rolls) == (who == "gm")
    assert (HIDDEN_TRAIT in html) == (who == "gm")


def _check_moments(page, table: str) -> None:
    """The scene's end marked on the line; the complication (a 20 on 2d20, the one the GM
    put on the Momenta board) and, on the 2d20 table, the finished task among the moments.
    (Alice's roll from the page has the server's own dice: it may add one of its own.)"""
    from playwright.sync_api import expect

    expect(page.locator(".recap-mark--scene_end")).to_have_count(1)
    assert page.locator(".recap-moment--complication").count() >= 1
    if table == "d20":
        expect(page.locator(".recap-moment--task_finished")).to_have_count(1)
        expect(page.locator(".recap-task")).to_contain_text("Sway the Baron")


@pytest.mark.parametrize("table", ["momenta", "d20"])
@pytest.mark.parametrize("who", ["gm", "alice"])
def test_axe_finds_no_serious_violation_on_the_recap(people, app_server, table, who):
    """As tests/e2e/test_accessibility.py checks the other pages: light and dark, laptop
    and phone, the numbers' table open too."""
    from .test_accessibility import check_modes

    page = people[who]
    campaign = app_server.campaign if table == "momenta" else app_server.d20_campaign
    page.goto(f"{app_server.base}/campaigns/{campaign}/recap/")
    page.locator("details.recap-numbers summary").first.click()
    page.locator("a.recap-dot").first.focus()  # a point's value shown on focus
    found = check_modes(page)
    assert found == [], "\n".join(found)

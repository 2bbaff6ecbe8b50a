"""Issue 36 in real browsers: each 2d20 line's turn order (SC-04) and what keeping the
initiative costs (SC-05), seen live on the GM's screen and a player's (alice's).

One server for the module, with a campaign per line (Conan, Fallout, Star Trek
Adventures 2e), each with alice's and bob's characters and the GM's NPCs; the GM and
alice log in once and open each line's table in turn. bob stays away: his character's
turn is chosen by the players' side on alice's screen and ended by the GM, as the
tracker allows when a player is absent.
"""

from __future__ import annotations

import json

import pytest

from .conftest import seeded_server
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

# Per line: its key (rules.game_lines), its pools (the GM's shown to the players) and
# its characters: {name: (owner, is an NPC, attributes)}.
LINES = {
    "conan": {
        "line": "conan",
        "momentum": 0,
        "threat": 3,
        "characters": {
            "Valeria": ("alice", False, {}),
            "Subotai": ("bob", False, {}),
            "Thoth-Amon": ("gm", True, {}),
        },
    },
    "fallout": {
        "line": "fallout",
        "momentum": 0,
        "threat": 5,
        # Initiative = PER + AGI: Piper 13, Hancock 11, the Raider Boss 8; the start form
        # lists them Hancock, Piper, Raider Boss (the campaign's order, by name).
        "characters": {
            "Piper": ("alice", False, {"PER": 7, "AGI": 6}),
            "Hancock": ("bob", False, {"PER": 5, "AGI": 6}),
            "Raider Boss": ("gm", True, {"PER": 4, "AGI": 4}),
        },
    },
    "sta": {
        "line": "sta2",
        "momentum": 1,  # under the 2 that keeping the initiative costs
        "threat": 3,
        "characters": {
            "Rahda": ("alice", False, {}),
            "Tomas": ("bob", False, {}),
            "Kor": ("gm", True, {}),
            "Klingon Warrior": ("gm", True, {}),
        },
    },
}

MAKE = """
import json
from django.contrib.auth import get_user_model
from tables.models import Campaign, Character, Membership
from tables.services.campaigns import PRESETS
from tables.services.roll_templates import seed_default_templates

users = {u.username: u for u in get_user_model().objects.all()}
made = {}
for key, spec in json.loads(LINES).items():
    dice_system, economy = PRESETS[Campaign.Preset.D20]
    c = Campaign.objects.create(
        name="E2E " + key, owner=users["gm"], preset=Campaign.Preset.D20,
        dice_system=dice_system, economy=economy, game_line=spec["line"],
        group_momentum=spec["momentum"], threat=spec["threat"], threat_visible=True,
    )
    seed_default_templates(c)
    for user, role in (("gm", "gm"), ("alice", "player"), ("bob", "player")):
        Membership.objects.create(campaign=c, user=users[user], role=role)
    for name, (owner, npc, attributes) in spec["characters"].items():
        ch = Character.objects.create(campaign=c, owner=users[owner], name=name, is_npc=npc)
        for attribute, value in attributes.items():
            ch.attributes.create(name=attribute, value=value)
    made[key] = c.pk
print("MADE=" + json.dumps(made))
"""


@pytest.fixture(scope="module")
def lines_server(tmp_path_factory):
    """A started server with a campaign per line: .lines = {"conan"|"fallout"|"sta": pk}."""
    server = seeded_server(tmp_path_factory)
    script = f"LINES = {json.dumps(json.dumps(LINES))}\n" + MAKE
    made = server.manage("shell", "-c", script, capture_output=True, text=True)
    server.lines = json.loads(made.stdout.split("MADE=", 1)[1])
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Screens:
    """The GM's and alice's pages, logged in once for the module; `open(key)` shows both
    that line's table. `errors`: the pages' script errors."""

    def __init__(self, browser, server):
        self.server, self.errors = server, []
        path = self.path("conan")
        self.opened = [log_in(browser, server.base, n, path, self.errors) for n in ("gm", "alice")]
        (_, self.gm), (_, self.alice) = self.opened
        self.both = (self.gm, self.alice)

    def path(self, key: str) -> str:
        return f"/campaigns/{self.server.lines[key]}/table/"

    def open(self, key: str) -> None:
        from playwright.sync_api import expect

        for page in self.both:
            if not page.url.endswith(self.path(key)):
                page.goto(self.server.base + self.path(key))
            expect(page.locator("#live-status")).to_have_attribute("data-state", "live")

    def close(self) -> None:
        for context, _ in self.opened:
            context.close()


@pytest.fixture(scope="module")
def screens(browser, lines_server):
    opened = Screens(browser, lines_server)
    try:
        yield opened
    finally:
        opened.close()


def start(gm, names) -> None:
    """The GM starts a conflict with these characters (the start form's checkboxes)."""
    form = gm.locator("#turn-tracker .turn-start")
    for name in names:
        form.get_by_role("checkbox", name=name).check()
    form.locator("button[value=start]").click()


def in_step(ahead, behind) -> None:
    """Wait until `behind` has every event `ahead` shows: a push still on its way would
    redraw the tracker over a refusal that `behind` is about to be shown."""
    from playwright.sync_api import expect

    seq = ahead.locator("#table").get_attribute("data-last-seq")
    expect(behind.locator("#table")).to_have_attribute("data-last-seq", seq)


def pool(page, name: str):
    return page.locator(f"#pools [data-pool={name}] .pool-value")


def test_conan_players_act_first_and_the_gm_pays_doom_to_interrupt(screens):
    """SC-04 (Conan quickstart; the publisher's community answers on the players' side
    acting first): the player characters all act first, in any order: a second player's
    character acts right after the first, with no turn handed to the GM's side; then the
    NPCs. The GM pays Doom (ruling SC-R13: 1 an NPC) for an NPC to act before a player,
    and Doom drops by that on every screen."""
    from playwright.sync_api import expect

    screens.open("conan")
    gm, alice = screens.both
    expect(gm.locator("#pools [data-pool=threat] .pool-label")).to_have_text("Doom")
    start(gm, ("Valeria", "Subotai", "Thoth-Amon"))
    for page in screens.both:
        expect(page.locator("#turn-tracker")).to_contain_text("Round 1 · Players first")

    alice.locator("#turn-tracker .turn-choose button", has_text="Valeria acts").click()
    alice.locator("#turn-tracker .turn-end button").click()
    for page in screens.both:
        expect(page.locator("#turn-tracker .turn-acted")).to_contain_text("Valeria")
        # Still the players' side: a second player's character, never the NPC, is next.
        choose = page.locator("#turn-tracker .turn-choose")
        expect(choose).to_contain_text("The players' side chooses who acts next")
        expect(choose.locator("button")).to_have_text(["Subotai acts"])
    alice.locator("#turn-tracker .turn-choose button", has_text="Subotai acts").click()
    for page in screens.both:
        expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Subotai")
    gm.locator("#turn-tracker .turn-end button").click()  # bob is away: the GM ends it

    # The players have all acted: the NPC's turn, then round 2, the players' again.
    expect(alice.locator("#turn-tracker .turn-choose")).to_have_count(0)
    gm.locator("#turn-tracker .turn-choose button", has_text="Thoth-Amon acts").click()
    gm.locator("#turn-tracker .turn-end button").click()
    for page in screens.both:
        expect(page.locator("#turn-tracker")).to_contain_text("Round 2")
    expect(alice.locator("#turn-tracker .turn-choose button")).to_have_count(2)

    # The GM pays 1 Doom: Thoth-Amon acts before any player this round.
    expect(alice.locator("#turn-tracker .turn-buy")).to_have_count(0)
    buy = gm.locator("#turn-tracker .turn-buy button")
    expect(buy).to_have_text(["Pay 1 Doom: Thoth-Amon acts before the next player"])
    buy.click()
    for page in screens.both:
        expect(pool(page, "threat")).to_have_text("2")
        expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Thoth-Amon")
        expect(page.locator("#turn-tracker")).to_contain_text("Round 2")
    expect(alice.locator("#turn-tracker .turn-choose")).to_have_count(0)
    assert screens.errors == []


def test_fallout_acts_by_initiative_and_the_gm_spends_action_points_out_of_order(screens):
    """SC-04 (Fallout core, Combat): each character acts by its Initiative, Perception +
    Agility (the start form prefills it from the sheet), highest first; the GM spends
    Action Points (ruling SC-R14: 2) for an NPC to act out of order, on every screen."""
    from playwright.sync_api import expect

    screens.open("fallout")
    gm, alice = screens.both
    form = gm.locator("#turn-tracker .turn-start")
    for name, initiative in (("Piper", "13"), ("Hancock", "11"), ("Raider Boss", "8")):
        expect(form.get_by_label(f"{name}'s Initiative")).to_have_value(initiative)
    start(gm, ("Hancock", "Piper", "Raider Boss"))
    for page in screens.both:
        expect(page.locator("#turn-tracker")).to_contain_text("Round 1 · By Initiative")
        to_act = page.locator("#turn-tracker .turn-to-act li")
        expect(to_act).to_contain_text(["Piper", "Hancock", "Raider Boss"])
        # Only the highest Initiative may be chosen: the order is not the side's choice.
        expect(page.locator("#turn-tracker .turn-choose button")).to_have_text(["Piper acts"])

    alice.locator("#turn-tracker .turn-choose button", has_text="Piper acts").click()
    alice.locator("#turn-tracker .turn-end button").click()
    for page in screens.both:
        expect(page.locator("#turn-tracker .turn-choose button")).to_have_text(["Hancock acts"])

    # Hancock is next by Initiative; the GM spends 2 AP for the Raider Boss to act now.
    expect(alice.locator("#turn-tracker .turn-buy")).to_have_count(0)
    buy = gm.locator("#turn-tracker .turn-buy button")
    expect(buy).to_have_text(["Spend 2 GM's AP: Raider Boss acts now"])
    buy.click()
    for page in screens.both:
        expect(pool(page, "threat")).to_have_text("3")
        expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Raider Boss")
    gm.locator("#turn-tracker .turn-end button").click()
    for page in screens.both:
        expect(page.locator("#turn-tracker .turn-choose button")).to_have_text(["Hancock acts"])
    assert screens.errors == []


def test_sta_the_gm_buys_the_opening_turn_and_the_players_keep_by_adding_threat(screens):
    """SC-04 (Modiphius STA dev blog 006: "the gamemaster can spend Threat to have an NPC
    take the first turn"; ruling SC-R12: 2 Threat): the GM pays Threat for an NPC to open
    the round. SC-05 (the same blog): with group Momentum under 2, the players Keep the
    Initiative by adding 2 to Threat instead, and Threat rises by 2 on every screen.
    After the GM's side takes a round's last turn, the GM keeps the initiative rather
    than buying the next round's opening (SC-01a)."""
    from playwright.sync_api import expect

    screens.open("sta")
    gm, alice = screens.both
    start(gm, ("Rahda", "Tomas", "Kor", "Klingon Warrior"))
    for page in screens.both:
        expect(page.locator("#turn-tracker")).to_contain_text("Round 1")

    # Before anyone acts, the GM spends 2 Threat: Kor takes the round's first turn.
    expect(alice.locator("#turn-tracker .turn-buy")).to_have_count(0)
    gm.locator("#turn-tracker .turn-buy button", has_text="Kor opens the round").click()
    for page in screens.both:
        expect(pool(page, "threat")).to_have_text("1")
        expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Kor")
    expect(gm.locator("#turn-tracker .turn-buy")).to_have_count(0)  # bought once
    gm.locator("#turn-tracker .turn-end button").click()

    # The players' side: Rahda acts; then the players keep the initiative for Tomas.
    alice.locator("#turn-tracker .turn-choose button", has_text="Rahda acts").click()
    alice.locator("#turn-tracker .turn-end button").click()
    expect(gm.locator("#turn-tracker .turn-acted")).to_contain_text("Rahda")
    in_step(gm, alice)
    # 1 Momentum cannot pay 2: the refusal says to add to Threat, and changes nothing.
    alice.locator("#turn-tracker .turn-keep button", has_text="Tomas").click()
    expect(alice.locator("#turn-tracker [role=alert]")).to_contain_text("add 2 to Threat")
    expect(gm.locator("#turn-tracker .turn-keep-threat")).to_have_count(0)  # the players'
    keep = alice.locator("#turn-tracker .turn-keep-threat button")
    expect(keep).to_have_text(["Keep the Initiative by adding 2 to Threat: Tomas"])
    keep.click()
    for page in screens.both:
        expect(pool(page, "threat")).to_have_text("3")
        expect(pool(page, "group_momentum")).to_have_text("1")
        expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Tomas")

    # The Warrior ends round 1: the GM's side took its last turn, so an NPC opening round
    # 2 is Keeping the Initiative (SC-01a, once in a row), not an opening sold on top.
    gm.locator("#turn-tracker .turn-end button").click()
    gm.locator("#turn-tracker .turn-choose button", has_text="Klingon Warrior acts").click()
    gm.locator("#turn-tracker .turn-end button").click()
    expect(gm.locator("#turn-tracker")).to_contain_text("Round 2")
    expect(gm.locator("#turn-tracker .turn-keep button")).to_have_count(2)
    expect(gm.locator("#turn-tracker .turn-buy")).to_have_count(0)
    assert screens.errors == []

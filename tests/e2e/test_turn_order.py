"""Issue 24 in real browsers: a 2d20 conflict's turn order, live on three screens (SC-01).

The GM starts a conflict with Paul (alice's), Jessica (bob's) and an NPC. Paul acts and
ends his turn; the players Keep the Initiative (group Momentum 4 -> 2 on every screen,
Jessica acting, bob told it is his turn); then the GM's side: the NPC acts; when it ends,
round 1 is over and round 2 begins, and the GM keeps the initiative with 2 Threat so the
NPC opens it. Then Paul's turn: alice attacks the NPC, naming it as the target in the
composer (the server's d20s all show 1, a test-only hook, so the test passes); once she
is done with its Momentum, the GM applies the hit from the roll's card, and bob and the
GM see the NPC's Stress move without a reload (SC-02).
"""

from __future__ import annotations

import os
import re

import pytest

from .conftest import seeded_server
from .test_called_tests import FIXED_DICE
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

NPC = "Sardaukar Levy"


@pytest.fixture(scope="module")
def turn_server(tmp_path_factory):
    hook = tmp_path_factory.mktemp("e2e-turns-hook")
    (hook / "sitecustomize.py").write_text(FIXED_DICE)
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH", "")) if p)
    server = seeded_server(tmp_path_factory, PYTHONPATH=path, E2E_D20_FACES="1")
    made = server.manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model\n"
        "from tables.models import Campaign, Character\n"
        "from tables.services import harm\n"
        "gm = get_user_model().objects.get(username='gm')\n"
        f"c = Campaign.objects.get(pk={server.d20_campaign})\n"
        "Campaign.objects.filter(pk=c.pk).update(group_momentum=4, threat=4, threat_visible=True)\n"
        f"npc = Character.objects.create(campaign=c, owner=gm, name='{NPC}', is_npc=True)\n"
        "Character.objects.get(campaign=c, name='Paul').skills.create(name='Battle', value=3)\n"
        "harm.set_track(c.pk, gm, npc.pk, 'stress', 8)\n"
        "harm.set_track(c.pk, gm, npc.pk, 'injuries', 3)\n"
        "print('NPC=%d' % npc.pk)\n",
        capture_output=True,
        text=True,
    )
    server.npc = int(re.search(r"NPC=(\d+)", made.stdout).group(1))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_2d20_conflict_runs_its_turns_on_every_screen(browser, turn_server):
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{turn_server.d20_campaign}/table/"
    opened = [
        log_in(browser, turn_server.base, name, path, errors) for name in ("gm", "alice", "bob")
    ]
    (_, gm), (_, alice), (_, bob) = opened
    everyone = [gm, alice, bob]

    def trackers():
        return [page.locator("#turn-tracker") for page in everyone]

    try:
        start = gm.locator("#turn-tracker .turn-start")
        for name in ("Paul", "Jessica", NPC):
            start.get_by_label(name).check()
        start.locator("button[value=start]").click()
        for tracker in trackers():
            expect(tracker).to_contain_text("Round 1")

        # The players' side opens: alice chooses Paul, acts, ends his turn.
        alice.locator("#turn-tracker .turn-choose button", has_text="Paul acts").click()
        expect(alice.locator("#turn-tracker .turn-yours")).to_be_visible()
        expect(alice.locator("#turn-announcer")).to_contain_text("It is your turn")
        expect(bob.locator("#turn-tracker .turn-yours")).to_be_hidden()
        alice.locator("#turn-tracker .turn-end button").click()
        for tracker in trackers():
            expect(tracker.locator(".turn-acted")).to_contain_text("Paul")

        # SC-01: the players keep the initiative for 2 group Momentum; Jessica acts.
        bob.locator("#turn-tracker .turn-keep button", has_text="Jessica").click()
        for page in everyone:
            expect(page.locator("#pools [data-pool=group_momentum] .pool-value")).to_have_text("2")
            expect(page.locator("#turn-tracker .turn-acting")).to_contain_text("Jessica")
        expect(bob.locator("#turn-tracker .turn-yours")).to_be_visible()
        expect(bob.locator("#turn-announcer")).to_contain_text("It is your turn")
        expect(alice.locator("#turn-tracker .turn-yours")).to_be_hidden()
        # The page drawn again says so too (the server draws it for its viewer).
        bob.reload()
        expect(bob.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(bob.locator("#turn-tracker .turn-yours")).to_be_visible()
        bob.locator("#turn-tracker .turn-end button").click()

        # The GM's side: the NPC acts; its turn ends round 1, and round 2 begins.
        gm.locator("#turn-tracker .turn-choose button", has_text=NPC).click()
        for tracker in trackers():
            expect(tracker.locator(".turn-acting")).to_contain_text(NPC)
        gm.locator("#turn-tracker .turn-end button").click()
        for tracker in trackers():
            expect(tracker).to_contain_text("Round 2")

        # SC-01b: the GM keeps the initiative with 2 Threat, so the NPC opens round 2.
        gm.locator("#turn-tracker .turn-keep button", has_text=NPC).click()
        for page in everyone:
            expect(page.locator("#pools [data-pool=threat] .pool-value")).to_have_text("2")
            expect(page.locator("#turn-tracker .turn-acting")).to_contain_text(NPC)
            expect(page.locator("#turn-tracker")).to_contain_text("Round 2")

        # SC-02: Paul's turn; alice attacks the NPC, naming it as the target.
        gm.locator("#turn-tracker .turn-end button").click()
        alice.locator("#turn-tracker .turn-choose button", has_text="Paul acts").click()
        expect(alice.locator("#turn-tracker .turn-yours")).to_be_visible()
        composer = alice.locator("#d20-composer")
        composer.locator("select[name=attribute]").select_option("Power")
        composer.locator("select[name=skill]").select_option("Battle")
        composer.locator("select[name=target]").select_option(label=NPC)
        with alice.expect_response(lambda r: r.url.endswith("/d20/roll/")) as answer:
            alice.locator("#roll-button").click()
        assert answer.value.ok
        card = [page.locator("#roll-log > li[data-kind=d20_test]").first for page in everyone]
        for each in card:
            expect(each.locator(".roll-hit")).to_contain_text(f"Attack on {NPC}")
        alice.locator("#spend-panel .d20-done button").click()
        hit = card[0].locator(".roll-hit-form")
        hit.locator("input[name=total]").fill("4")
        hit.locator("button[type=submit]").click()
        stress = f"#harm-{turn_server.npc}-stress"
        for page in (gm, bob):
            expect(page.locator(stress)).to_contain_text("4 of 8")
            expect(page.locator("#roll-log > li[data-kind=d20_test]").first).to_contain_text(
                "damage applied in #"
            )
        expect(bob.locator(".roll-hit-form")).to_have_count(0)  # the GM's to apply
    finally:
        for context, _ in opened:
            context.close()
    assert errors == []

"""Extended tasks without log numbers (issue 37) in real browsers: a player's resolved
2d20 test offers "Count toward <task>" on her own page only (the card is pushed once per
audience; static/tables/task_offers.js shows it to its roller), and one click counts it:
the board moves and the button leaves both pages."""

from __future__ import annotations

import json

import pytest

from .conftest import seeded_server
from .test_live_table import log_in

pytestmark = pytest.mark.e2e

# STA 2e: a passed test adds its department (Communicate 6), no Challenge dice. The
# test is rolled with fixed dice before the server starts; the pages see it resolved.
SETUP = """
import json
from django.contrib.auth import get_user_model
from rules.dice import FixedDice
from tables.models import Campaign, Character
from tables.services import d20, extended_tasks, sessions

users = {u.username: u for u in get_user_model().objects.all()}
c = Campaign.objects.get(name="E2E Intrigue")
c.game_line = "sta2"
c.save(update_fields=["game_line"])
paul = Character.objects.get(name="Paul")
paul.skills.create(name="Communicate", value=6)
sessions.start_scene(c.pk, users["gm"], "Bridge")
extended_tasks.create_task(c.pk, users["gm"], "Scan", work=20)
request = d20.D20TestRequest(attribute="Power", skill="Communicate")
test = d20.roll_d20_test(c.pk, users["alice"], paul.pk, request, rng=FixedDice([3, 4]))
print(json.dumps({"test": test.pk}))
"""


@pytest.fixture(scope="module")
def task_server(tmp_path_factory):
    server = seeded_server(tmp_path_factory)
    done = server.manage("shell", "-c", SETUP, capture_output=True, text=True)
    server.test_id = json.loads(done.stdout.strip().splitlines()[-1])["test"]
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_roller_counts_her_resolved_test_from_its_card(browser, task_server):
    from playwright.sync_api import expect

    errors: list = []
    server = task_server
    path = f"/campaigns/{server.d20_campaign}/table/"
    alice_context, alice = log_in(browser, server.base, "alice", path, errors)
    bob_context, bob = log_in(browser, server.base, "bob", path, errors)
    try:
        offers = f"[data-task-offers='{server.test_id}']"
        expect(alice.locator(offers)).to_have_count(0)  # still open: nothing to count
        # Alice says "Done" (through the server, so the resolved card is pushed).
        csrf = next(c["value"] for c in alice_context.cookies() if c["name"] == "csrftoken")
        answer = alice.request.post(
            f"{server.base}/campaigns/{server.d20_campaign}/d20/tests/{server.test_id}/resolve/",
            headers={"X-CSRFToken": csrf, "HX-Request": "true", "Referer": alice.url},
        )
        assert answer.ok, answer.text()
        button = alice.locator(offers).get_by_role("button", name="Count toward Scan")
        expect(button).to_be_visible()  # the pushed card, shown to its roller
        expect(bob.locator(offers)).to_have_count(1)
        expect(bob.locator(offers)).to_be_hidden()  # the same card, not his test
        with alice.expect_response(lambda r: r.url.endswith("/table/tasks/")) as linked:
            button.click()
        assert linked.value.ok
        for page in (alice, bob):
            task = page.locator("#scene-board .board-task", has_text="Scan")
            expect(task.locator(".board-task-progress")).to_contain_text("6 of 20")
            expect(page.locator(offers)).to_have_count(0)  # counted: offered no more
    finally:
        alice_context.close()
        bob_context.close()
    assert errors == []

"""SC-03 (issue 40): an extended task's card shows the exact chance it is complete within
1, 2, 3 … more tests of the acting character's usual test, for two lines' task models
(STA 1e's Work and Breakthroughs, Dune's requirement), equal to a brute force."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules import extended
from rules.d20 import SkillTest
from rules.dice import FixedDice
from tables.services import d20 as services_d20
from tables.services import extended_tasks
from tests.rules.test_extended_odds import brute_finish
from tests.tables.test_extended_tasks import challenge, line, test_roll

pytestmark = pytest.mark.django_db


def card_chances(client, campaign, task_id) -> list[Fraction]:
    page = client.get(f"/campaigns/{campaign.pk}/table/").content.decode()
    card = re.search(rf'data-task="{task_id}".*?</li>\s*</ol>', page, re.S)
    assert card, "the task's card shows no odds"
    return [Fraction(c) for c in re.findall(r'data-chance="([0-9/]+)"', card.group(0))]


def test_sta1_cards_odds_equal_the_brute_force(d20_campaign, gm, player, kara, client_for):
    """Kara's usual test: Power 7 + Communicate 6 (target 13) at the task's Difficulty 2;
    her usual Challenge dice: the 2 she rolled last."""
    c = line(d20_campaign, "sta1", gm)
    made = extended_tasks.create_task(c.pk, gm, "Realign", work=4, magnitude=2, difficulty=2)
    first = test_roll(c, player, kara, [3, 4], difficulty=2)  # SC-07
    dice = challenge(c, player, kara, [2, 1])  # 3 Work: not yet full
    extended_tasks.link_roll(
        c.pk, player, made.payload["task_id"], first.pk, challenge_seq=dice.seq
    )
    task = extended.Task(extended.STA1, work=4, magnitude=2, progress=3)
    brute = brute_finish(task, SkillTest(target=13, difficulty=2), dice=2, tests=3)
    shown = card_chances(client_for("player"), c, made.payload["task_id"])
    assert len(shown) == 5 and shown[:3] == brute
    assert shown == sorted(shown)


def test_dune_cards_odds_equal_the_brute_force(d20_campaign, gm, player, kara, client_for):
    c = line(d20_campaign, "dune", gm)
    made = extended_tasks.create_task(c.pk, gm, "Win the Baron", work=7, difficulty=3)
    test_roll(c, player, kara, [3, 4])  # her usual test, not linked
    task = extended.Task(extended.DUNE, work=7)
    brute = brute_finish(task, SkillTest(target=13, difficulty=3), dice=0, tests=5)
    assert card_chances(client_for("gm"), c, made.payload["task_id"]) == brute
    assert brute[2] == 0 < brute[3]  # 2 points a pass: four passes for 7


def test_a_secret_test_is_nobodys_usual_test(d20_campaign, gm, player, kara, client_for):
    """TB-03: the card is the same for every audience, so it reads public tests only."""
    c = line(d20_campaign, "dune", gm)
    made = extended_tasks.create_task(c.pk, gm, "Hidden", work=4)
    kara.skills.create(name="Subterfuge", value=2)

    def secret_test():
        request = services_d20.D20TestRequest(attribute="Power", skill="Subterfuge", secret=True)
        services_d20.roll_d20_test(c.pk, gm, kara.pk, request, rng=FixedDice([3, 4]))

    secret_test()
    page = client_for("gm").get(f"/campaigns/{c.pk}/table/").content.decode()
    assert f'data-task="{made.payload["task_id"]}"' in page
    assert "task-odds" not in page  # no public test yet: no usual test
    test_roll(c, player, kara, [3, 4])  # Power + Communicate, for everyone
    secret_test()
    page = client_for("gm").get(f"/campaigns/{c.pk}/table/").content.decode()
    said = re.search(r'class="board-task-odds"[^>]*>([^<]*)', page).group(1)
    assert "usual Power + Communicate" in said

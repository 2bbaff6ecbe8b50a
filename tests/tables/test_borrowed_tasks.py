"""SC-03 with rulings SC-R16 and SC-R17 (SC-08: a setting, on by default): Achtung!
Cthulhu's extended tasks are read as STA 1st edition's (Work from the Challenge dice,
Breakthroughs at 5+ or a filled track, complete at Magnitude), as Conan's are (SC-R7);
the seeds' 2d20 as Dune's (2 points a passed test plus the asset's Quality). With the
setting off those lines refuse a task, and the board offers none where it is refused."""

import pytest
from django.urls import reverse

from rules import extended
from tables.models import Campaign, ExtendedTask
from tables.services import extended_tasks
from tables.services.core import ServiceError
from tests.tables.test_extended_tasks import challenge, line, snapshot, task_of, test_roll

pytestmark = pytest.mark.django_db


def test_sc_r16_achtung_tasks_are_read_as_sta1s_work_and_magnitude(d20_campaign, gm, player, kara):
    """SC-R16: 6 Work from the Challenge dice (5+): a Breakthrough; the second fills the
    7 track: the task (Magnitude 2) is complete. The GM's Difficulty is kept (SC-07 is
    STA's)."""
    c = line(d20_campaign, "achtung", gm)
    made = extended_tasks.create_task(c.pk, gm, "Decode the cipher", work=7, magnitude=2)
    task = task_of(made)
    assert task.rule == "achtung" and task.difficulty == 0
    first = test_roll(c, player, kara, [3, 4])
    dice = challenge(c, player, kara, [2, 2, 1, 5])
    event = extended_tasks.link_roll(c.pk, player, task.pk, first.pk, challenge_seq=dice.seq)
    assert (event.payload["amount"], event.payload["scored"]) == (6, 1)
    second = test_roll(c, player, kara, [2, 9])
    dice = challenge(c, player, kara, [2, 3])
    event = extended_tasks.link_roll(c.pk, player, task.pk, second.pk, challenge_seq=dice.seq)
    assert (event.payload["amount"], event.payload["scored"]) == (1, 1)
    assert event.payload["closed"] is True


def test_sc_r17_seeds_tasks_are_read_as_dunes_points(d20_campaign, gm, player, kara):
    """SC-R17: a passed test scores 2, plus the Quality of the asset named (Kara's Signet
    ring, Quality 1): 3 of 5, then 2 more completes it."""
    c = line(d20_campaign, "seeds", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Win the council", work=5))
    assert task.rule == "seeds"
    first = test_roll(c, player, kara, [3, 4])
    event = extended_tasks.link_roll(c.pk, player, task.pk, first.pk, asset="Signet ring")
    assert event.payload["amount"] == 3
    second = test_roll(c, player, kara, [2, 9])
    event = extended_tasks.link_roll(c.pk, player, task.pk, second.pk)
    assert event.payload["amount"] == 2 and event.payload["closed"] is True


@pytest.mark.parametrize("key", ["conan", "achtung", "seeds"])
def test_sc_08_the_borrowed_task_rules_are_a_setting(d20_campaign, gm, key, client_for):
    """Off, a line whose rule is borrowed refuses a task (nothing changes) and the board
    does not offer one; on (the default), it offers it."""
    c = line(d20_campaign, key, gm)
    page = client_for("gm").get(reverse("table", args=[c.pk])).content.decode()
    assert "New extended task" in page
    Campaign.objects.filter(pk=c.pk).update(borrowed_extended_tasks=False)
    before = snapshot(c)
    with pytest.raises(ServiceError, match="not supported"):
        extended_tasks.create_task(c.pk, gm, "Climb the tower", work=5, magnitude=1)
    assert snapshot(c) == before and not ExtendedTask.objects.exists()
    page = client_for("gm").get(reverse("table", args=[c.pk])).content.decode()
    assert "New extended task" not in page


def test_sc_03_fallout_offers_no_task_it_would_refuse(d20_campaign, gm, client_for):
    c = line(d20_campaign, "fallout", gm)
    page = client_for("gm").get(reverse("table", args=[c.pk])).content.decode()
    assert "New extended task" not in page
    assert not extended.offered("fallout") and extended.offered("sta2", borrowed=False)

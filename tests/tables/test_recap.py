"""The session recap (issue 40): the pools over a session, each character's tally and the
dice's luck against each roll's own exact odds, the moments, and what a player may not
see left out (TB-03, MO-09b, MO-13)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules import odds
from rules.d20 import SkillTest, expected_successes
from rules.dice import FixedDice
from tables.models import PoolChange, TableEvent
from tables.recap.facts import recap_of
from tables.recap.spans import outline
from tables.services import d20 as services_d20
from tables.services import momenta, scene_board, sessions
from tables.services.momenta import RollRequest

HIDDEN_TRAIT = "Sandworm-sign-beneath"


def _roll(campaign, actor, character, faces, **kw):
    params = {"attribute": "Power", "skill": "Communicate"} | kw
    return services_d20.roll_d20_test(
        campaign.pk, actor, character.pk, services_d20.D20TestRequest(**params),
        rng=FixedDice(faces),
    )  # fmt: skip


@pytest.fixture
def d20_session(d20_campaign, gm, player, kara):
    """A short 2d20 session: a critical, a spend, a complication, a secret test, a hidden
    trait, a scene's end."""
    campaign = d20_campaign
    sessions.start_session(campaign.pk, gm)
    sessions.start_scene(campaign.pk, gm, "Arrival")
    first = _roll(campaign, player, kara, [1, 3], difficulty=1)  # 2 + 1 = 3: 2 Momentum
    services_d20.spend_momentum(campaign.pk, player, first.pk, "obtain_information")
    services_d20.resolve_test(campaign.pk, player, first.pk)  # the rest to the group pool
    second = _roll(campaign, player, kara, [20, 15], difficulty=2)  # a complication, failed
    services_d20.resolve_test(campaign.pk, player, second.pk)
    _roll(campaign, gm, kara, [2, 2], secret=True)
    scene_board.add_trait(campaign.pk, gm, HIDDEN_TRAIT, hidden=True)
    sessions.end_scene(campaign.pk, gm)
    campaign.refresh_from_db()
    return campaign, first, second


def _facts(campaign, *, is_gm, viewer_id):
    span = outline(campaign).session(None)
    return recap_of(campaign, span, is_gm=is_gm, viewer_id=viewer_id)


def test_the_chart_points_are_the_ledgers_values_after_each_change(d20_session, gm):
    campaign, *_ = d20_session
    facts = _facts(campaign, is_gm=True, viewer_id=gm.pk)
    group = next(s for s in facts.series if s.pool == "group_momentum")
    ledger = PoolChange.objects.filter(campaign=campaign, pool="group_momentum")
    expected = [(c.event.seq, c.after) for c in ledger.order_by("event__seq", "id")]
    assert [(p.seq, p.value) for p in group.points] == expected
    assert group.points[-1].value == campaign.group_momentum


def test_luck_is_each_rolls_successes_against_its_own_exact_expectation(d20_session, gm):
    """T-05: the expectation of Power 7 + Communicate 6 (target 13, focus 1) on 2d20 is
    2 × (12/20 · 1 + 1/20 · 2) = 7/5; the secret roll counts too, for the GM."""
    campaign, *_ = d20_session
    kara = next(t for t in _facts(campaign, is_gm=True, viewer_id=gm.pk).characters)
    one_roll = expected_successes(SkillTest(target=13, difficulty=1))
    assert one_roll == Fraction(7, 5)
    assert kara.tests == 3
    assert kara.expected == 3 * one_roll
    assert kara.observed == 3 + 0 + 2  # [1, 3]: 2 + 1; [20, 15]: 0; [2, 2]: 1 + 1


def test_a_player_never_meets_the_secret_roll_or_the_hidden_trait(d20_session, gm, player):
    campaign, *_ = d20_session
    facts = _facts(campaign, is_gm=False, viewer_id=player.pk)
    kara = facts.characters[0]
    assert kara.tests == 2 and kara.observed == 3
    assert not any(m.kind == "trait" for m in facts.moments)
    gm_facts = _facts(campaign, is_gm=True, viewer_id=gm.pk)
    assert any(m.kind == "trait" and m.name == HIDDEN_TRAIT for m in gm_facts.moments)


def test_the_moments_and_marks_of_a_session(d20_session, gm):
    campaign, first, second = d20_session
    facts = _facts(campaign, is_gm=True, viewer_id=gm.pk)
    kinds = {(m.kind, m.seq) for m in facts.moments}
    assert ("critical", first.event.seq) in kinds
    assert ("complication", second.event.seq) in kinds
    marks = {m.kind for m in facts.marks}
    assert {"scene_start", "scene_end", "complication"} <= marks
    tally = facts.characters[0]
    assert tally.momentum_generated == 2 + 0 + 1  # the secret [2, 2] at Difficulty 1: 1
    assert tally.spent_on == {"obtain_information": 1}


def test_the_recap_reads_in_few_queries_however_long(d20_session, gm):
    campaign, *_ = d20_session
    span = outline(campaign).session(None)
    with CaptureQueriesContext(connection) as queries:
        recap_of(campaign, span, is_gm=True, viewer_id=gm.pk)
    assert len(queries) <= 5


@pytest.mark.parametrize("role", ["gm", "player", "observer"])
def test_members_see_the_recap_page_and_its_markdown(d20_session, client_for, role):
    campaign, *_ = d20_session
    client = client_for(role)
    page = client.get(f"/campaigns/{campaign.pk}/recap/").content.decode()
    markdown = client.get(f"/campaigns/{campaign.pk}/recap.md")
    assert "<svg" in page and "Kara" in page
    assert markdown["Content-Type"].startswith("text/markdown")
    text = markdown.content.decode()
    assert text.startswith("# Arrakis")
    assert (HIDDEN_TRAIT in page) == (role == "gm")
    assert (HIDDEN_TRAIT in text) == (role == "gm")


def test_outsiders_get_no_recap(d20_session, client_for):
    campaign, *_ = d20_session
    assert client_for("outsider").get(f"/campaigns/{campaign.pk}/recap/").status_code == 403


def test_a_scene_recap_holds_only_that_scenes_events(d20_session, client_for, gm):
    campaign, *_ = d20_session
    sessions.start_scene(campaign.pk, gm, "Departure")
    found = outline(campaign)
    assert [s.scene for s in found.scenes] == [1, 2]
    arrival = found.scene(1)
    events = TableEvent.objects.filter(campaign=campaign)
    started = events.get(kind="scene_started", payload__number=1).seq
    ended = events.get(kind="scene_ended", payload__number=1).seq
    assert (arrival.first, arrival.last) == (started, ended)
    assert found.scene(2).first == events.get(kind="scene_started", payload__number=2).seq
    client = client_for("gm")
    page = client.get(f"/campaigns/{campaign.pk}/recap/?scene=1").content.decode()
    assert "Arrival" in page
    seqs = {int(s) for s in re.findall(r'data-seq="(\d+)"', page)}
    assert seqs and all(arrival.first <= s <= arrival.last for s in seqs)
    assert client.get(f"/campaigns/{campaign.pk}/recap/?scene=9").status_code == 404


def test_momenta_luck_uses_the_pools_exact_odds(momenta_campaign, gm, player, hero):
    """D6-01: a pool of n dice expects n/3 successes."""
    sessions.start_session(momenta_campaign.pk, gm)
    momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, RollRequest(attribute="WITS"),
        rng=FixedDice([5, 6, 6, 1]),
    )  # fmt: skip
    momenta_campaign.refresh_from_db()
    facts = _facts(momenta_campaign, is_gm=False, viewer_id=player.pk)
    ash = facts.characters[0]
    assert ash.rolls[0].observed == 3
    assert ash.expected == odds.expected_successes(4) == Fraction(4, 3)
    assert any(m.kind == "critical" for m in facts.moments)  # 3 successes: band 3


def test_a_long_lines_dots_are_thinned_but_its_line_and_table_keep_every_change():
    from tables.recap import chart
    from tables.recap.facts import Point, Series

    points = tuple(Point(seq, seq % 7, 1, "d20_resolved") for seq in range(1, 500))
    drawn = chart.chart((Series("group_momentum", None, 0, points),), (), 1, 499).lines[0]
    assert len(drawn.dots) == 499
    assert len(drawn.drawn) <= chart.MAX_DOTS + 1
    assert drawn.drawn[-1] == drawn.dots[-1]  # the last value is always a dot
    assert drawn.path.count(",") == 2 * 499 + 2  # a step (two corners) per change, both ends


def test_the_luck_line_ends_at_the_sessions_luck():
    from tables.recap import chart
    from tables.recap.facts import Roll

    rolls = [Roll(2, 3, Fraction(7, 5)), Roll(5, 0, Fraction(7, 5))]  # +8/5, then -7/5
    line = chart.luck_line(rolls, 1, 9)
    last_y = float(line.path.split()[-1].split(",")[1])
    luck = float(sum(r.observed - r.expected for r in rolls))  # 1/5 above the middle
    assert line.scale == 1.6
    assert last_y == round(line.middle - luck * (line.middle - 6) / line.scale, 1)


def test_names_typed_at_the_table_are_escaped_in_the_chart(d20_session, client_for, kara):
    campaign, *_ = d20_session
    kara.name = 'Kara <img src=x onerror="alert(1)">'
    kara.save(update_fields=["name"])
    sessions.adjust_pool(campaign.pk, campaign.owner, "determination", 1, "A vow", kara.pk)
    page = client_for("gm").get(f"/campaigns/{campaign.pk}/recap/").content.decode()
    assert "<img src=x" not in page
    assert "Kara &lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page


def test_a_complication_put_on_the_board_is_a_moment_and_a_mark(momenta_campaign, gm, player):
    """MO-09b: a complication the GM records after a roll is a board entry of its kind."""
    sessions.start_session(momenta_campaign.pk, gm)
    sessions.start_scene(momenta_campaign.pk, gm, "The bridge")
    scene_board.add_trait(momenta_campaign.pk, gm, "The rope frays", kind="complication")
    scene_board.add_trait(momenta_campaign.pk, gm, "Fog")
    momenta_campaign.refresh_from_db()
    facts = _facts(momenta_campaign, is_gm=False, viewer_id=player.pk)
    assert [(m.kind, m.name) for m in facts.moments] == [
        ("complication", "The rope frays"),
        ("trait", "Fog"),
    ]
    assert [m.kind for m in facts.marks] == ["scene_start", "complication"]


def test_the_recap_is_in_the_readers_language_and_time_zone(d20_session, client_for):
    """Issue 28: each reader's own words, numbers and clock; the line's pool names."""
    from datetime import UTC, datetime

    campaign, *_ = d20_session
    TableEvent.objects.filter(campaign=campaign).update(
        created_at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    )
    client = client_for("player")
    client.post(
        "/account/settings/", {"animate_dice": "", "language": "de", "time_zone": "Asia/Tokyo"}
    )
    page = client.get(f"/campaigns/{campaign.pk}/recap/").content.decode()
    assert "Rückblick: Sitzung 1" in page
    assert "Das Glück der Würfel" in page
    assert "21:00" in page and "12:00" not in page  # noon UTC in Tokyo
    assert "3 Erfolge, wo die Chancen 2,80 erwarten ließen (+0,20)" in page  # 7/5 + 7/5
    text = client.get(f"/campaigns/{campaign.pk}/recap.md").content.decode()
    assert text.startswith("# Arrakis: Rückblick auf Sitzung 1")


def test_threat_is_drawn_for_players_only_while_the_gm_shows_it(d20_session, gm, player):
    """MO-13: Threat is the GM's pool; the recap draws it for players once it is shown."""
    from tables.models import Campaign
    from tables.services.gm import add_threat

    campaign, *_ = d20_session
    add_threat(campaign.pk, gm, 2, "Reinforcements")
    # MO-08: a d20 bought with Threat: the roll is everyone's, its Threat line is not.
    kara = campaign.characters.get(name="Kara")
    _roll(campaign, player, kara, [5, 6, 7], bought_dice=1)
    campaign.refresh_from_db()
    gm_facts = _facts(campaign, is_gm=True, viewer_id=gm.pk)
    assert "threat" in {s.pool for s in gm_facts.series}
    assert gm_facts.characters[0].threat_added == 1  # Kara's bought die; not the GM's 2
    assert "threat" not in {
        s.pool for s in _facts(campaign, is_gm=False, viewer_id=player.pk).series
    }
    Campaign.objects.filter(pk=campaign.pk).update(threat_visible=True)
    campaign.refresh_from_db()
    add_threat(campaign.pk, gm, 1, "The alarm")
    campaign.refresh_from_db()
    shown = _facts(campaign, is_gm=False, viewer_id=player.pk)
    threat = next(s for s in shown.series if s.pool == "threat")
    # The bought die's line and the alarm's; never the Reinforcements, added in secret.
    assert [p.delta for p in threat.points] == [1, 1]
    assert threat.points[-1].value == campaign.threat


def test_harm_assists_and_a_finished_task_are_counted(d20_campaign, gm, player, kara, marcus):
    """SC-02: Kara's hit deals 4 + 2 − 1 = 5 Stress to Marcus (and an Injury, not counted
    as damage); T-03: Marcus assists her next test; SC-03 (STA 1e): a pass and 3 Work on a
    2-Work track of Magnitude 1 completes the task."""
    from tables.services import extended_tasks, harm
    from tables.services import game_lines as services_lines

    d20_campaign.game_line = "sta1"
    d20_campaign.save(update_fields=["game_line"])
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "stress", 8)
    harm.set_track(d20_campaign.pk, gm, marcus.pk, "injuries", 2)
    sessions.start_session(d20_campaign.pk, gm)
    sessions.start_scene(d20_campaign.pk, gm, "The duel")
    hit = _roll(d20_campaign, player, kara, [3, 15])
    harm.apply_d20_hit(
        d20_campaign.pk, gm, hit.pk, marcus.pk, track="stress", total=4, bonus=2, soak=1
    )
    task = extended_tasks.create_task(d20_campaign.pk, gm, "Disarm", work=2, magnitude=1)
    helped = _roll(d20_campaign, player, kara, [2, 9, 4], assistants=(marcus.pk,))
    dice = services_lines.roll_challenge_dice(
        d20_campaign.pk, player, 2, character_id=kara.pk, rng=FixedDice([2, 5])
    )
    extended_tasks.link_roll(
        d20_campaign.pk, player, task.payload["task_id"], helped.pk, challenge_seq=dice.seq
    )
    d20_campaign.refresh_from_db()
    facts = _facts(d20_campaign, is_gm=False, viewer_id=player.pk)
    tallies = {t.name: t for t in facts.characters}
    assert (tallies["Kara"].harm_dealt, tallies["Marcus"].harm_taken) == (5, 5)
    assert (tallies["Marcus"].assists_given, tallies["Kara"].assists_given) == (1, 0)
    (run,) = facts.tasks
    assert (run.name, run.closed, run.tests, run.breakthroughs) == ("Disarm", True, 1, 1)
    assert [m.name for m in facts.moments if m.kind == "task_finished"] == ["Disarm"]

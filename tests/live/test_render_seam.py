"""The render seam (tables/live/frames.py) against the plain path (render.event_fragments).

An event's fragments are drawn at most once per audience per process, from the rows its
command committed: they must be the plain path's, never another audience's (TB-03), and
the memo stays bounded. LIVE_FRAME_MEMO = False bypasses it.
"""

import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.live import fanout, frames
from tables.live import render as live
from tables.models import Membership, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import d20 as services_d20
from tables.services import momenta, sessions, talk
from tables.views import answers

from .conftest import commit_event

BOTH = (GM, ALL)  # the GMs' first: the players' must not come from it

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: frames.hold


def fresh(event: TableEvent) -> TableEvent:
    """The event as the hub reads it (render.next_events), not the command's instance."""
    return live.next_events(event.campaign_id, event.seq - 1, 1)[0]


def momenta_roll(campaign, actor, hero, d6_faces, **asked):
    sessions.start_session(campaign.pk, campaign.owner)  # the GM
    d6_faces([5, 5, 2, 3, 1, 4, 6] * 10)
    request = momenta.RollRequest(attribute="WITS", **asked)
    return momenta.roll_momenta(campaign.pk, actor, hero.pk, request).event


@pytest.fixture
def counted(monkeypatch):
    """{"draws": [(seq, audience)…], "reads": [seq…]}: what render drew and read."""
    seen = {"draws": [], "reads": []}
    draw, event_rows = live.draw, live.event_rows

    def counting_draw(event, audience, rows):
        seen["draws"].append((event.seq, audience))
        return draw(event, audience, rows)

    def counting_rows(event, *held):
        seen["reads"].append(event.seq)
        return event_rows(event, *held)

    monkeypatch.setattr(live, "draw", counting_draw)
    monkeypatch.setattr(live, "event_rows", counting_rows)
    return seen


def test_a_momenta_roll_through_the_seam_is_the_plain_render(
    momenta_campaign, player, hero, d6_faces
):
    event = momenta_roll(momenta_campaign, player, hero, d6_faces)
    assert frames.fragments(event, BOTH) == live.event_fragments(fresh(event), BOTH)


def test_a_2d20_test_through_the_seam_is_the_plain_render(
    d20_campaign, gm, player, kara, d20_faces
):
    sessions.start_session(d20_campaign.pk, gm)
    d20_faces([2, 5, 2, 5, 19])
    asked = services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1)
    event = services_d20.roll_d20_test(d20_campaign.pk, player, kara.pk, asked).event
    assert frames.fragments(event, BOTH) == live.event_fragments(fresh(event), BOTH)


def test_a_talk_message_through_the_seam_is_the_plain_render(momenta_campaign, player):
    event = talk.post_talk(momenta_campaign.pk, player, talk.IN_CHARACTER, "Wet again")
    assert frames.fragments(event, BOTH) == live.event_fragments(fresh(event), BOTH)


def test_the_answer_and_the_hub_draw_each_audience_once_and_read_the_rows_once(
    momenta_campaign, player, hero, d6_faces, counted
):
    event = momenta_roll(momenta_campaign, player, hero, d6_faces)
    membership = Membership.objects.get(campaign=momenta_campaign, user=player)
    with CaptureQueriesContext(connection) as answer_reads:
        answer = answers.event_fragments(membership, [event])
    [frame] = fanout.load_frames(momenta_campaign.pk, event.seq - 1, frozenset(BOTH))
    assert frame.html[ALL] == answer
    assert sorted(counted["draws"]) == [(event.seq, ALL), (event.seq, GM)]
    assert counted["reads"] == [event.seq]
    # The command's rows were held: its answer reads neither the table, the card nor the roll.
    sql = " ".join(q["sql"] for q in answer_reads.captured_queries)
    for table in ("tables_campaign", "tables_character", "tables_momentaroll"):
        assert f'FROM "{table}"' not in sql


def test_with_the_seam_bypassed_the_answer_and_the_hub_each_read_and_draw(
    momenta_campaign, player, hero, d6_faces, counted, settings
):
    settings.LIVE_FRAME_MEMO = False
    event = momenta_roll(momenta_campaign, player, hero, d6_faces)
    membership = Membership.objects.get(campaign=momenta_campaign, user=player)
    answer = answers.event_fragments(membership, [event])
    [frame] = fanout.load_frames(momenta_campaign.pk, event.seq - 1, frozenset(BOTH))
    assert frame.html[ALL] == answer
    assert sorted(counted["draws"]) == [
        (event.seq, ALL),
        (event.seq, ALL),
        (event.seq, GM),
    ]
    assert counted["reads"] == [event.seq, event.seq]


def test_tb_03_a_secret_roll_is_never_drawn_for_the_players(
    momenta_campaign, gm, player, hero, d6_faces, counted
):
    event = momenta_roll(momenta_campaign, gm, hero, d6_faces, secret=True)
    gm_member = Membership.objects.get(campaign=momenta_campaign, user=gm)
    player_member = Membership.objects.get(campaign=momenta_campaign, user=player)
    assert f'id="event-{event.seq}"' in answers.event_fragments(gm_member, [event])
    assert answers.event_fragments(player_member, [event]) == ""
    [frame] = fanout.load_frames(momenta_campaign.pk, event.seq - 1, frozenset(BOTH))
    assert frame.html[ALL] is None and f'id="event-{event.seq}"' in frame.html[GM]
    assert counted["draws"] == [(event.seq, GM)]


def test_tb_03_the_players_fragments_never_come_from_the_gms(momenta_campaign, gm):
    """Hidden Threat (MO-13): the GMs' frame shows it, the players' drawn after it not."""
    event = commit_event(momenta_campaign.pk, gm, changes=[("threat", 2, "r", None)])
    drawn = frames.fragments(event, BOTH)
    assert drawn[ALL] != drawn[GM]
    assert drawn == live.event_fragments(fresh(event), BOTH)


def test_the_memo_is_bounded_and_a_dropped_frame_is_drawn_again(momenta_campaign, gm, monkeypatch):
    """Issue 41: the drawn frames by their bytes, the rows by count."""
    notes = [commit_event(momenta_campaign.pk, gm, payload={"summary": f"n{n}"}) for n in range(12)]
    frames.fragments(notes[0], BOTH)
    monkeypatch.setattr(frames, "DRAWN_BYTES", frames.drawn_bytes() * 3)  # ~3 notes' frames
    monkeypatch.setattr(frames, "ROWS", 2)
    for note in notes[1:]:
        frames.fragments(note, BOTH)
    kept = sum(sys.getsizeof(html) for html in frames._drawn.values())
    assert kept == frames.drawn_bytes() <= frames.DRAWN_BYTES
    assert 4 <= len(frames._drawn) <= 6  # the last notes' frames, both audiences
    assert len(frames._rows) == 2 and len(frames._held) <= 2
    assert frames.fragment(notes[0], ALL) == live.render_event_fragments(notes[0], ALL)

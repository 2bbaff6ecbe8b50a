"""A command's rows serve its event's other audience in the same process (issue 10).

The answer to a command renders its event for the actor's audience from the rows
the command holds (render.Known). The fan-out renders the other audience (the GMs')
a moment later in the same process: it uses those held rows instead of reading the
campaign and the cards again, and draws the same fragments a fresh read would.
"""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.live import render
from tables.models import Campaign, Character

from .conftest import commit_event

pytestmark = pytest.mark.django_db


def _reads(queries, table: str) -> list[str]:
    return [q["sql"] for q in queries if f'FROM "{table}"' in q["sql"]]


@pytest.fixture
def rolled(momenta_campaign, hero):
    event = commit_event(
        momenta_campaign.pk,
        hero.owner,
        changes=[("momentum", 1, "roll", hero)],
    )
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    hero = Character.objects.select_related("owner").get(pk=hero.pk)
    return event, render.Known(campaign=campaign, characters=(hero,))


def test_the_gm_render_after_the_answer_reads_no_campaign_or_card(rolled):
    event, known = rolled
    fresh = render.render_event_fragments(event, render.GM)  # nothing held: reads them
    render.clear_cache()
    render.render_event_fragments(event, render.ALL, known)  # the command's answer
    with CaptureQueriesContext(connection) as queries:
        held = render.render_event_fragments(event, render.GM)  # the fan-out
    assert _reads(queries, "tables_campaign") == []
    assert _reads(queries, "tables_character") == []
    assert held == fresh


def test_rows_are_held_only_for_their_event(rolled, gm):
    event, known = rolled
    render.render_event_fragments(event, render.ALL, known)
    other = commit_event(event.campaign_id, gm, payload={"summary": "later"})
    with CaptureQueriesContext(connection) as queries:
        render.render_event_fragments(other, render.GM)
    assert _reads(queries, "tables_campaign") != []


def test_fragments_being_drawn_are_waited_for_not_drawn_twice(rolled, monkeypatch):
    """The fan-out asks for the fragments the answer is drawing at that moment."""
    event, known = rolled
    drawing, release, calls = threading.Event(), threading.Event(), []

    def slow(*args):
        calls.append(args[1])
        drawing.set()
        release.wait(5)
        return "<li>drawn once</li>"  # no database from these threads

    monkeypatch.setattr(render, "_render_event_fragments", slow)
    answer: list[str] = []
    first = threading.Thread(
        target=lambda: answer.append(render.render_event_fragments(event, render.ALL, known))
    )
    first.start()
    assert drawing.wait(5)
    pushed: list[str] = []
    second = threading.Thread(
        target=lambda: pushed.append(render.render_event_fragments(event, render.ALL))
    )
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the first, not drawing its own
    release.set()
    first.join(5)
    second.join(5)
    assert calls == [render.ALL]
    assert pushed == answer == ["<li>drawn once</li>"]

"""Pushed fragments in each reader's language and time zone (issue 28): drawn once per
audience and reader present at the table, never once per socket."""

import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from tables.live import frames
from tables.live import render as live
from tables.models import Campaign, PersonSettings
from tables.policy.locale import Reader, socket_reader

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

BERLIN, NEW_YORK = "Europe/Berlin", "America/New_York"


def log_time(html: str) -> str:
    return re.search(r'<time class="log-time" datetime="[^"]+">([^<]+)</time>', html)[1]


def local_hhmm(when, zone: str) -> str:
    return when.astimezone(ZoneInfo(zone)).strftime("%H:%M")


@pytest.fixture
def readers(momenta_campaign, player, player2, observer):
    """player and observer read German in Berlin, player2 French in New York; the GMs
    chose nothing (English, the campaign's UTC)."""
    for user, language, zone in [
        (player, "de", BERLIN),
        (observer, "de", BERLIN),
        (player2, "fr", NEW_YORK),
    ]:
        PersonSettings.objects.create(user=user, language=language, time_zone=zone)


@pytest.fixture
def draws(monkeypatch):
    drawn, read = [], []
    draw, event_rows = live.draw, live.event_rows

    def counting_draw(event, audience, rows):
        zone = timezone.get_current_timezone_name()
        drawn.append((event.seq, audience, translation.get_language(), zone))
        return draw(event, audience, rows)

    def counting_rows(event, *held):
        read.append(event.seq)
        return event_rows(event, *held)

    monkeypatch.setattr(live, "draw", counting_draw)
    monkeypatch.setattr(live, "event_rows", counting_rows)
    return drawn, read


async def test_an_event_is_drawn_once_per_audience_and_reader_not_per_socket(
    connect, momenta_campaign, gm, cogm, player, player2, observer, readers, draws, monkeypatch
):
    sockets = {}
    for user in (gm, cogm, player, player2, observer):
        socket, accepted, _ = await connect(user, momenta_campaign)
        assert accepted
        await socket.ready()
        sockets[user.username] = socket
    # Each socket takes its frame from the hub: none reads the log itself.
    own_reads = []
    events_after = frames.events_after
    monkeypatch.setattr(
        frames, "events_after", lambda *a, **k: own_reads.append(a) or events_after(*a, **k)
    )
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "one roll"})
    for socket in sockets.values():
        await socket.until(lambda m: m.get("seq") == event.seq)
    drawn, read = draws
    assert sorted(drawn) == [
        (event.seq, "all", "de", BERLIN),  # player and observer: one draw
        (event.seq, "all", "fr", NEW_YORK),
        (event.seq, "gm", "en", "UTC"),  # both GMs
    ]
    assert read == [event.seq]  # what it shows is read once for all three
    assert own_reads == []
    when = event.created_at
    assert log_time(sockets["player"].html[event.seq]) == local_hhmm(when, BERLIN)
    assert log_time(sockets["observer"].html[event.seq]) == local_hhmm(when, BERLIN)
    assert log_time(sockets["player2"].html[event.seq]) == local_hhmm(when, NEW_YORK)
    assert log_time(sockets["gm"].html[event.seq]) == local_hhmm(when, "UTC")


async def test_a_replay_is_drawn_for_the_reconnecting_persons_reader(
    connect, momenta_campaign, gm, player2, readers, draws
):
    event = await acommit_event(momenta_campaign.pk, gm, payload={"summary": "missed"})
    socket, _, _ = await connect(player2, momenta_campaign, after=event.seq - 1)
    await socket.ready()
    assert log_time(socket.html[event.seq]) == local_hhmm(event.created_at, NEW_YORK)
    assert draws[0] == [(event.seq, "all", "fr", NEW_YORK)]


def scope(user, accept_language=b""):
    return {"user": user, "session": {}, "headers": [(b"accept-language", accept_language)]}


@pytest.mark.django_db
def test_a_socket_without_a_chosen_language_reads_the_handshakes_accept_language(
    momenta_campaign, player
):
    Campaign.objects.filter(pk=momenta_campaign.pk).update(time_zone=BERLIN)
    assert socket_reader(scope(player, b"es-ES,es;q=0.9"), momenta_campaign.pk) == Reader(
        "es", BERLIN
    )
    assert socket_reader(scope(player, b"ja"), momenta_campaign.pk) == Reader("en", BERLIN)


def test_a_socket_with_a_chosen_language_and_zone_keeps_them(momenta_campaign, player):
    PersonSettings.objects.create(user=player, language="fr", time_zone=NEW_YORK)
    assert socket_reader(scope(player, b"de"), momenta_campaign.pk) == Reader("fr", NEW_YORK)

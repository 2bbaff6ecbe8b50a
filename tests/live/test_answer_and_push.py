"""A command's answer and the live push draw the same event, each read as it is now.

TB-01 the actor's page updates from its command's answer; every other page by push.
TB-03 a secret roll reaches GMs only: not a player's socket, not a player's answer.
Event N is drawn as it was just after N (live/frames.py); event N+1 pushes what is newer.
"""

import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from rules.dice import FixedDice
from tables.live import frames
from tables.live import render as live
from tables.models import Character, MomentaRoll
from tables.presenters.table import ALL, GM
from tables.services import momenta, sessions

from .conftest import commit_event

HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "composer"}


def card_value(html: str, character: Character, pool: str) -> str | None:
    """What `character`'s card in `html` shows for `pool`, None without that card."""
    card = re.search(rf'<article[^>]*id="character-{character.pk}".*?</article>', html, re.S)
    if card is None:
        return None
    found = re.search(rf'data-pool="{pool}">.*?"pool-value">(\d+)<', card.group(0), re.S)
    return found.group(1) if found else None


def roll_data(character, **extra):
    character.refresh_from_db()
    return {
        "character": character.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "modifiers": "",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
        **extra,
    }


@pytest.fixture
def dice(monkeypatch):
    faces = FixedDice([5, 5, 2, 3, 1, 4, 6] * 10)
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: faces)


@pytest.mark.django_db(transaction=True)
def test_after_a_concurrent_change_the_next_push_shows_the_new_value(momenta_campaign, gm, hero):
    """The contract of the render seam (live/frames.py): event N's frames show the state
    just after N, the same as the plain path drawn then; a replay of N still shows it, and
    the next event's push carries the newer state, so a page applying them in order ends
    current."""
    spent = commit_event(
        momenta_campaign.pk, gm, payload={"summary": "spent"}, changes=[("resolve", -1, "r", hero)]
    )
    for audience in (ALL, GM):
        plain = live.render_event_fragments(spent, audience)
        assert frames.fragment(spent, audience) == plain
        assert card_value(plain, hero, "resolve") == "2"
    rest = sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", 2, "rest", character_id=hero.pk)
    for audience in (ALL, GM):
        assert card_value(frames.fragment(spent, audience), hero, "resolve") == "2"  # a replay
        assert card_value(frames.fragment(rest, audience), hero, "resolve") == "4"


@pytest.mark.django_db(transaction=True)
async def test_the_roll_answer_and_every_socket_show_the_committed_pools(
    connect, momenta_campaign, gm, player, hero, client_for, dice
):
    await sync_to_async(sessions.start_session)(momenta_campaign.pk, gm)
    sockets = {}
    for user in (gm, player):
        sockets[user.username], _, _ = await connect(user, momenta_campaign)
        await sockets[user.username].ready()
    client = await sync_to_async(client_for)("player")
    data = await sync_to_async(roll_data)(hero, advantage_sources="boon")
    url = reverse("momenta_roll", args=[momenta_campaign.pk])
    answer = (await sync_to_async(client.post)(url, data, **HX)).content.decode()
    made = await sync_to_async(MomentaRoll.objects.select_related("event").get)()
    await sync_to_async(hero.refresh_from_db)()
    seq = made.event.seq
    # The roller's own page needs no socket: the answer carries the card and the pools.
    assert f'id="event-{seq}"' in answer and 'id="pools"' in answer
    assert card_value(answer, hero, "momentum") == str(hero.momentum)
    assert card_value(answer, hero, "resolve") == str(hero.resolve)
    for socket in sockets.values():
        await socket.until(lambda m: m.get("seq") == seq)
        assert card_value(socket.html[seq], hero, "momentum") == str(hero.momentum)
    # The players' push is the answer's own fragments: one drawing of the same state.
    assert answer.endswith(sockets["player"].html[seq])


@pytest.mark.django_db(transaction=True)
async def test_tb_03_a_gm_secret_roll_reaches_no_player_socket_and_no_player_answer(
    connect, momenta_campaign, gm, player, hero, client_for, dice
):
    await sync_to_async(sessions.start_session)(momenta_campaign.pk, gm)
    sockets = {}
    for user in (gm, player):
        sockets[user.username], _, _ = await connect(user, momenta_campaign)
        await sockets[user.username].ready()
    url = reverse("momenta_roll", args=[momenta_campaign.pk])
    gm_client = await sync_to_async(client_for)("gm")
    data = await sync_to_async(roll_data)(hero, secret="on")
    gm_answer = (await sync_to_async(gm_client.post)(url, data, **HX)).content.decode()
    hidden = await sync_to_async(MomentaRoll.objects.select_related("event").get)()
    assert hidden.secret and f'id="event-{hidden.event.seq}"' in gm_answer
    await sockets["gm"].until(lambda m: m.get("seq") == hidden.event.seq)
    assert await sockets["player"].no_events()

    # The player's next answer, drawn after the secret roll, leaves it out too.
    player_client = await sync_to_async(client_for)("player")
    data = await sync_to_async(roll_data)(hero)
    answer = (await sync_to_async(player_client.post)(url, data, **HX)).content.decode()
    assert 'role="alert"' not in answer
    assert f'id="event-{hidden.event.seq}"' not in answer
    assert f'data-momenta-roll="{hidden.pk}"' not in answer
    played = await sync_to_async(MomentaRoll.objects.select_related("event").latest)("pk")
    message = await sockets["player"].until(lambda m: m.get("seq") == played.event.seq)
    assert message["prev"] < hidden.event.seq
    assert f'id="event-{hidden.event.seq}"' not in "".join(sockets["player"].html.values())

"""Deny by default over the sockets (issue 34, TB-03, MO-09b): with every secret of
tests/secrets_in_play.py made while a player and an observer watch both tables, and
replayed to sockets that open afterwards, no frame they get carries a secret's text or
id. The GM's socket gets them (so the check sees what it looks for)."""

import json

import pytest
from channels.db import database_sync_to_async

from tables.services import sessions
from tests.secrets_in_play import leaks_in, put_secrets_in_play

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ("gm", "player", "observer")


async def _frames_until(socket, seq: int) -> str:
    """Every message the socket gets up to event `seq`, as one text."""
    seen = []
    await socket.until(lambda m: seen.append(json.dumps(m)) or m.get("seq") == seq)
    return "\n".join(seen)


async def test_no_socket_frame_shows_a_player_or_observer_what_the_gm_keeps(
    connect, momenta_campaign, d20_campaign, gm, player, player2, observer, hero, sidekick, kara
):
    users = {"gm": gm, "player": player, "observer": observer}
    campaigns = (momenta_campaign, d20_campaign)
    for campaign in campaigns:
        await database_sync_to_async(sessions.start_session)(campaign.pk, gm)
        await database_sync_to_async(sessions.start_scene)(campaign.pk, gm, "Opening")
    live = {}
    for role in ROLES:
        for campaign in campaigns:
            socket, accepted, _ = await connect(users[role], campaign)
            assert accepted
            await socket.ready()
            live[role, campaign.pk] = socket
    ids = await database_sync_to_async(put_secrets_in_play)(
        momenta_campaign, d20_campaign, gm=gm, player2=player2, hero=hero, sidekick=sidekick,
        kara=kara,
    )  # fmt: skip
    last = {
        c.pk: await acommit_event(c.pk, gm, payload={"summary": "The bell rings"})
        for c in campaigns
    }

    for (role, campaign_id), socket in live.items():
        pushed = await _frames_until(socket, last[campaign_id].seq)
        replayed, accepted, _ = await connect(users[role], campaign_id, after=0)
        assert accepted
        pushed += await _frames_until(replayed, last[campaign_id].seq)
        if role == "gm":
            assert leaks_in(pushed, ids), "the GM's frames carry the secrets"
        else:
            assert not leaks_in(pushed, ids), (role, campaign_id)

"""A whisper over the socket (issue 37): pushed to its sender, its recipient and the GMs
who may read it, each worded for them; another player's or an observer's socket sends no
frame at all (as for a message to the GM, test_table_talk.py), live and on replay.
"""

import pytest
from channels.db import database_sync_to_async

from tables.live import render as live
from tables.models import Campaign, Membership
from tables.services import talk
from tests.conftest import make_user

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

say = database_sync_to_async(talk.post_talk)


@database_sync_to_async
def third_player(campaign):
    user = make_user("player3")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


@database_sync_to_async
def keep_whispers_from_gms(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(gm_reads_whispers=False)


@pytest.mark.parametrize("gms_read", [True, False])
async def test_a_whisper_reaches_its_two_people_and_the_gms_who_read_it_and_no_other_socket(
    connect, momenta_campaign, gms_read, gm, cogm, player, player2, observer
):
    player3 = await third_player(momenta_campaign)
    if not gms_read:
        await keep_whispers_from_gms(momenta_campaign)
    sockets = {}
    for user in (gm, cogm, player, player2, player3, observer):
        sockets[user.username], *_ = await connect(user, momenta_campaign)
    starts = {name: (await s.ready())["seq"] for name, s in sockets.items()}

    whisper = await say(
        momenta_campaign.pk, player, talk.WHISPER, "Meet at the mill", recipient_id=player2.pk
    )
    public = await say(momenta_campaign.pk, gm, talk.IN_CHARACTER, "The bell tolls")

    lines = {
        "player": "To player2 (whisper)",
        "player2": "player whispers to you",
        "gm": "player whispers to player2",
        "cogm": "player whispers to player2",
    }
    readers = ["player", "player2"] + (["gm", "cogm"] if gms_read else [])
    for name in readers:
        await sockets[name].until(lambda m: m.get("seq") == public.seq)
        assert sockets[name].seqs() == [whisper.seq, public.seq], name
        html = sockets[name].html[whisper.seq]
        assert "Meet at the mill" in html and lines[name] in html, name
        assert sockets[name].chained_from(starts[name]), name
    for name in sorted(set(sockets) - set(readers)):
        socket = sockets[name]
        message = await socket.until(lambda m: m.get("seq") == public.seq)
        assert socket.seqs() == [public.seq] and message["prev"] == starts[name], name
        assert "Meet at the mill" not in "".join(socket.html.values()), name
        assert "whisper" not in socket.html[public.seq].casefold(), name


async def test_replay_after_reconnecting_keeps_a_whisper_to_its_two_people(
    connect, momenta_campaign, gm, player, player2
):
    player3 = await third_player(momenta_campaign)
    await keep_whispers_from_gms(momenta_campaign)
    start = await database_sync_to_async(live.head_seq)(momenta_campaign.pk)
    whisper = await say(
        momenta_campaign.pk, player2, talk.WHISPER, "while they were away", recipient_id=player.pk
    )
    public = await acommit_event(momenta_campaign.pk, gm, "note", payload={"text": "back"})

    for user in (player3, gm):
        other, *_ = await connect(user, momenta_campaign, after=start)
        await other.ready()
        assert other.seqs() == [public.seq] and other.prev[public.seq] == start, user
        assert "while they were away" not in "".join(other.html.values()), user

    recipient, *_ = await connect(player, momenta_campaign, after=start)
    await recipient.ready()
    assert recipient.seqs() == [whisper.seq, public.seq] and recipient.chained_from(start)
    assert "player2 whispers to you" in recipient.html[whisper.seq]

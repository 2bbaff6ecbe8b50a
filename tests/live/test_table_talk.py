"""Table talk over the socket (issue 15): a message to the GM is pushed per person.

The GMs' sockets and the sender's own get it; another player's socket sends no frame
at all, as for a secret roll (TB-03, test_secret_timing.py), and its next frame says
which event it follows (`prev`), so the page neither waits for the gap nor learns of it.
"""

import pytest
from channels.db import database_sync_to_async

from tables.live import render as live
from tables.services import talk

from .conftest import acommit_event

pytestmark = pytest.mark.django_db(transaction=True)

say = database_sync_to_async(talk.post_talk)


async def test_a_private_message_reaches_the_gms_and_the_sender_and_no_other_player(
    connect, momenta_campaign, gm, cogm, player, player2, observer
):
    sockets = {}
    for user in (gm, cogm, player, player2, observer):
        sockets[user.username], *_ = await connect(user, momenta_campaign)
    starts = {name: (await s.ready())["seq"] for name, s in sockets.items()}
    start = starts["player2"]

    private = await say(momenta_campaign.pk, player, talk.TO_GM, "I palm the ruby")
    public = await say(momenta_campaign.pk, gm, talk.IN_CHARACTER, "The guard turns")

    for name in ("gm", "cogm", "player"):
        await sockets[name].until(lambda m: m.get("seq") == public.seq)
        assert sockets[name].seqs() == [private.seq, public.seq], name
        assert "I palm the ruby" in sockets[name].html[private.seq], name
        assert sockets[name].chained_from(start), name
    for name in ("player2", "observer"):
        socket = sockets[name]
        message = await socket.until(lambda m: m.get("seq") == public.seq)
        # No frame for the private message; the next one covers it.
        assert socket.seqs() == [public.seq] and message["prev"] == start, name
        assert "I palm the ruby" not in "".join(socket.html.values()), name
        assert "The guard turns" in socket.html[public.seq], name
        # The heartbeat's answer names the public event, never the private one's seq alone.
        assert await socket.sync() == public.seq, name


async def test_a_private_message_as_the_last_event_tells_other_players_nothing(
    connect, momenta_campaign, gm, player, player2
):
    sender, *_ = await connect(player, momenta_campaign)
    other, *_ = await connect(player2, momenta_campaign)
    await sender.ready()
    start = (await other.ready())["seq"]
    private = await say(momenta_campaign.pk, player, talk.TO_GM, "Only you")
    await sender.until(lambda m: m.get("seq") == private.seq)
    assert await other.no_events()
    assert await other.sync() == start  # not even a cursor past it
    assert other.stream == []


async def test_every_socket_of_the_sender_gets_it(connect, momenta_campaign, player, player2):
    """Two tabs of the sender share the hub's frame with a third player's socket."""
    tab1, *_ = await connect(player, momenta_campaign)
    tab2, *_ = await connect(player, momenta_campaign)
    other, *_ = await connect(player2, momenta_campaign)
    for socket in (tab1, tab2, other):
        await socket.ready()
    private = await say(momenta_campaign.pk, player, talk.TO_GM, "two tabs")
    for tab in (tab1, tab2):
        await tab.until(lambda m: m.get("seq") == private.seq)
        assert "two tabs" in tab.html[private.seq]
    assert await other.no_events() and other.stream == []


async def test_replay_after_reconnecting_keeps_a_private_message_to_its_sender(
    connect, momenta_campaign, gm, player, player2
):
    start = await database_sync_to_async(live.head_seq)(momenta_campaign.pk)
    private = await say(momenta_campaign.pk, player, talk.TO_GM, "while you were away")
    public = await acommit_event(momenta_campaign.pk, gm, "note", payload={"text": "back"})

    other, *_ = await connect(player2, momenta_campaign, after=start)
    ready = await other.ready()
    assert other.seqs() == [public.seq] and other.prev[public.seq] == start
    assert ready["seq"] == public.seq
    assert "while you were away" not in other.html[public.seq]

    sender, *_ = await connect(player, momenta_campaign, after=start)
    await sender.ready()
    assert sender.seqs() == [private.seq, public.seq] and sender.chained_from(start)
    assert "while you were away" in sender.html[private.seq]

    gm_socket, *_ = await connect(gm, momenta_campaign, after=start)
    await gm_socket.ready()
    assert gm_socket.seqs() == [private.seq, public.seq]

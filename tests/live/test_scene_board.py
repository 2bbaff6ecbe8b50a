"""The scene board on the sockets (issue 23, MO-09b): pushed per audience, and a hidden
trait never in a player's frames until the GM reveals it."""

import pytest
from channels.db import database_sync_to_async

from rules.dice import FixedDice
from tables.services import d20 as services_d20
from tables.services import scene_board

pytestmark = pytest.mark.django_db(transaction=True)


async def test_mo_09b_a_hidden_trait_never_reaches_a_players_socket_and_appears_on_reveal(
    connect, d20_campaign, gm, player, observer
):
    gm_socket, *_ = await connect(gm, d20_campaign)
    player_socket, *_ = await connect(player, d20_campaign)
    observer_socket, *_ = await connect(observer, d20_campaign)
    for socket in (gm_socket, player_socket, observer_socket):
        await socket.ready()

    add = database_sync_to_async(scene_board.add_trait)
    hidden = await add(d20_campaign.pk, gm, "Ambush in the alley", hidden=True)
    public = await add(d20_campaign.pk, gm, "Heavy rain")
    await gm_socket.until(lambda m: m.get("seq") == public.seq)
    for socket in (player_socket, observer_socket):
        await socket.until(lambda m: m.get("seq") == public.seq)
        frames = "".join(socket.html.values())
        assert "Ambush in the alley" not in frames
        assert 'id="scene-board"' in socket.html[public.seq] and "Heavy rain" in frames
        assert hidden.seq not in socket.html  # the cursor passes it, nothing of it is sent
    gm_board = gm_socket.html[public.seq]
    assert "Ambush in the alley" in gm_board and "hidden from players" in gm_board

    reveal = database_sync_to_async(scene_board.reveal_trait)
    shown = await reveal(d20_campaign.pk, gm, hidden.payload["trait_id"])
    await player_socket.until(lambda m: m.get("seq") == shown.seq)
    assert "Ambush in the alley" in player_socket.html[shown.seq]


async def test_mo_09_a_create_trait_spend_pushes_the_board_to_everyone(
    connect, d20_campaign, gm, player, player2, kara
):
    sockets = [(await connect(who, d20_campaign))[0] for who in (gm, player, player2)]
    for socket in sockets:
        await socket.ready()

    def spend():
        test = services_d20.roll_d20_test(
            d20_campaign.pk,
            player,
            kara.pk,
            services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
            rng=FixedDice([1, 1]),
        )
        plain = services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "obtain_information", note="Who?"
        )
        trait = services_d20.spend_momentum(
            d20_campaign.pk, player, test.pk, "create_trait", note="The guards are Distracted"
        )
        return test, plain, trait

    test, plain, made = await database_sync_to_async(spend)()
    for socket in sockets:
        await socket.until(lambda m: m.get("seq") == made.seq)
        board = socket.html[made.seq].split('id="scene-board"', 1)
        assert len(board) == 2 and "The guards are Distracted" in board[1]
        # The composers' trait list comes with it, so the next roll can lean on it.
        assert 'id="composer-traits" class="composer-traits" hx-swap-oob="true"' in board[1]
        assert 'name="hinders"' in board[1]
        # A spend that leaves the board alone does not push it, and a roll never does.
        assert 'id="scene-board"' not in socket.html[plain.seq]
        assert 'id="scene-board"' not in socket.html[test.event.seq]

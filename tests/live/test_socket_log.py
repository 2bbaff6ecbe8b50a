"""A table page's socket in the operator's log (issue 27): a line when it opens and one
when it ends, each with the socket's id and its user; a refused socket, one line."""

from __future__ import annotations

import pytest

from tables.live.consumers import REFUSED
from tests.site_log import site_log  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_socket_logs_its_opening_and_its_end_with_its_id_and_user(
    site_log,  # noqa: F811
    connect,
    momenta_campaign,
    player,
):
    log = site_log(json_lines=True)
    socket, accepted, _ = await connect(player, momenta_campaign)
    assert accepted
    await socket.ready()
    await socket.close()

    opened, closed = log.named("momenta.sockets")
    path = f"/ws/campaigns/{momenta_campaign.pk}/"
    assert opened["message"] == f"socket open {path}"
    assert closed["message"].startswith(f"socket closed {path} code=")
    assert opened["user_id"] == closed["user_id"] == player.pk
    assert opened["request_id"] and opened["request_id"] == closed["request_id"]


async def test_a_refused_socket_is_one_line_with_its_close_code(
    site_log,  # noqa: F811
    connect,
    momenta_campaign,
    outsider,
):
    log = site_log(json_lines=True)
    _, accepted, code = await connect(outsider, momenta_campaign)
    assert not accepted and code == REFUSED
    (line,) = log.named("momenta.sockets")
    assert line["message"] == f"socket refused /ws/campaigns/{momenta_campaign.pk}/ code={REFUSED}"
    assert line["user_id"] == outsider.pk and line["code"] == REFUSED

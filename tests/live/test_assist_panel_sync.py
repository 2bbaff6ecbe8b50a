"""A player's "Use an Assist" panel follows a renamed or new character live (issue 10).

The panel (momenta_assists.html) is one person's, never pushed: a marker in the players'
push makes a page whose copy is older than the event fetch it again (live_sync.html). It
names helpers and rollers (PM-08), so a rename must send the marker; a plain roll without
an Assist, or a sheet edit that keeps the name, changes nothing it shows and must not make
every player's page fetch it.
"""

import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from tables.services import momenta
from tables.services.characters import Sheet, save_character

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true"}


def sync_marker(html: str) -> str:
    """The pushed Assist-panel marker ('' if the push has none)."""
    found = re.search(r'<span id="live-sync-assists"[^>]*hx-swap-oob="true"[^>]*>', html)
    return found.group(0) if found else ""


async def pushed(socket, event) -> str:
    await socket.until(lambda m: m.get("seq") == event.seq)
    return socket.html[event.seq]


async def test_pm_08_renaming_the_roller_makes_the_helpers_assist_panel_fetch_itself(
    connect, momenta_campaign, gm, player, player2, hero, sidekick, client_for
):
    pk = momenta_campaign.pk
    asked = await database_sync_to_async(momenta.request_assist)(pk, player, hero.pk, sidekick.pk)
    panel_url = reverse("momenta_assists", args=[pk])
    helper_client = await database_sync_to_async(client_for)("player2")
    before = await database_sync_to_async(helper_client.get)(panel_url, **HX)
    assert f'id="assist-{asked.pk}"' in before.content.decode()
    assert "Bo → Ash" in before.content.decode()
    helper_socket, *_ = await connect(player2, momenta_campaign)
    gm_socket, *_ = await connect(gm, momenta_campaign)
    await helper_socket.ready()
    await gm_socket.ready()

    renamed = await database_sync_to_async(save_character)(
        pk, player, Sheet(fields={"name": "Ashe", "notes": ""}), hero.pk
    )
    event = await database_sync_to_async(lambda: renamed.campaign.events.latest("seq"))()
    assert event.kind == "character_updated"

    marker = sync_marker(await pushed(helper_socket, event))
    assert f'hx-get="{panel_url}"' in marker and f"dataset.seq < {event.seq}]" in marker
    # The GMs answer in the queue, which their push carries whole: no marker for them.
    gm_html = await pushed(gm_socket, event)
    assert sync_marker(gm_html) == "" and 'id="momenta-assist-queue"' in gm_html
    # What the marker fetches shows the new name.
    after = await database_sync_to_async(helper_client.get)(panel_url, **HX)
    assert "Bo → Ashe" in after.content.decode()


async def test_a_plain_roll_or_a_sheet_edit_keeping_the_name_sends_no_assist_marker(
    connect, momenta_campaign, player, player2, hero, sidekick, d6_faces
):
    pk = momenta_campaign.pk
    await database_sync_to_async(momenta.request_assist)(pk, player, hero.pk, sidekick.pk)
    helper_socket, *_ = await connect(player2, momenta_campaign)
    await helper_socket.ready()

    d6_faces([6, 1, 2])
    plain = await database_sync_to_async(momenta.roll_momenta)(
        pk, player, hero.pk, momenta.RollRequest(attribute="GRIT")
    )
    html = await pushed(helper_socket, plain.event)
    assert f'id="event-{plain.event.seq}"' in html  # the roll did reach the page
    assert sync_marker(html) == ""

    await database_sync_to_async(save_character)(
        pk, player, Sheet(fields={"name": "Ash", "notes": "Limps"}), hero.pk
    )
    edited = await database_sync_to_async(lambda: hero.campaign.events.latest("seq"))()
    assert edited.kind == "character_updated"
    assert sync_marker(await pushed(helper_socket, edited)) == ""


async def test_pm_08_a_new_character_makes_the_assist_panel_fetch_itself_to_offer_it(
    connect, momenta_campaign, player, player2, client_for
):
    """The panel's form offers every character as helper or roller: a new one is offered
    after the marker's fetch, not only after the next Assist or a reload."""
    pk = momenta_campaign.pk
    panel_url = reverse("momenta_assists", args=[pk])
    watcher = await database_sync_to_async(client_for)("player2")
    before = await database_sync_to_async(watcher.get)(panel_url, **HX)
    assert "Cass" not in before.content.decode()
    socket, *_ = await connect(player2, momenta_campaign)
    await socket.ready()

    made = await database_sync_to_async(save_character)(
        pk, player, Sheet(fields={"name": "Cass", "notes": "", "resolve_max": 4})
    )
    event = await database_sync_to_async(lambda: made.campaign.events.latest("seq"))()
    assert event.kind == "character_created"
    marker = sync_marker(await pushed(socket, event))
    assert f'hx-get="{panel_url}"' in marker and f"dataset.seq < {event.seq}]" in marker
    after = await database_sync_to_async(watcher.get)(panel_url, **HX)
    assert f'<option value="{made.pk}">Cass</option>' in after.content.decode()

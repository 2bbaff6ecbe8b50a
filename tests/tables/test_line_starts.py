"""GL-07: session and adventure starts at the table, ledgered like any pool change.

Conan (a Modiphius forum answer on the Conan rules, "Each Session starting tokens"): a
session starts with group Momentum 0 and Doom the sum of the player characters' Fortune,
a setting on by default. STA (STA core rulebook, the Gamemaster chapter, Threat): an
adventure starts with 2 Threat per player character; ruling GL-R2, the GM's "New
mission" starts one and sets Threat to that, a setting on by default."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tables.live import render
from tables.live.render import render_event_fragments
from tables.models import Campaign, Character, PoolChange, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import game_lines as services
from tables.services import sessions
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _on(campaign, key, **settings):
    Campaign.objects.filter(pk=campaign.pk).update(
        game_line=key, group_momentum=4, threat=9, **settings
    )
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def heroes(d20_campaign, kara, marcus, player2):
    """Two player characters (Kara, Zeno) and an NPC (Marcus), whose pools never count."""
    zeno = Character.objects.create(campaign=d20_campaign, owner=player2, name="Zeno")
    Character.objects.filter(pk=marcus.pk).update(determination=5)
    return kara, zeno


def test_gl_07_conan_session_start_sets_momentum_0_and_doom_to_the_fortune(
    d20_campaign, gm, heroes
):
    """GL-07 (Modiphius forum answer): (4, 9) before, (0, 6) after: each Fortune is set
    to 3 first (GL-02), then Doom is their sum; the NPC's Fortune does not count."""
    _on(d20_campaign, "conan")
    sessions.start_session(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (0, 6)
    momentum = PoolChange.objects.get(pool="group_momentum")
    doom = PoolChange.objects.get(pool="threat")
    assert (momentum.delta, momentum.after) == (-4, 0)
    assert (doom.delta, doom.after) == (-3, 6) and "Doom set to" in doom.reason


def test_gl_07_conan_doom_at_session_start_reaches_only_the_gm_while_hidden(
    d20_campaign, gm, heroes
):
    """MO-13 with GL-07: the session's card is everyone's, the Doom it set the GM's."""
    _on(d20_campaign, "conan")
    sessions.start_session(d20_campaign.pk, gm)
    started = TableEvent.objects.get(kind="session_started")
    assert started.audience == TableEvent.Audience.ALL
    assert all(c["pool"] != "threat" for c in started.payload["changes"])
    doom = TableEvent.objects.get(kind="pool_adjusted")
    assert doom.audience == TableEvent.Audience.GM
    assert [c["after"] for c in doom.payload["changes"]] == [6]
    # Live (TB-01): the GMs' pools redraw with the new Doom; the players' socket skips it.
    drawn = render_event_fragments(doom, GM)
    assert '<span class="pool-label">Doom</span> <span class="pool-value">6</span>' in drawn
    assert not render.visible(doom, ALL, None)


def test_gl_07_conan_session_start_setting_off_carries_the_pools_over(d20_campaign, gm, heroes):
    """GL-07's setting off: Momentum and Doom stay as the last session left them."""
    _on(d20_campaign, "conan", session_start_from_fortune=False)
    sessions.start_session(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (4, 9)
    assert not PoolChange.objects.filter(pool__in=["group_momentum", "threat"]).exists()


@pytest.mark.parametrize("key", ["sta1", "sta2", "achtung", "seeds"])
def test_gl_07_other_lines_session_start_leaves_momentum_and_threat(d20_campaign, gm, heroes, key):
    _on(d20_campaign, key)
    sessions.start_session(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (4, 9)


@pytest.mark.parametrize("key", ["sta1", "sta2"])
def test_gl_07_sta_new_mission_sets_threat_to_2_per_player_character(d20_campaign, gm, heroes, key):
    """GL-07 (STA core, the Gamemaster chapter, Threat), ruling GL-R2: 9 Threat left
    from the last mission, two player characters and an NPC: Threat is 4, ledgered, in
    an event only the GM sees while Threat is hidden; group Momentum stays."""
    _on(d20_campaign, key)
    event = services.start_new_adventure(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert (d20_campaign.group_momentum, d20_campaign.threat) == (4, 4)
    line = PoolChange.objects.get(pool="threat")
    assert (line.delta, line.after) == (-5, 4) and "New mission" in line.reason
    assert event.audience == TableEvent.Audience.GM and event.payload["pool"] == "threat"


def test_gl_07_sta_new_mission_threat_is_public_when_threat_is_shown(d20_campaign, gm, heroes):
    _on(d20_campaign, "sta2", threat_visible=True)
    services.start_new_adventure(d20_campaign.pk, gm)
    threat = TableEvent.objects.get(kind="pool_adjusted", payload__pool="threat")
    assert threat.audience == TableEvent.Audience.ALL


def test_gl_07_sta1_new_mission_leaves_determination_which_refills_each_session(
    d20_campaign, gm, heroes
):
    """STA 1st ed.: Determination is the session's (GL-02); the mission sets Threat only."""
    kara, zeno = heroes
    _on(d20_campaign, "sta1")
    Character.objects.filter(pk=kara.pk).update(determination=3)
    services.start_new_adventure(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.determination == 3
    assert not PoolChange.objects.filter(pool="determination").exists()


def test_gl_07_a_player_cannot_start_a_mission(d20_campaign, player, heroes, client_for):
    _on(d20_campaign, "sta1")
    with pytest.raises(PermissionDenied):
        services.start_new_adventure(d20_campaign.pk, player)
    url = reverse("new_adventure", args=[d20_campaign.pk])
    assert client_for("player").post(url, **HX).status_code == 403
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 9 and not PoolChange.objects.exists()


def test_gl_07_setting_off_sta1_has_no_mission_and_sta2_only_refills(d20_campaign, gm, heroes):
    """GL-R2's setting off: Threat carries over; STA 1e's mission would change nothing,
    so it is refused; STA 2e's still refills Determination (GL-02)."""
    _on(d20_campaign, "sta1", mission_sets_threat=False)
    with pytest.raises(ServiceError, match="not refilled by a new mission"):
        services.start_new_adventure(d20_campaign.pk, gm)
    _on(d20_campaign, "sta2", mission_sets_threat=False)
    services.start_new_adventure(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 9
    assert not PoolChange.objects.filter(pool="threat").exists()
    assert PoolChange.objects.filter(pool="determination").count() == 2


def test_gl_07_the_gm_panel_starts_a_mission_that_sets_threat(d20_campaign, heroes, client_for):
    _on(d20_campaign, "sta2")
    url = reverse("new_adventure", args=[d20_campaign.pk])
    body = client_for("gm").post(url, **HX).content.decode()
    assert 'id="gm-panel"' in body and "set to 2 per player character" in body
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 4

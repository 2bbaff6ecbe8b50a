"""Services for sessions, scenes, pools and membership: what they change and log."""

import pytest
from django.core.exceptions import PermissionDenied

from tables.models import Campaign, Character, Membership, PlaySession, PoolChange, TableEvent
from tables.services import campaigns, sessions
from tables.services.campaigns import InviteInvalid
from tables.services.characters import Sheet, SheetRows, save_character
from tables.services.core import ServiceError, StaleState


def _set(obj, **fields):
    type(obj).objects.filter(pk=obj.pk).update(**fields)
    obj.refresh_from_db()


# --- PM-01: a session starts everyone at 3 Momentum ------------------------------------


def test_pm_01_session_start_resets_every_characters_momentum_to_3(
    momenta_campaign, hero, sidekick, gm
):
    _set(hero, momentum=6)
    _set(sidekick, momentum=0)
    npc = Character.objects.create(campaign=momenta_campaign, owner=gm, name="Vex", is_npc=True)
    _set(npc, momentum=1)

    session = sessions.start_session(momenta_campaign.pk, gm)

    assert session.number == 1
    for character in (hero, sidekick, npc):
        character.refresh_from_db()
        assert character.momentum == 3


def test_pm_01_unspent_momentum_does_not_carry_over_and_each_reset_is_a_ledger_line(
    momenta_campaign, hero, sidekick, gm
):
    _set(hero, momentum=5)
    sessions.start_session(momenta_campaign.pk, gm)
    event = TableEvent.objects.get(kind="session_started")
    lines = {c.character.name: c for c in PoolChange.objects.filter(event=event)}
    assert set(lines) == {"Ash", "Bo"}
    assert (lines["Ash"].delta, lines["Ash"].after) == (-2, 3)
    assert (lines["Bo"].delta, lines["Bo"].after) == (0, 3)
    assert "PM-01" in lines["Ash"].reason
    assert event.payload["number"] == 1


def test_pm_01_next_session_ends_the_previous_one(momenta_campaign, gm):
    first = sessions.start_session(momenta_campaign.pk, gm)
    second = sessions.start_session(momenta_campaign.pk, gm)
    first.refresh_from_db()
    assert first.ended_at is not None
    assert second.number == 2 and second.ended_at is None
    assert PlaySession.objects.filter(campaign=momenta_campaign, ended_at=None).count() == 1


def test_session_start_in_group_economy_leaves_personal_momentum_alone(d20_campaign, kara, gm):
    _set(kara, momentum=5)
    sessions.start_session(d20_campaign.pk, gm)
    kara.refresh_from_db()
    assert kara.momentum == 5
    assert not PoolChange.objects.exists()


def test_player_cannot_start_a_session(momenta_campaign, player, hero):
    _set(hero, momentum=5)
    with pytest.raises(PermissionDenied):
        sessions.start_session(momenta_campaign.pk, player)
    hero.refresh_from_db()
    assert hero.momentum == 5
    assert not PlaySession.objects.exists()


# --- MO-07: the end of a scene takes 1 from the group pool ---------------------------------


def test_mo_07_scene_end_takes_one_from_the_group_pool(d20_campaign, gm):
    _set(d20_campaign, group_momentum=4)
    event = sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 3
    line = PoolChange.objects.get(event=event)
    assert (line.pool, line.delta, line.after) == ("group_momentum", -1, 3)
    assert "MO-07" in line.reason


def test_mo_07_scene_end_never_takes_the_pool_below_zero(d20_campaign, gm):
    event = sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 0
    assert event.kind == "scene_ended"
    assert not PoolChange.objects.exists()


def test_mo_07_every_scene_end_takes_one(d20_campaign, gm):
    _set(d20_campaign, group_momentum=2)
    for expected in (1, 0, 0):
        sessions.end_scene(d20_campaign.pk, gm)
        d20_campaign.refresh_from_db()
        assert d20_campaign.group_momentum == expected


def test_mo_10_scene_end_expires_temporary_assets_and_keeps_permanent_ones(d20_campaign, kara, gm):
    event = sessions.end_scene(d20_campaign.pk, gm)
    assert list(kara.assets.values_list("name", flat=True)) == ["Signet ring"]
    assert event.payload["expired_assets"] == [{"asset": "Quiet corner", "character": "Kara"}]


def test_scene_end_ends_the_open_scene_or_makes_one(d20_campaign, gm):
    opened = sessions.start_scene(d20_campaign.pk, gm, "The ball")
    sessions.end_scene(d20_campaign.pk, gm)
    opened.refresh_from_db()
    assert opened.ended_at is not None
    event = sessions.end_scene(d20_campaign.pk, gm)  # none open: made and ended
    assert event.payload["number"] == 2
    assert d20_campaign.scenes.filter(ended_at=None).count() == 0


def test_one_scene_at_a_time(d20_campaign, gm):
    sessions.start_session(d20_campaign.pk, gm)
    scene = sessions.start_scene(d20_campaign.pk, gm)
    assert scene.play_session.number == 1
    with pytest.raises(ServiceError, match="still running"):
        sessions.start_scene(d20_campaign.pk, gm)


def test_player_cannot_end_a_scene(d20_campaign, player):
    _set(d20_campaign, group_momentum=4)
    with pytest.raises(PermissionDenied):
        sessions.end_scene(d20_campaign.pk, player)
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 4


# --- GM pool adjustment --------------------------------------------------------------------


def test_gm_adjusts_a_character_pool_with_a_reason(momenta_campaign, hero, cogm):
    event = sessions.adjust_pool(
        momenta_campaign.pk, cogm, "momentum", 2, "Great idea", character_id=hero.pk
    )
    hero.refresh_from_db()
    assert hero.momentum == 5
    assert event.kind == "pool_adjusted"
    assert event.payload["changes"][0]["reason"] == "Great idea"


def test_pm_04_adjust_over_the_cap_logs_what_is_lost(momenta_campaign, hero, gm):
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 5, "windfall", character_id=hero.pk)
    line = PoolChange.objects.get()
    assert (line.delta, line.after, line.lost) == (3, 6, 2)


def test_mo_06_group_pool_never_exceeds_6(d20_campaign, gm):
    _set(d20_campaign, group_momentum=5)
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 3, "gift")
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 6
    assert PoolChange.objects.get().lost == 2


@pytest.mark.parametrize("who", ["player", "player2", "observer", "outsider"])
def test_only_gms_adjust_pools(request, d20_campaign, who):
    actor = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        sessions.adjust_pool(d20_campaign.pk, actor, "threat", 1, "mine now")
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 0


def test_adjust_below_zero_is_refused(d20_campaign, gm):
    with pytest.raises(ServiceError, match="Not enough"):
        sessions.adjust_pool(d20_campaign.pk, gm, "threat", -1, "spend")


def test_adjust_with_a_stale_expected_value_is_refused(d20_campaign, gm):
    _set(d20_campaign, threat=4)
    with pytest.raises(StaleState, match="your page showed 5"):
        sessions.adjust_pool(d20_campaign.pk, gm, "threat", -5, "spend", expected=5)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 4


def test_adjust_with_a_stale_expected_value_that_does_not_matter_goes_through(d20_campaign, gm):
    _set(d20_campaign, threat=4)
    sessions.adjust_pool(d20_campaign.pk, gm, "threat", -1, "spend", expected=5)
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 3


def test_mo_04_a_gain_that_would_now_spill_over_the_cap_is_refused(d20_campaign, gm):
    """The page showed 3 in the group pool (+2 fits); it holds 5 now, so 1 would be lost."""
    _set(d20_campaign, group_momentum=5)
    with pytest.raises(StaleState, match="1 of this gain would be lost beyond the cap"):
        sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "save", expected=3)
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 5


@pytest.mark.parametrize(
    "pool,delta,reason,message",
    [
        ("threat", 1, "", "reason"),
        ("threat", 0, "x", "0"),
        ("gold", 1, "x", "not one of"),
        ("momentum", 1, "x", "not one of"),  # a character pool without a character
    ],
)
def test_adjust_refuses_bad_commands(d20_campaign, gm, pool, delta, reason, message):
    with pytest.raises(ServiceError, match=message):
        sessions.adjust_pool(d20_campaign.pk, gm, pool, delta, reason)
    assert not TableEvent.objects.exists()


def test_adjust_refuses_a_character_of_another_campaign(momenta_campaign, d20_campaign, kara, gm):
    with pytest.raises(ServiceError, match="not in this campaign"):
        sessions.adjust_pool(momenta_campaign.pk, gm, "determination", 1, "x", character_id=kara.pk)


def test_mo_13_hidden_threat_changes_reach_only_the_gm(d20_campaign, gm):
    hidden = sessions.adjust_pool(d20_campaign.pk, gm, "threat", 2, "ominous")
    assert hidden.audience == TableEvent.Audience.GM
    _set(d20_campaign, threat_visible=True)
    shown = sessions.adjust_pool(d20_campaign.pk, gm, "threat", 1, "ominous")
    assert shown.audience == TableEvent.Audience.ALL


# --- Membership -------------------------------------------------------------------------------


def test_create_campaign_makes_the_creator_gm(outsider):
    campaign = campaigns.create_campaign(outsider, "  Dune  ", Campaign.Preset.D20)
    assert campaign.name == "Dune"
    assert (campaign.dice_system, campaign.economy) == ("d20", "group")
    assert Membership.objects.get(campaign=campaign).role == "gm"
    assert TableEvent.objects.get(campaign=campaign).kind == "campaign_created"


def test_join_and_events(momenta_campaign, outsider):
    campaigns.join_campaign(momenta_campaign.invite_token, outsider, "player")
    event = TableEvent.objects.get()
    assert (event.kind, event.payload["user"], event.audience) == (
        "member_joined",
        "outsider",
        "all",
    )


def test_join_twice_is_refused_without_a_duplicate(momenta_campaign, player):
    with pytest.raises(ServiceError, match="already"):
        campaigns.join_campaign(momenta_campaign.invite_token, player, "observer")
    assert momenta_campaign.memberships.filter(user=player).count() == 1


def test_join_with_a_bad_token_is_refused(momenta_campaign, outsider):
    with pytest.raises(InviteInvalid):
        campaigns.join_campaign("nope", outsider, "player")


def test_join_as_gm_is_refused(momenta_campaign, outsider):
    with pytest.raises(ServiceError):
        campaigns.join_campaign(momenta_campaign.invite_token, outsider, "gm")
    assert not Membership.objects.filter(user=outsider).exists()


def test_regenerate_invite_is_logged_for_the_gm_only_and_without_the_token(momenta_campaign, gm):
    token = campaigns.regenerate_invite(momenta_campaign.pk, gm)
    event = TableEvent.objects.get()
    assert (event.kind, event.audience) == ("invite_regenerated", "gm")
    assert token not in str(event.payload)
    with pytest.raises(InviteInvalid):
        campaigns.join_campaign(momenta_campaign.invite_token, gm, "player")


def test_remove_and_promote_are_logged(momenta_campaign, gm, player, player2):
    p2 = momenta_campaign.memberships.get(user=player2)
    p1 = momenta_campaign.memberships.get(user=player)
    campaigns.promote_member(momenta_campaign.pk, gm, p1.pk)
    campaigns.remove_member(momenta_campaign.pk, gm, p2.pk)
    kinds = list(TableEvent.objects.values_list("kind", flat=True))
    assert kinds == ["member_promoted", "member_removed"]
    assert momenta_campaign.memberships.get(user=player).role == "gm"


def test_removed_players_characters_stay_for_the_gm(momenta_campaign, hero, gm, player):
    campaigns.remove_member(
        momenta_campaign.pk, gm, momenta_campaign.memberships.get(user=player).pk
    )
    assert Character.objects.filter(pk=hero.pk).exists()


def test_co_gm_cannot_remove_the_owner(momenta_campaign, gm, cogm):
    with pytest.raises(ServiceError, match="owner"):
        campaigns.remove_member(
            momenta_campaign.pk, cogm, momenta_campaign.memberships.get(user=gm).pk
        )


def test_settings_service_refuses_unknown_fields(momenta_campaign, gm, player):
    with pytest.raises(ValueError):
        campaigns.update_campaign_settings(momenta_campaign.pk, gm, {"threat": 6})
    with pytest.raises(PermissionDenied):
        campaigns.update_campaign_settings(
            momenta_campaign.pk,
            Membership.objects.get(role="player", user__username="player").user,
            {"name": "Mine"},
        )


# --- Character sheets: the service takes plain values, never forms ----------------------


def _sheet(name="Cass", **fields):
    return Sheet(fields={"name": name, "notes": "", "resolve": 2, "resolve_max": 3} | fields)


def test_a_sheet_is_saved_from_plain_values_with_its_rows(momenta_campaign, player, gm):
    rows = SheetRows("attributes", save=((None, {"name": "WITS", "value": 3}),))
    cass = save_character(momenta_campaign.pk, player, Sheet(_sheet().fields, rows=(rows,)))
    # A player's new character starts with full Resolve, whatever the sheet says.
    assert (cass.owner, cass.is_npc, cass.resolve) == (player, False, 3)
    assert {a.name: a.value for a in cass.attributes.all()} == {"WITS": 3}
    vex = save_character(momenta_campaign.pk, gm, _sheet("Vex"))
    assert vex.is_npc and vex.owner == gm  # a GM's new character is an NPC
    assert TableEvent.objects.filter(kind="character_created").count() == 2


def test_a_sheet_edit_changes_only_the_pools_it_touched(momenta_campaign, hero, gm, player):
    """PM-13: a spend at the table meanwhile is kept; a touched pool is a ledger line."""
    sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "spent", character_id=hero.pk)
    # The GM's page showed Resolve 3 and Momentum 3; only Momentum was changed, to 5.
    fields = _sheet("Ash", resolve=3, resolve_max=4, momentum=5).fields
    save_character(momenta_campaign.pk, gm, Sheet(fields, touched={"momentum": 3}), hero.pk)
    hero.refresh_from_db()
    assert (hero.resolve, hero.momentum) == (2, 5)
    line = PoolChange.objects.get(reason="Sheet edited")
    assert (line.pool, line.delta, line.after) == ("momentum", 2, 5)


def test_a_sheet_edit_of_a_pool_that_moved_is_stale(momenta_campaign, hero, gm, player):
    sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "spent", character_id=hero.pk)
    events = TableEvent.objects.count()
    fields = _sheet("Ash", resolve=1, resolve_max=4).fields
    with pytest.raises(StaleState, match="Resolve changed to 2"):
        save_character(momenta_campaign.pk, player, Sheet(fields, touched={"resolve": 3}), hero.pk)
    assert TableEvent.objects.count() == events


def test_a_sheet_edit_is_refused_for_a_name_clash_resolve_above_max_or_another_owner(
    momenta_campaign, hero, sidekick, player, player2, gm
):
    with pytest.raises(ServiceError, match="already has a character named bo"):
        save_character(momenta_campaign.pk, player, _sheet("bo"), hero.pk)
    with pytest.raises(ServiceError, match="cannot be above its maximum"):
        save_character(momenta_campaign.pk, gm, _sheet("Ash", resolve=4), None)
    with pytest.raises(PermissionDenied):
        save_character(momenta_campaign.pk, player2, _sheet("Ash"), hero.pk)


def test_a_sheet_edit_cannot_touch_another_characters_rows(
    momenta_campaign, hero, sidekick, player
):
    theirs = sidekick.attributes.create(name="GRIT", value=2)
    rows = SheetRows("attributes", save=((theirs.pk, {"value": 9}),), delete=(theirs.pk,))
    fields = _sheet("Ash", notes="Limps").fields  # a real edit: an unchanged sheet is refused
    save_character(momenta_campaign.pk, player, Sheet(fields, rows=(rows,)), hero.pk)
    theirs.refresh_from_db()
    assert theirs.value == 2

"""Bad input: every form says what is wrong next to the field and changes nothing."""

import pytest
from django.urls import reverse

from tables.models import Attribute, Campaign, Character, Membership, PoolChange, TableEvent
from tables.services import sessions
from tests.tables.test_site_permissions import settings_data, sheet_data

pytestmark = pytest.mark.django_db

PW = "long-pass-987"


def _errors(response, field, form="form"):
    return response.context[form].errors.get(field, [])


# --- Campaigns ------------------------------------------------------------------


def test_create_campaign_momenta_preset_fills_dice_and_economy(client_for, gm):
    response = client_for("gm").post(reverse("campaign_new"), {"name": "Salt", "preset": "momenta"})
    campaign = Campaign.objects.get(name="Salt")
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert (campaign.dice_system, campaign.economy) == ("d6", "personal")
    assert campaign.owner == gm
    assert Membership.objects.get(campaign=campaign, user=gm).role == "gm"


def test_create_campaign_2d20_preset_fills_dice_and_economy(client_for):
    client_for("outsider").post(reverse("campaign_new"), {"name": "Dune", "preset": "2d20"})
    campaign = Campaign.objects.get(name="Dune")
    assert (campaign.dice_system, campaign.economy) == ("d20", "group")


@pytest.mark.parametrize(
    "data,field",
    [
        ({"name": "   ", "preset": "momenta"}, "name"),
        ({"name": "X", "preset": "poker"}, "preset"),
        ({"preset": "momenta"}, "name"),
    ],
)
def test_create_campaign_rejects_bad_input(client_for, gm, data, field):
    response = client_for("gm").post(reverse("campaign_new"), data)
    assert response.status_code == 200
    assert _errors(response, field)
    assert not Campaign.objects.exists()


def test_gm_edits_preset_choices_and_every_ruling(client_for, momenta_campaign):
    data = settings_data(
        momenta_campaign,
        dice_system="d20",
        economy="group",
        threat_visible="on",
        extra_success_stacks="",
        band_label_0="Ouch",
        band_label_3="Triumph",
        advantage_dice=2,
        disadvantage_dice=2,
        complication_range=3,
        assistance_needs_leader_success="",
        gm_momentum_to_threat="",
    )
    response = client_for("gm").post(reverse("campaign_settings", args=[momenta_campaign.pk]), data)
    assert response.status_code == 302
    c = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (c.dice_system, c.economy, c.threat_visible) == ("d20", "group", True)
    assert c.extra_success_stacks is False  # PAT-R1
    assert c.band_labels() == ("Ouch", "Success at a Cost", "Success", "Triumph")  # PAT-R2
    assert (c.advantage_dice, c.disadvantage_dice) == (2, 2)  # PM-R1
    assert c.complication_range == 3  # T-R1
    assert c.assistance_needs_leader_success is False  # T-03
    assert c.gm_momentum_to_threat is False  # CT-R1
    event = TableEvent.objects.get(campaign=c)
    assert event.kind == "settings_changed"
    assert event.payload["fields"]["complication_range"] == [1, 3]


def test_settings_page_shows_every_ruling_with_its_clause(client_for, momenta_campaign):
    body = client_for("gm").get(reverse("campaign_settings", args=[momenta_campaign.pk]))
    for clause in ("PAT-R1", "PAT-R2", "PM-R1", "T-R1", "T-03", "CT-R1"):
        assert clause in body.content.decode()


@pytest.mark.parametrize(
    "overrides,field",
    [
        ({"complication_range": 0}, "complication_range"),
        ({"complication_range": 21}, "complication_range"),
        ({"advantage_dice": -1}, "advantage_dice"),
        ({"disadvantage_dice": 9}, "disadvantage_dice"),
        ({"band_label_1": "  "}, "band_label_1"),
        ({"dice_system": "d100"}, "dice_system"),
        ({"economy": "barter"}, "economy"),
        ({"name": ""}, "name"),
    ],
)
def test_settings_reject_bad_values(client_for, momenta_campaign, overrides, field):
    url = reverse("campaign_settings", args=[momenta_campaign.pk])
    response = client_for("gm").post(url, settings_data(momenta_campaign, **overrides))
    assert response.status_code == 200
    assert _errors(response, field)
    fresh = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (fresh.complication_range, fresh.advantage_dice, fresh.band_label_1) == (
        1,
        1,
        "Success at a Cost",
    )
    assert not TableEvent.objects.exists()


def test_settings_saved_unchanged_append_no_event(client_for, momenta_campaign):
    url = reverse("campaign_settings", args=[momenta_campaign.pk])
    data = settings_data(momenta_campaign)
    client_for("gm").post(url, data)
    assert not TableEvent.objects.exists()


# --- Characters -------------------------------------------------------------------


def _rows(prefix, rows, initial=0):
    data = {f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": initial}
    for i, row in enumerate(rows):
        data |= {f"{prefix}-{i}-{k}": v for k, v in row.items()}
    return data


def test_player_creates_momenta_character_with_luck_and_threads(
    client_for, momenta_campaign, player
):
    data = sheet_data("Cass", resolve=2, resolve_max=3)
    data |= _rows("attributes", [{"name": "WITS", "value": 3}, {"name": "LUCK", "value": 2}])
    data |= _rows("threads", [{"kind": "thread", "text": "Owes the guild"}])
    response = client_for("player").post(reverse("character_new", args=[momenta_campaign.pk]), data)
    assert response.status_code == 302, response.context and response.context["form"].errors
    cass = Character.objects.get(name="Cass")
    assert cass.owner == player and not cass.is_npc
    assert {a.name: a.value for a in cass.attributes.all()} == {"WITS": 3, "LUCK": 2}
    assert [t.text for t in cass.traits.filter(kind="thread")] == ["Owes the guild"]
    # The pools are not the player's to set: Resolve starts full, Momentum at 3 (PM-01).
    assert (cass.resolve, cass.resolve_max, cass.momentum) == (3, 3, 3)
    assert TableEvent.objects.get().kind == "character_created"


def test_gm_creates_an_npc_owned_by_the_gm(client_for, momenta_campaign, gm):
    client_for("cogm").post(reverse("character_new", args=[momenta_campaign.pk]), sheet_data("Vex"))
    vex = Character.objects.get(name="Vex")
    assert vex.is_npc
    assert vex.owner.username == "cogm"


def test_player_creates_2d20_character_with_skills_focuses_traits_assets(client_for, d20_campaign):
    data = {"name": "Jess", "notes": "", "determination": 1}
    data |= _rows("attributes", [{"name": "Power", "value": 7}])
    data |= _rows("skills", [{"name": "Communicate", "value": 6}])
    data |= _rows(
        "traits",
        [{"kind": "focus", "text": "Persuasion"}, {"kind": "trait", "text": "Noble"}],
    )
    data |= _rows("assets", [{"name": "Dagger", "quality": 1, "permanent": "on"}])
    response = client_for("player").post(reverse("character_new", args=[d20_campaign.pk]), data)
    assert response.status_code == 302
    jess = Character.objects.get(name="Jess")
    assert jess.skills.get().name == "Communicate"
    assert sorted(jess.traits.values_list("kind", "text")) == [
        ("focus", "Persuasion"),
        ("trait", "Noble"),
    ]
    assert jess.assets.get().permanent
    assert jess.determination == 0  # a pool: the GM gives it, not the player's sheet


def _post_bad_sheet(client_for, campaign, data, role="player"):
    response = client_for(role).post(reverse("character_new", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert not Character.objects.filter(name=data["name"]).exists()
    assert not Attribute.objects.filter(character__name=data["name"]).exists()
    assert not TableEvent.objects.exists()
    return response


def test_negative_dice_are_refused_next_to_the_field(client_for, momenta_campaign):
    data = sheet_data("Cass") | _rows("attributes", [{"name": "WITS", "value": -1}])
    response = _post_bad_sheet(client_for, momenta_campaign, data)
    row = response.context["formsets"][0].forms[0]
    assert row.errors["value"]
    assert "greater than or equal to 0" in response.content.decode()


def test_too_many_dice_are_refused(client_for, momenta_campaign):
    data = sheet_data("Cass") | _rows("attributes", [{"name": "WITS", "value": 99}])
    response = _post_bad_sheet(client_for, momenta_campaign, data)
    assert response.context["formsets"][0].forms[0].errors["value"]


def test_attribute_without_a_name_is_refused(client_for, momenta_campaign):
    data = sheet_data("Cass") | _rows("attributes", [{"name": "", "value": 3}])
    response = _post_bad_sheet(client_for, momenta_campaign, data)
    assert response.context["formsets"][0].forms[0].errors["name"]


def test_blank_attribute_name_of_spaces_is_refused(client_for, momenta_campaign):
    data = sheet_data("Cass") | _rows("attributes", [{"name": "   ", "value": 3}])
    response = _post_bad_sheet(client_for, momenta_campaign, data)
    assert response.context["formsets"][0].forms[0].errors["name"]


def test_two_attributes_with_one_name_are_refused(client_for, momenta_campaign):
    rows = [{"name": "LUCK", "value": 3}, {"name": "luck", "value": 2}]
    data = sheet_data("Cass") | _rows("attributes", rows)
    response = _post_bad_sheet(client_for, momenta_campaign, data)
    assert "already" in str(response.context["formsets"][0].forms[1].errors["name"])


def test_resolve_above_max_is_refused(client_for, momenta_campaign):
    response = _post_bad_sheet(
        client_for, momenta_campaign, sheet_data("Cass", resolve=5, resolve_max=4), role="gm"
    )
    assert "above its maximum" in str(_errors(response, "resolve"))


def test_momentum_above_6_is_refused(client_for, momenta_campaign):
    response = _post_bad_sheet(
        client_for, momenta_campaign, sheet_data("Cass", momentum=7), role="gm"
    )
    assert _errors(response, "momentum")


def test_negative_determination_is_refused(client_for, d20_campaign):
    data = {"name": "Jess", "notes": "", "determination": -1}
    for prefix in ("attributes", "skills", "traits", "assets"):
        data |= _rows(prefix, [])
    response = _post_bad_sheet(client_for, d20_campaign, data, role="gm")
    assert _errors(response, "determination")


def test_duplicate_character_name_in_a_campaign_is_refused(client_for, momenta_campaign, hero):
    response = client_for("player2").post(
        reverse("character_new", args=[momenta_campaign.pk]), sheet_data("ash")
    )
    assert response.status_code == 400
    assert "already has a character named" in str(_errors(response, "name"))
    assert Character.objects.filter(campaign=momenta_campaign).count() == 1


def test_same_character_name_in_another_campaign_is_fine(client_for, d20_campaign, hero):
    data = {"name": "Ash", "notes": "", "determination": 0}
    for prefix in ("attributes", "skills", "traits", "assets"):
        data |= _rows(prefix, [])
    response = client_for("player").post(reverse("character_new", args=[d20_campaign.pk]), data)
    assert response.status_code == 302


def test_blank_extra_rows_are_ignored(client_for, momenta_campaign):
    rows = [{"name": "", "value": ""}, {"name": "", "value": ""}]
    threads = [{"kind": "thread", "text": ""}]
    data = sheet_data("Cass") | _rows("attributes", rows) | _rows("threads", threads)
    response = client_for("player").post(reverse("character_new", args=[momenta_campaign.pk]), data)
    assert response.status_code == 302
    assert not Character.objects.get(name="Cass").attributes.exists()


def _edit_data(character, **overrides):
    """What the edit page posts back: every field, with the shown pool values."""
    data = {
        "name": character.name,
        "notes": character.notes,
        "momentum": character.momentum,
        "resolve": character.resolve,
        "resolve_max": character.resolve_max,
        "initial-momentum": character.momentum,
        "initial-resolve": character.resolve,
    }
    attributes = list(character.attributes.all())
    data |= _rows(
        "attributes",
        [{"id": a.pk, "name": a.name, "value": a.value} for a in attributes],
        initial=len(attributes),
    )
    data |= _rows("threads", [])
    data.update(overrides)
    return data


def test_gm_edits_sheet_and_pool_change_is_a_ledger_line(client_for, momenta_campaign, hero):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    data = _edit_data(hero, resolve=4, **{"attributes-0-value": 5})
    response = client_for("gm").post(url, data)
    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.resolve == 4
    assert hero.attributes.get(name="GRIT").value == 5
    line = PoolChange.objects.get()
    assert (line.pool, line.delta, line.after, line.character) == ("resolve", 1, 4, hero)
    assert TableEvent.objects.get().kind == "character_updated"


def test_owner_deletes_an_attribute_row(client_for, momenta_campaign, hero):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    grit_row = [a.name for a in hero.attributes.all()].index("GRIT")
    client_for("player").post(url, _edit_data(hero, **{f"attributes-{grit_row}-DELETE": "on"}))
    assert sorted(hero.attributes.values_list("name", flat=True)) == ["LUCK", "WITS"]


def test_sheet_save_does_not_undo_a_spend_made_meanwhile(client_for, momenta_campaign, hero, gm):
    """The page showed Resolve 3; a spend at the table made it 2; saving the
    name must not put 3 back."""
    data = _edit_data(hero, name="Ash the Bold")
    sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "spent", character_id=hero.pk)
    response = client_for("player").post(
        reverse("character_edit", args=[momenta_campaign.pk, hero.pk]), data
    )
    assert response.status_code == 302
    hero.refresh_from_db()
    assert (hero.name, hero.resolve) == ("Ash the Bold", 2)


def test_sheet_change_to_a_pool_that_moved_meanwhile_is_refused(
    client_for, momenta_campaign, hero, gm
):
    data = _edit_data(hero, resolve=4)
    sessions.adjust_pool(momenta_campaign.pk, gm, "resolve", -1, "spent", character_id=hero.pk)
    events = TableEvent.objects.count()
    response = client_for("gm").post(
        reverse("character_edit", args=[momenta_campaign.pk, hero.pk]), data
    )
    assert response.status_code == 400
    assert "since your page was drawn" in response.content.decode()
    hero.refresh_from_db()
    assert hero.resolve == 2
    assert TableEvent.objects.count() == events


def test_lowering_resolve_max_below_current_resolve_is_refused(client_for, momenta_campaign, hero):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    # RS-01: the maximum is the GM's to change, within the Resolve it holds.
    response = client_for("gm").post(url, _edit_data(hero, resolve_max=2))
    assert response.status_code == 400
    assert _errors(response, "resolve")
    hero.refresh_from_db()
    assert hero.resolve_max == 4


def test_edit_page_draws_the_shown_pool_values(client_for, momenta_campaign, hero):
    url = reverse("character_edit", args=[momenta_campaign.pk, hero.pk])
    body = client_for("gm").get(url).content.decode()
    assert 'name="initial-resolve" value="3"' in body


# --- Joining ------------------------------------------------------------------------


def test_outsider_joins_as_observer(client_for, momenta_campaign, outsider):
    url = reverse("join", args=[momenta_campaign.invite_token])
    response = client_for("outsider").post(url, {"role": "observer"})
    assert response["Location"] == reverse("campaign_detail", args=[momenta_campaign.pk])
    assert Membership.objects.get(user=outsider).role == "observer"
    event = TableEvent.objects.get()
    assert (event.kind, event.payload["role"]) == ("member_joined", "observer")


def test_join_cannot_ask_for_gm(client_for, momenta_campaign, outsider):
    url = reverse("join", args=[momenta_campaign.invite_token])
    response = client_for("outsider").post(url, {"role": "gm"})
    assert response.status_code == 200
    assert _errors(response, "role")
    assert not Membership.objects.filter(user=outsider).exists()


def test_bad_invite_token_is_a_clear_404_and_changes_nothing(client_for, momenta_campaign):
    url = reverse("join", args=["not-a-token"])
    for method in ("get", "post"):
        response = getattr(client_for("outsider"), method)(url, {"role": "player"})
        assert response.status_code == 404
        assert "invite link is not valid" in response.content.decode()
    assert momenta_campaign.memberships.count() == 5
    assert not TableEvent.objects.exists()


def test_regenerated_invite_turns_the_old_link_away(client_for, momenta_campaign, outsider):
    old = momenta_campaign.invite_token
    client_for("gm").post(reverse("invite_regenerate", args=[momenta_campaign.pk]))
    response = client_for("outsider").post(reverse("join", args=[old]), {"role": "player"})
    assert response.status_code == 404
    assert not Membership.objects.filter(user=outsider).exists()
    new = Campaign.objects.get(pk=momenta_campaign.pk).invite_token
    assert new != old
    client_for("outsider").post(reverse("join", args=[new]), {"role": "player"})
    assert Membership.objects.get(user=outsider).role == "player"


def test_member_joining_again_gets_a_message_not_a_duplicate(client_for, momenta_campaign):
    url = reverse("join", args=[momenta_campaign.invite_token])
    response = client_for("player").post(url, {"role": "observer"}, follow=True)
    assert "already in The Drift as Player" in response.content.decode()
    assert momenta_campaign.memberships.filter(user__username="player").get().role == "player"
    assert not TableEvent.objects.exists()


def test_anonymous_invite_flow_keeps_the_link_through_signup(client, momenta_campaign):
    url = reverse("join", args=[momenta_campaign.invite_token])
    response = client.get(url)
    login_page = client.get(response["Location"])
    assert f"?next={url}".replace("/", "%2F") in login_page.content.decode().replace("/", "%2F")
    signup = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "long-pass-987",
            "password2": "long-pass-987",
            "next": url,
        },
    )
    assert signup["Location"] == url
    client.post(url, {"role": "player"})
    assert momenta_campaign.memberships.filter(user__username="newbie", role="player").exists()


# --- Members ------------------------------------------------------------------------


def test_gm_cannot_remove_the_owner(client_for, momenta_campaign, gm):
    owner = momenta_campaign.memberships.get(user=gm)
    response = client_for("cogm").post(
        reverse("member_remove", args=[momenta_campaign.pk, owner.pk]), follow=True
    )
    assert "owner cannot be removed" in response.content.decode()
    assert momenta_campaign.memberships.filter(user=gm).exists()
    assert not TableEvent.objects.exists()


def test_only_players_can_be_promoted(client_for, momenta_campaign):
    obs = momenta_campaign.memberships.get(user__username="observer")
    response = client_for("gm").post(
        reverse("member_promote", args=[momenta_campaign.pk, obs.pk]), follow=True
    )
    assert "Only players can be made co-GM" in response.content.decode()
    obs.refresh_from_db()
    assert obs.role == "observer"


def test_promoted_player_gets_gm_powers(client_for, momenta_campaign):
    p2 = momenta_campaign.memberships.get(user__username="player2")
    client_for("gm").post(reverse("member_promote", args=[momenta_campaign.pk, p2.pk]))
    p2.refresh_from_db()
    assert p2.role == "gm"
    url = reverse("campaign_settings", args=[momenta_campaign.pk])
    assert client_for("player2").get(url).status_code == 200


def test_removed_member_loses_access(client_for, momenta_campaign):
    p2 = momenta_campaign.memberships.get(user__username="player2")
    client_for("gm").post(reverse("member_remove", args=[momenta_campaign.pk, p2.pk]))
    url = reverse("campaign_detail", args=[momenta_campaign.pk])
    assert client_for("player2").get(url).status_code == 403


def test_member_of_another_campaign_cannot_be_targeted(client_for, momenta_campaign, d20_campaign):
    other = d20_campaign.memberships.get(user__username="player2")
    url = reverse("member_remove", args=[momenta_campaign.pk, other.pk])
    assert client_for("gm").post(url).status_code == 404
    assert d20_campaign.memberships.filter(pk=other.pk).exists()


# --- Pools (GM) ------------------------------------------------------------------------


def _adjust(client, campaign, htmx=False, **data):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("pool_adjust", args=[campaign.pk]), data, **headers)


@pytest.mark.parametrize(
    "data,field",
    [
        ({"pool": "momentum", "delta": 1, "reason": ""}, "reason"),
        ({"pool": "momentum", "delta": 1, "reason": "   "}, "reason"),
        ({"pool": "momentum", "delta": 0, "reason": "x"}, "delta"),
        ({"pool": "momentum", "delta": "lots", "reason": "x"}, "delta"),
        ({"pool": "momentum", "delta": 50, "reason": "x"}, "delta"),
        ({"pool": "threat", "delta": 1, "reason": "x"}, "pool"),  # not in a Momenta campaign
        ({"pool": "momentum", "delta": 1, "reason": "x", "character": ""}, "character"),
    ],
)
def test_pool_adjust_rejects_bad_input(client_for, momenta_campaign, hero, data, field):
    data = {"character": hero.pk} | data
    response = _adjust(client_for("gm"), momenta_campaign, **data)
    assert response.status_code == 400
    assert response.context["adjust_form"].errors[field]
    hero.refresh_from_db()
    assert hero.momentum == 3
    assert not TableEvent.objects.exists()


def test_pool_adjust_spending_what_is_not_there_says_so(client_for, momenta_campaign, hero):
    response = _adjust(
        client_for("gm"), momenta_campaign, pool="resolve", character=hero.pk, delta=-4, reason="x"
    )
    assert response.status_code == 409
    assert "Not enough" in response.content.decode()
    hero.refresh_from_db()
    assert hero.resolve == 3
    assert not TableEvent.objects.exists()


def test_pool_adjust_htmx_returns_the_play_panel_only(client_for, d20_campaign):
    response = _adjust(
        client_for("gm"), d20_campaign, htmx=True, pool="group_momentum", delta=2, reason="gift"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="play"')
    assert "<html" not in body
    assert 'data-pool="group_momentum">2<' in body
    assert Campaign.objects.get(pk=d20_campaign.pk).group_momentum == 2


def test_pool_adjust_htmx_stale_click_is_refused_in_the_panel(client_for, d20_campaign):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=1)
    response = _adjust(
        client_for("gm"),
        d20_campaign,
        htmx=True,
        pool="group_momentum",
        delta=-2,
        expected=5,
        reason="GM adjustment",
    )
    assert response.status_code == 200  # htmx swaps only 2xx answers
    assert "(your page showed 5): not enough for this spend" in response.content.decode()
    assert Campaign.objects.get(pk=d20_campaign.pk).group_momentum == 1


def test_scene_buttons_via_htmx(client_for, d20_campaign):
    client = client_for("gm")
    hx = {"HTTP_HX_REQUEST": "true"}
    started = client.post(reverse("scene_start", args=[d20_campaign.pk]), {"title": "Ball"}, **hx)
    assert "Ball started" in started.content.decode()
    again = client.post(reverse("scene_start", args=[d20_campaign.pk]), **hx)
    assert "still running" in again.content.decode()
    ended = client.post(reverse("scene_end", args=[d20_campaign.pk]), **hx)
    assert "Scene 1 ended" in ended.content.decode()


# --- Accounts ---------------------------------------------------------------------------


def test_signup_logs_in_and_goes_home(client):
    response = client.post(
        reverse("signup"),
        {"username": "dana", "password1": "long-pass-987", "password2": "long-pass-987"},
    )
    assert response["Location"] == reverse("home")
    assert client.get(reverse("home")).status_code == 200


@pytest.mark.parametrize(
    "data,field",
    [
        (
            {"username": "dana", "password1": "long-pass-987", "password2": "other-pass-987"},
            "password2",
        ),
        ({"username": "dana", "password1": "short", "password2": "short"}, "password2"),
        (
            {"username": "gm", "password1": "long-pass-987", "password2": "long-pass-987"},
            "username",
        ),
        ({"username": "", "password1": "long-pass-987", "password2": "long-pass-987"}, "username"),
    ],
)
def test_signup_rejects_bad_input(client, gm, data, field):
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Campaign.objects.exists()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="dana").exists()


def test_signup_ignores_an_offsite_next(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dana",
            "password1": "long-pass-987",
            "password2": "long-pass-987",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("home")


def test_login_then_logout(client, gm):
    from tests.conftest import PASSWORD

    response = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    assert response["Location"] == reverse("home")
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("logout")).status_code == 405  # logout is POST only
    client.post(reverse("logout"))
    assert client.get(reverse("home")).status_code == 302


def test_login_with_a_wrong_password_says_so(client, gm):
    response = client.post(reverse("login"), {"username": "gm", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()

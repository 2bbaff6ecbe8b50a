"""Who may open which site page: the full role matrix, for every view.

Roles: GM (owner), co-GM, player, another player, observer, outsider (signed in,
not a member) and anonymous. An allowed page answers 200; an allowed command
redirects and has done what it says (a form drawn again is a refusal, not a
success). A refused request changes nothing: no event, no membership change,
the invite token unchanged.
"""

from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from tables.models import Campaign, Membership, PoolChange, TableEvent
from tests.conftest import ROLES

OK, LOGIN, FORBIDDEN = "ok", "login", 403

GM_ONLY = {
    "gm": OK,
    "cogm": OK,
    "player": FORBIDDEN,
    "player2": FORBIDDEN,
    "observer": FORBIDDEN,
    "outsider": FORBIDDEN,
    "anonymous": LOGIN,
}
MEMBERS = {**GM_ONLY, "player": OK, "player2": OK, "observer": OK}
PLAYERS = {**MEMBERS, "observer": FORBIDDEN}
SIGNED_IN = {role: OK for role in ROLES} | {"anonymous": LOGIN}
# The hero belongs to "player": the other player may not touch it.
HERO_CONTROLLERS = {**PLAYERS, "player2": FORBIDDEN}


def settings_data(campaign, **overrides):
    data = {
        "name": campaign.name,
        "dice_system": campaign.dice_system,
        "economy": campaign.economy,
        "threat_visible": "",
        "extra_success_stacks": "on",
        "band_label_0": campaign.band_label_0,
        "band_label_1": campaign.band_label_1,
        "band_label_2": campaign.band_label_2,
        "band_label_3": campaign.band_label_3,
        "advantage_dice": campaign.advantage_dice,
        "disadvantage_dice": campaign.disadvantage_dice,
        "complication_range": campaign.complication_range,
        "assistance_needs_leader_success": "on",
        "gm_momentum_to_threat": "on",
        "double_harm": "on",  # SC-R1, on by default
        "keep_once_in_a_row": "on",  # SC-01a, on by default
        "session_start_from_fortune": "on",  # GL-07, on by default
        "mission_sets_threat": "on",  # GL-07, GL-R2, on by default
        "borrowed_extended_tasks": "on",  # SC-R7, SC-R16, SC-R17, on by default
        "contest_at_scene_end": campaign.contest_at_scene_end,  # CT-R2
        "gm_reads_whispers": "on",  # issue 37, on by default
    }
    data.update(overrides)
    return data


def sheet_data(name="Cass", **overrides):
    """A valid Momenta sheet POST (no formset rows)."""
    data = {"name": name, "notes": "", "momentum": 3, "resolve": 1, "resolve_max": 2}
    for prefix in ("attributes", "threads"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    data.update(overrides)
    return data


def player2(c):
    return c.memberships.filter(user__username="player2")


@dataclass
class Case:
    view: str
    method: str
    expect: dict
    args: callable = lambda c, h: [c.pk]
    data: callable = field(default=lambda c, h: {})
    # A command's proof that it ran: (campaign, hero, invite token before) -> bool,
    # read after the request from the database.
    done: callable = None


CASES = [
    Case("home", "get", SIGNED_IN, args=lambda c, h: []),
    Case("campaign_new", "get", SIGNED_IN, args=lambda c, h: []),
    Case("campaign_detail", "get", MEMBERS),
    Case("campaign_settings", "get", GM_ONLY),
    Case(
        "campaign_settings",
        "post",
        GM_ONLY,
        data=lambda c, h: settings_data(c, name="X"),
        done=lambda c, h, token: c.name == "X",
    ),
    Case("invite_regenerate", "post", GM_ONLY, done=lambda c, h, token: c.invite_token != token),
    Case(
        "member_remove",
        "post",
        GM_ONLY,
        args=lambda c, h: [c.pk, player2(c).get().pk],
        done=lambda c, h, token: not player2(c).exists(),
    ),
    Case(
        "member_promote",
        "post",
        GM_ONLY,
        args=lambda c, h: [c.pk, player2(c).get().pk],
        done=lambda c, h, token: player2(c).get().role == Membership.Role.GM,
    ),
    Case("session_start", "post", GM_ONLY, done=lambda c, h, token: c.play_sessions.count() == 1),
    Case("scene_start", "post", GM_ONLY, done=lambda c, h, token: c.scenes.count() == 1),
    Case(
        "scene_end",
        "post",
        GM_ONLY,
        done=lambda c, h, token: c.scenes.filter(ended_at__isnull=False).count() == 1,
    ),
    Case(
        "pool_adjust",
        "post",
        GM_ONLY,
        data=lambda c, h: {"pool": "momentum", "character": h.pk, "delta": 1, "reason": "x"},
        done=lambda c, h, token: PoolChange.objects.filter(character=h, delta=1).count() == 1,
    ),
    Case("character_new", "get", PLAYERS),
    Case(
        "character_new",
        "post",
        PLAYERS,
        data=lambda c, h: sheet_data(),
        done=lambda c, h, token: c.characters.filter(name="Cass").count() == 1,
    ),
    Case("character_edit", "get", HERO_CONTROLLERS, args=lambda c, h: [c.pk, h.pk]),
    Case(
        "character_edit",
        "post",
        HERO_CONTROLLERS,
        args=lambda c, h: [c.pk, h.pk],
        # The pools and their maximum as shown (RS-01: a player changes neither).
        data=lambda c, h: sheet_data(
            "Ash", notes="Scarred", resolve=h.resolve, resolve_max=h.resolve_max
        ),
        done=lambda c, h, token: h.notes == "Scarred",
    ),
]


def _id(case: Case) -> str:
    return f"{case.method}-{case.view}"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_permission_matrix(case, role, client_for, momenta_campaign, hero):
    campaign = momenta_campaign
    url = reverse(case.view, args=case.args(campaign, hero))
    client = client_for(role)
    token = campaign.invite_token
    members = sorted(campaign.memberships.values_list("user__username", "role"))

    response = getattr(client, case.method)(url, case.data(campaign, hero))

    expected = case.expect[role]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    elif expected == OK and case.method == "get":
        assert response.status_code == 200, response.content[:500]
    elif expected == OK:
        # A command that ran redirects (a refused form is drawn again with 200) and
        # the change it promises is in the database.
        assert response.status_code == 302, response.content[:500]
        assert not response["Location"].startswith(reverse("login"))
        campaign.refresh_from_db()
        hero.refresh_from_db()
        assert case.done(campaign, hero, token)
    else:
        assert response.status_code == expected
    if expected != OK:
        # Refused: nothing changed.
        campaign.refresh_from_db()
        assert TableEvent.objects.count() == 0
        assert campaign.invite_token == token
        assert campaign.name == "The Drift"
        assert sorted(campaign.memberships.values_list("user__username", "role")) == members
        assert not campaign.characters.filter(name="Cass").exists()
        assert campaign.play_sessions.count() == 0 and campaign.scenes.count() == 0


@pytest.mark.parametrize("case", [c for c in CASES if c.method == "post"], ids=_id)
def test_successful_gm_commands_append_an_event(case, client_for, momenta_campaign, hero):
    if "cogm" not in [r for r, e in case.expect.items() if e == OK]:
        pytest.skip("not a GM command")
    url = reverse(case.view, args=case.args(momenta_campaign, hero))
    response = client_for("cogm").post(url, case.data(momenta_campaign, hero))
    assert response.status_code == 302
    assert TableEvent.objects.filter(campaign=momenta_campaign).count() == 1


@pytest.mark.parametrize("view", ["session_start", "scene_end", "invite_regenerate", "pool_adjust"])
def test_post_only_views_refuse_get(view, client_for, momenta_campaign):
    response = client_for("gm").get(reverse(view, args=[momenta_campaign.pk]))
    assert response.status_code == 405


@pytest.mark.parametrize(
    "role,expected",
    [
        ("gm", "already"),
        ("cogm", "already"),
        ("player", "already"),
        ("player2", "already"),
        ("observer", "already"),
        ("outsider", "form"),
        ("anonymous", "login"),
    ],
)
def test_join_page_matrix(role, expected, client_for, momenta_campaign):
    url = reverse("join", args=[momenta_campaign.invite_token])
    response = client_for(role).get(url, follow=False)
    if expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    elif expected == "already":
        assert response.status_code == 302
        assert response["Location"] == reverse("campaign_detail", args=[momenta_campaign.pk])
    else:
        assert response.status_code == 200
        assert b"Join The Drift" in response.content


@pytest.mark.parametrize("role", ROLES)
def test_login_and_signup_pages_open_to_everyone(role, client_for):
    client = client_for(role)
    assert client.get(reverse("signup")).status_code == 200
    login = client.get(reverse("login"))
    # A signed-in person is sent on from the login page.
    assert login.status_code == (200 if role == "anonymous" else 302)


def test_character_edit_of_another_campaign_is_404(
    client_for, momenta_campaign, d20_campaign, kara
):
    url = reverse("character_edit", args=[momenta_campaign.pk, kara.pk])
    assert client_for("gm").get(url).status_code == 404


def test_unknown_campaign_is_404(client_for, momenta_campaign):
    assert client_for("gm").get(reverse("campaign_detail", args=[9999])).status_code == 404


def test_gm_owned_npc_is_editable_by_cogm_not_by_players(client_for, marcus, d20_campaign):
    url = reverse("character_edit", args=[d20_campaign.pk, marcus.pk])
    assert client_for("cogm").get(url).status_code == 200
    assert client_for("player").get(url).status_code == 403
    assert client_for("observer").get(url).status_code == 403


def test_player_cannot_see_hidden_threat_but_gm_can(client_for, d20_campaign):
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat=5)
    url = reverse("campaign_detail", args=[d20_campaign.pk])
    assert b'data-pool="threat"' in client_for("gm").get(url).content
    assert b'data-pool="threat"' not in client_for("player").get(url).content
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat_visible=True)
    assert b'data-pool="threat"' in client_for("player").get(url).content


def test_only_gms_see_the_invite_link(client_for, momenta_campaign):
    url = reverse("campaign_detail", args=[momenta_campaign.pk])
    token = momenta_campaign.invite_token.encode()
    assert token in client_for("gm").get(url).content
    assert token in client_for("cogm").get(url).content
    for role in ("player", "observer"):
        assert token not in client_for(role).get(url).content


def test_observer_page_offers_no_controls(client_for, momenta_campaign, hero):
    page = client_for("observer").get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Ash" in body  # sees every character
    for view in ("character_new", "session_start", "pool_adjust", "campaign_settings"):
        assert reverse(view, args=[momenta_campaign.pk]) not in body
    assert reverse("character_edit", args=[momenta_campaign.pk, hero.pk]) not in body
    assert Membership.objects.get(user__username="observer").role == "observer"

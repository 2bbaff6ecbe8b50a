"""The admin: every model registered, with lists, filters, search and sheet inlines."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from rules.dice import FixedDice
from tables import models
from tables import models as models_momenta

MODELS = [
    models.Campaign,
    models.Membership,
    models.Character,
    models.Attribute,
    models.Skill,
    models.Trait,
    models.Asset,
    models.PlaySession,
    models.Scene,
    models.TableEvent,
    models.PoolChange,
    # Play records (models_momenta.py, models_d20.py)
    models_momenta.RollTemplate,
    models_momenta.CustomPattern,
    models_momenta.AssistRequest,
    models_momenta.MomentaRoll,
    models.D20Test,
    models.Contest,
    models.CustomSpend,
]


@pytest.fixture
def operator(db):
    """The site operator: a superuser."""
    return get_user_model().objects.create_superuser("root", "root@example.com", "x-pass-12345")


@pytest.fixture
def admin_client_(client, operator):
    client.force_login(operator)
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_is_registered_with_lists_filters_and_search(model):
    model_admin = admin.site._registry[model]
    assert len(model_admin.list_display) > 1
    assert model_admin.list_filter
    assert model_admin.search_fields


@pytest.fixture
def play_records(kara, marcus, hero, sidekick, gm, player, player2):
    """One of each play record: a Momenta roll, template, pattern and Assist; a 2d20
    test, a contest and a custom spend."""
    from tables.services import d20 as services_d20
    from tables.services import gm as services_gm
    from tables.services import momenta

    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    d20 = kara.campaign.pk
    services_d20.roll_d20_test(
        d20,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate"),
        rng=FixedDice([2, 5]),
    )
    services_d20.contest_opposer_roll(
        d20, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate", rng=FixedDice([3, 4])
    )
    services_gm.save_custom_spend(d20, gm, name="Called Shot", cost=2)
    d6 = hero.campaign.pk
    wits = momenta.RollRequest(attribute="WITS")
    momenta.roll_momenta(d6, player, hero.pk, wits, rng=FixedDice([5, 5, 1, 2]))
    momenta.save_custom_pattern(
        d6, gm, {"name": "Lucky Streak", "kind": "quad", "effect": "text", "description": "Clue"}
    )
    momenta.request_assist(d6, player2, hero.pk, sidekick.pk)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_changelists_open_and_search(model, admin_client_, kara, marcus, gm, play_records):
    from tables.services import sessions

    sessions.start_session(kara.campaign.pk, gm)
    sessions.end_scene(kara.campaign.pk, gm)
    sessions.adjust_pool(kara.campaign.pk, gm, "threat", 2, "ominous")
    opts = model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client_.get(url).status_code == 200
    assert admin_client_.get(url, {"q": "Kara"}).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client_.get(change).status_code == 200


def test_character_admin_edits_the_whole_sheet_inline():
    inlines = {i.model for i in admin.site._registry[models.Character].inlines}
    assert inlines == {models.Attribute, models.Skill, models.Trait, models.Asset}


def test_admin_is_closed_to_players(client_for, momenta_campaign):
    response = client_for("gm").get(reverse("admin:tables_campaign_changelist"))
    assert response.status_code == 302


# --- The log and the pools cannot be edited here (issue 9) -----------------------------


@pytest.fixture
def operator_gm(operator, d20_campaign):
    """The operator, a GM of the 2d20 campaign: adjust_pool's rule for who may correct."""
    models.Membership.objects.create(
        campaign=d20_campaign, user=operator, role=models.Membership.Role.GM
    )
    return operator


@pytest.fixture
def logged(d20_campaign, kara, gm):
    """One event with one ledger line: the GM gives Kara a point of Determination."""
    from tables.services import sessions

    return sessions.adjust_pool(d20_campaign.pk, gm, "determination", 1, "Fine speech", kara.pk)


@pytest.mark.parametrize("model", [models.TableEvent, models.PoolChange], ids=lambda m: m.__name__)
def test_the_log_cannot_be_added_changed_or_deleted_in_the_admin(model, admin_client_, logged):
    name = f"admin:tables_{model._meta.model_name}"
    obj = model.objects.get() if model is models.PoolChange else logged
    before = model.objects.values().get(pk=obj.pk)
    assert admin_client_.get(reverse(f"{name}_add")).status_code == 403
    assert admin_client_.post(reverse(f"{name}_add"), {"seq": 99}).status_code == 403
    change = reverse(f"{name}_change", args=[obj.pk])
    assert admin_client_.get(change).status_code == 200  # to read it
    assert admin_client_.post(change, {"reason": "edited", "seq": 99}).status_code == 403
    delete = reverse(f"{name}_delete", args=[obj.pk])
    assert admin_client_.get(delete).status_code == 403
    assert admin_client_.post(delete, {"post": "yes"}).status_code == 403
    changelist = admin_client_.get(reverse(f"{name}_changelist"))
    assert "delete_selected" not in changelist.content.decode()  # no bulk delete offered
    admin_client_.post(
        reverse(f"{name}_changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    assert model.objects.values().get(pk=obj.pk) == before


def test_a_character_with_ledger_lines_cannot_be_deleted_in_the_admin(admin_client_, kara, logged):
    """Its ledger lines would go with it, leaving holes in the campaign's log."""
    delete = reverse("admin:tables_character_delete", args=[kara.pk])
    admin_client_.post(delete, {"post": "yes"})
    assert models.Character.objects.filter(pk=kara.pk).exists()
    assert models.PoolChange.objects.filter(character=kara).count() == 1


def test_a_campaign_goes_with_its_whole_log(admin_client_, d20_campaign, logged):
    delete = reverse("admin:tables_campaign_delete", args=[d20_campaign.pk])
    assert admin_client_.post(delete, {"post": "yes"}).status_code == 302
    assert not models.Campaign.objects.filter(pk=d20_campaign.pk).exists()
    assert not models.TableEvent.objects.exists() and not models.PoolChange.objects.exists()


def _change_form(client, obj, form_id) -> tuple[str, dict]:
    """The admin change page of obj and the fields it would post, as drawn."""
    from tests.html_forms import form_fields

    url = reverse(f"admin:tables_{obj._meta.model_name}_change", args=[obj.pk])
    html = client.get(url).content.decode()
    return url, form_fields(html, form_id)


def test_campaign_pools_are_read_only_in_the_admin(admin_client_, d20_campaign):
    url, data = _change_form(admin_client_, d20_campaign, "campaign_form")
    data.update(name=["Arrakis Prime"], group_momentum=["5"], threat=["9"], last_seq=["40"])
    assert admin_client_.post(url, data).status_code == 302  # saved
    d20_campaign.refresh_from_db()
    assert d20_campaign.name == "Arrakis Prime"
    assert (d20_campaign.group_momentum, d20_campaign.threat, d20_campaign.last_seq) == (0, 0, 0)


def test_character_pools_are_read_only_in_the_admin(admin_client_, kara):
    url, data = _change_form(admin_client_, kara, "character_form")
    data.update(name=["Kara Vey"], momentum=["1"], resolve=["2"], determination=["3"])
    assert admin_client_.post(url, data).status_code == 302  # saved
    kara.refresh_from_db()
    assert kara.name == "Kara Vey"
    assert (kara.momentum, kara.resolve, kara.determination) == (3, 0, 1)


def _correct(client, campaign, **fields):
    return client.post(reverse("admin:tables_campaign_pools", args=[campaign.pk]), fields)


def test_both_change_pages_link_to_the_pool_correction(admin_client_, d20_campaign, kara):
    correct = reverse("admin:tables_campaign_pools", args=[d20_campaign.pk])
    page = admin_client_.get(reverse("admin:tables_campaign_change", args=[d20_campaign.pk]))
    assert f'href="{correct}"' in page.content.decode()
    page = admin_client_.get(reverse("admin:tables_character_change", args=[kara.pk]))
    assert f'href="{correct}?character={kara.pk}"' in page.content.decode()


def test_a_pool_correction_in_the_admin_is_logged_capped_and_pushed(
    operator_gm, admin_client_, d20_campaign, django_capture_on_commit_callbacks
):
    """MO-06: group Momentum +10 from 0 ends at the cap of 6, the 4 over recorded as lost."""
    events, lines = models.TableEvent.objects.count(), models.PoolChange.objects.count()
    with django_capture_on_commit_callbacks(execute=False) as pushes:
        response = _correct(
            admin_client_, d20_campaign, pool="group_momentum", delta=10, reason="Restore lost pool"
        )
    assert response.status_code == 302
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 6
    assert models.TableEvent.objects.count() == events + 1
    assert models.PoolChange.objects.count() == lines + 1
    event = models.TableEvent.objects.latest("seq")
    assert (event.kind, event.actor, event.seq) == ("pool_adjusted", operator_gm, 1)
    line = event.changes.get()
    assert (line.pool, line.delta, line.after, line.lost) == ("group_momentum", 6, 6, 4)
    assert line.reason == "Restore lost pool"
    assert len(pushes) == 1  # the live push, once the correction is committed
    shown = admin_client_.get(response.url).content.decode()
    assert "4 lost to the cap" in shown


def test_a_character_pool_correction_in_the_admin_goes_to_that_character(
    operator_gm, admin_client_, d20_campaign, kara
):
    _correct(
        admin_client_,
        d20_campaign,
        pool="determination",
        character=kara.pk,
        delta=2,
        reason="GM slip",
    )
    kara.refresh_from_db()
    assert kara.determination == 3
    line = models.PoolChange.objects.get()
    assert (line.character, line.delta, line.reason) == (kara, 2, "GM slip")


def test_a_correction_below_zero_is_refused_with_the_services_message(
    operator_gm, admin_client_, d20_campaign
):
    response = _correct(admin_client_, d20_campaign, pool="threat", delta=-1, reason="Oops")
    assert response.status_code == 200
    assert "Not enough Threat" in response.content.decode()
    assert not models.TableEvent.objects.exists()


def test_an_operator_who_is_not_a_gm_is_told_to_join_as_one(admin_client_, d20_campaign):
    page = admin_client_.get(reverse("admin:tables_campaign_pools", args=[d20_campaign.pk]))
    assert "Only a GM of Arrakis can correct its pools" in page.content.decode()
    response = _correct(admin_client_, d20_campaign, pool="threat", delta=2, reason="Ominous")
    assert "Only a GM of Arrakis can correct its pools" in response.content.decode()
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 0
    assert not models.TableEvent.objects.exists()

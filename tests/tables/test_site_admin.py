"""The admin: every model registered, with lists, filters, search and sheet inlines."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from tables import models

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
]


@pytest.fixture
def admin_client_(client, db):
    user = get_user_model().objects.create_superuser("root", "root@example.com", "x-pass-12345")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_is_registered_with_lists_filters_and_search(model):
    model_admin = admin.site._registry[model]
    assert len(model_admin.list_display) > 1
    assert model_admin.list_filter
    assert model_admin.search_fields


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_changelists_open_and_search(model, admin_client_, kara, marcus, gm):
    from tables import services

    services.start_session(kara.campaign.pk, gm)
    services.end_scene(kara.campaign.pk, gm)
    services.adjust_pool(kara.campaign.pk, gm, "threat", 2, "ominous")
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

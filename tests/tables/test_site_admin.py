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
        d20, player, kara.pk, attribute="Power", skill="Communicate", rng=FixedDice([2, 5])
    )
    services_d20.contest_opposer_roll(
        d20, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate", rng=FixedDice([3, 4])
    )
    services_gm.save_custom_spend(d20, gm, name="Called Shot", cost=2)
    d6 = hero.campaign.pk
    momenta.roll_momenta(d6, player, hero.pk, attribute="WITS", rng=FixedDice([5, 5, 1, 2]))
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

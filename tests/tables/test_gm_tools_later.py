"""The GM's Momenta tools on the table page: the roll templates' and custom patterns'
tabs are drawn without their forms (some 80 fields a phone would lay out and scan on
every load), and fetch them when the GM first opens one (views.momenta.gm_tools).
What the GM can edit is the same either way; only GMs get it."""

import pytest
from django.urls import reverse

from tables.models import CustomPattern, RollTemplate

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def tools_url(campaign):
    return reverse("momenta_gm_tools", args=[campaign.pk])


@pytest.fixture
def sneak(momenta_campaign, client_for):
    """A custom pattern, added as the GM adds one."""
    data = {
        "name": "Sneak attack",
        "kind": "quad",
        "effect": "text",
        "amount": 1,
        "roll_kinds": ["action"],
        "play": ["narrative"],
        "min_effective_successes": 1,
        "description": "Strike unseen",
        "active": "on",
    }
    client_for("gm").post(
        reverse("momenta_pattern_save", args=[momenta_campaign.pk]),
        data,
        **HX,
        HTTP_HX_TARGET="momenta-gm-tools",
    )
    return CustomPattern.objects.get(campaign=momenta_campaign, name="Sneak attack")


def test_the_table_page_leaves_the_template_and_pattern_forms_for_their_tabs(
    momenta_campaign, client_for
):
    html = client_for("gm").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert 'id="momenta-templates"' in html and 'id="momenta-patterns"' in html
    assert f'hx-get="{tools_url(momenta_campaign)}"' in html
    assert "Show the roll templates" in html and "Show the custom patterns" in html
    assert reverse("momenta_template_save", args=[momenta_campaign.pk]) not in html
    assert reverse("momenta_pattern_save", args=[momenta_campaign.pk]) not in html


def test_an_open_tab_fetches_every_template_and_pattern_form(momenta_campaign, sneak, client_for):
    answer = client_for("gm").get(tools_url(momenta_campaign), **HX)
    html = answer.content.decode()
    assert answer.status_code == 200
    # It replaces the whole part (hx-target #momenta-gm-tools, outerHTML).
    assert html.lstrip().startswith('<div id="momenta-gm-tools"')
    for template in RollTemplate.objects.filter(campaign=momenta_campaign):
        delete = reverse("momenta_template_delete", args=[momenta_campaign.pk, template.pk])
        assert f'action="{delete}"' in html
    assert "Sneak attack" in html
    assert f'action="{reverse("momenta_pattern_save", args=[momenta_campaign.pk])}"' in html
    assert "Show the roll templates" not in html  # drawn in full: it fetches nothing more


def test_without_htmx_the_tools_are_a_page_of_their_own(momenta_campaign, client_for):
    answer = client_for("gm").get(tools_url(momenta_campaign))
    html = answer.content.decode()
    assert answer.status_code == 200 and "<html" in html
    assert reverse("table", args=[momenta_campaign.pk]) in html  # the way back
    assert reverse("momenta_template_save", args=[momenta_campaign.pk]) in html


@pytest.mark.parametrize(
    ("role", "status"), [("player", 403), ("observer", 403), ("outsider", 403)]
)
def test_only_gms_get_the_tools(momenta_campaign, client_for, role, status):
    assert client_for(role).get(tools_url(momenta_campaign), **HX).status_code == status


def test_a_players_table_page_has_no_way_to_the_tools(momenta_campaign, client_for):
    html = client_for("player").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert tools_url(momenta_campaign) not in html


def test_signed_out_the_tools_ask_for_a_login(momenta_campaign, client_for):
    answer = client_for("anonymous").get(tools_url(momenta_campaign))
    assert answer.status_code == 302 and "/login/" in answer["Location"]

"""Default roll templates are written only by a command that goes through (D6-04, issue 12).

A campaign made outside the services (the admin) has no templates; the first
Momenta roll that is *allowed* gives it the defaults, under the lock. No page
view and no refused request may write them, and a 2d20 campaign never gets them.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tables.models import Membership, RollTemplate
from tables.services import momenta
from tables.services.core import ServiceError
from tables.services.roll_templates import DEFAULT_TEMPLATES
from tests.html_forms import form_fields
from tests.tables.test_fuzz_inputs import HX, _patterns

ROLES = ("gm", "player", "observer", "outsider", "anonymous")


@pytest.fixture
def bare(momenta_campaign):
    """The Momenta campaign as the admin makes it: no roll templates yet."""
    RollTemplate.objects.filter(campaign=momenta_campaign).delete()
    return momenta_campaign


def player_roll_form(client, campaign) -> dict:
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    fields = form_fields(page, "momenta-roll")
    assert fields.get("character"), "the player's composer offers a character"
    return fields


def test_no_page_view_writes_templates(bare, d20_campaign, hero, client_for):
    ids = {
        "cpk": hero.pk,
        "token": bare.invite_token,
        "member_pk": Membership.objects.filter(campaign=bare, role="player").first().pk,
    }

    def fill(route: str, campaign) -> str:
        # Records the test has (else an id that names nothing: a refusal too).
        known = ids | {"pk": campaign.pk}
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(known.get(m.group(1)) or 1), route)

    urls = [fill(route, c) for route, _ in _patterns() for c in (bare, d20_campaign)]
    for role in ROLES:
        client = client_for(role)
        for url in dict.fromkeys(urls):
            client.get(url)
            client.get(url, **HX)
            assert not RollTemplate.objects.exists(), (role, url)


def test_refused_momenta_rolls_write_no_templates(bare, d20_campaign, hero, client_for):
    player = client_for("player")
    fields = player_roll_form(player, bare)
    refused = [
        # An observer rolls nothing; the fields are a player's.
        (client_for("observer"), bare, fields),
        # Someone else's character.
        (client_for("player2"), bare, fields),
        # A Momenta roll in a 2d20 campaign.
        (player, d20_campaign, fields),
        (client_for("gm"), d20_campaign, fields),
        (client_for("outsider"), bare, fields),
    ]
    for client, campaign, data in refused:
        response = client.post(reverse("momenta_roll", args=[campaign.pk]), data, **HX)
        assert response.status_code >= 400 or "composer-error" in response.content.decode()
        assert not RollTemplate.objects.exists(), (campaign.name, response.status_code)


def test_the_first_allowed_roll_gives_the_defaults(bare, hero, client_for):
    player = client_for("player")
    response = player.post(
        reverse("momenta_roll", args=[bare.pk]), player_roll_form(player, bare), **HX
    )
    assert response.status_code == 200 and 'data-kind="momenta_roll"' in response.content.decode()
    assert RollTemplate.objects.filter(campaign=bare).count() > 0


def test_refused_template_commands_write_no_templates(bare, d20_campaign, gm, player):
    data = DEFAULT_TEMPLATES[0][2].to_dict() | {"name": "Sneak"}
    with pytest.raises(PermissionDenied):
        momenta.save_roll_template(bare.pk, player, data)
    # A 2d20 campaign has no Momenta templates, not even for its GM (D6-04).
    with pytest.raises(ServiceError):
        momenta.save_roll_template(d20_campaign.pk, gm, data)
    assert not RollTemplate.objects.exists()

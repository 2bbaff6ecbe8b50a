"""TB-03: a secret roll not yet revealed is visible only to the GM, by every path.

Each path below once carried its own copy of that check; all now ask
tables.policy.access (seen_by, still_secret, audience_of). The GM rolls in
secret for a *player's own* character, so nothing but secrecy keeps the roll
from that player: if a path forgets it, the player gets the roll.
"""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Membership
from tables.presenters.d20 import play_context
from tables.presenters.gm import gm_panel_context
from tables.presenters.momenta import composer_context, gm_tools_context
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services import momenta, sessions
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest

HX = {"HTTP_HX_REQUEST": "true"}


def member(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)


# --- the secret rolls ----------------------------------------------------------------------


def secret_d20(campaign, gm, kara):
    """The GM's secret test for Kara: 2 successes against Difficulty 1, 1 Momentum, open."""
    return services_d20.roll_d20_test(
        campaign.pk,
        gm,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
        rng=FixedDice([3, 4]),
    )


def secret_momenta(campaign, gm, hero):
    """The GM's secret roll for Ash, waiting for its patterns to be chosen."""
    sessions.start_session(campaign.pk, gm)
    return momenta.roll_momenta(
        campaign.pk, gm, hero.pk, RollRequest(attribute="WITS", secret=True),
        rng=FixedDice([5, 5, 1, 2]),
    )  # fmt: skip


def reveal_d20(campaign, gm, record):
    services_gm.reveal_test(campaign.pk, gm, record.pk)


def reveal_momenta(campaign, gm, record):
    momenta.reveal_roll(campaign.pk, gm, record.pk)


# --- each path: does `user` get the record? ------------------------------------------------


def refused_as_absent(call, absent: str) -> bool:
    """A command on the record, by someone who controls its character: only its
    secrecy can make the record absent."""
    try:
        call()
    except ServiceError as error:
        if absent in str(error):
            return True
    return False


def d20_spend_panel(client_for, campaign, user, role, record) -> bool:
    url = reverse("d20_panel", args=[campaign.pk, record.pk])
    return client_for(role).get(url, **HX).status_code == 200


def d20_open_tests(client_for, campaign, user, role, record) -> bool:
    return record in play_context(campaign, member(campaign, user))["open_tests"]


def d20_command(client_for, campaign, user, role, record) -> bool:
    def call():
        services_d20.determination_reroll(campaign.pk, user, record.pk, [0])

    return not refused_as_absent(call, "no such test")


def momenta_choosers(client_for, campaign, user, role, record) -> bool:
    context = composer_context(campaign, member(campaign, user))
    return record.pk in {chooser.roll.pk for chooser in context.get("choosers", [])}


def momenta_command(client_for, campaign, user, role, record) -> bool:
    def call():
        momenta.choose_allocation(campaign.pk, user, record.pk, None)

    return not refused_as_absent(call, "not at this table")


D20 = ("d20_campaign", "kara", secret_d20, reveal_d20)
MOMENTA = ("momenta_campaign", "hero", secret_momenta, reveal_momenta)

PATHS = [
    pytest.param(D20, d20_spend_panel, id="d20-spend-panel-view"),
    pytest.param(D20, d20_open_tests, id="d20-composer-open-tests"),
    pytest.param(D20, d20_command, id="d20-command-on-a-test"),
    pytest.param(MOMENTA, momenta_choosers, id="momenta-composer-choosers"),
    pytest.param(MOMENTA, momenta_command, id="momenta-command-on-a-roll"),
]


@pytest.mark.parametrize("game, gets", PATHS)
def test_tb_03_a_player_gets_a_secret_roll_only_once_revealed(
    request, client_for, gm, player, game, gets
):
    campaign_name, character_name, make, reveal = game
    campaign = request.getfixturevalue(campaign_name)
    record = make(campaign, gm, request.getfixturevalue(character_name))
    assert record.character.owner == player  # the player's own character
    assert not gets(client_for, campaign, player, "player", record)
    reveal(campaign, gm, record)
    assert gets(client_for, campaign, player, "player", record)


@pytest.mark.parametrize("game, gets", PATHS)
def test_tb_03_the_gm_gets_a_secret_roll_before_it_is_revealed(
    request, client_for, gm, player, game, gets
):
    campaign_name, character_name, make, _ = game
    campaign = request.getfixturevalue(campaign_name)
    record = make(campaign, gm, request.getfixturevalue(character_name))
    assert gets(client_for, campaign, gm, "gm", record)


# --- what the GM may reveal, and who hears of a hidden test ----------------------------------


def test_tb_03_the_gm_panels_offer_to_reveal_only_rolls_still_hidden(
    d20_campaign, momenta_campaign, gm, kara, hero
):
    test = secret_d20(d20_campaign, gm, kara)
    roll = secret_momenta(momenta_campaign, gm, hero)
    d20_gm, momenta_gm = member(d20_campaign, gm), member(momenta_campaign, gm)
    assert list(gm_panel_context(d20_campaign, d20_gm)["secret_tests"]) == [test]
    assert list(gm_tools_context(momenta_campaign, momenta_gm)["secret_rolls"]) == [roll]
    reveal_d20(d20_campaign, gm, test)
    reveal_momenta(momenta_campaign, gm, roll)
    assert not gm_panel_context(d20_campaign, d20_gm)["secret_tests"]
    assert not gm_tools_context(momenta_campaign, momenta_gm)["secret_rolls"]


def test_tb_03_news_of_a_hidden_test_reaches_gms_only_until_revealed(d20_campaign, gm, kara):
    test = secret_d20(d20_campaign, gm, kara)
    permitted = services_gm.permit_determination(d20_campaign.pk, gm, test.pk)
    assert permitted.audience == "gm"
    revealed = services_gm.reveal_test(d20_campaign.pk, gm, test.pk)
    assert revealed.audience == "all"
    spend = services_d20.spend_momentum(d20_campaign.pk, gm, test.pk, "obtain_information")
    assert spend.audience == "all"

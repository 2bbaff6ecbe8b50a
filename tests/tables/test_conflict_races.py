"""Two players pressing Keep the Initiative at once (SC-01): the campaign lock lets one
pay; the other finds someone acting and pays nothing. Real threads, real database."""

import pytest

from tables.models import Campaign, Character, PoolChange, TableEvent
from tables.services.conflicts import paid, turns
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_sc01_two_players_keeping_the_initiative_at_once_pay_once(
    d20_campaign, gm, player, player2, kara, marcus
):
    lena = Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")
    third = Character.objects.create(campaign=d20_campaign, owner=player, name="Third")
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)
    turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, third.pk, marcus.pk])
    turns.choose_next(d20_campaign.pk, player, kara.pk)
    turns.end_turn(d20_campaign.pk, player, kara.pk)
    events_before = TableEvent.objects.filter(campaign=d20_campaign).count()

    results = race(
        lambda: paid.keep_initiative(d20_campaign.pk, player2, lena.pk),
        lambda: paid.keep_initiative(d20_campaign.pk, player, third.pk),
    )

    assert sorted(results) == ["ok", "refused"]
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 4
    assert PoolChange.objects.filter(campaign=d20_campaign, pool="group_momentum").count() == 1
    assert TableEvent.objects.filter(campaign=d20_campaign).count() == events_before + 1
    conflict = turns.running_conflict(d20_campaign)
    assert conflict.acting.character in (lena, third) and conflict.last_kept

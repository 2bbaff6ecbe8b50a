"""Model constraints hold even when code goes around the services: try to break each."""

import pytest
from django.db import IntegrityError, transaction

from tables.models import Attribute, Campaign, Character, Membership, TableEvent


def _breaks(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


def test_group_momentum_7_is_refused_by_the_database(d20_campaign):
    _breaks(lambda: Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=7))
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 0


def test_group_momentum_6_is_fine(d20_campaign):
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=6)


def test_negative_threat_via_update_is_refused(d20_campaign):
    _breaks(lambda: Campaign.objects.filter(pk=d20_campaign.pk).update(threat=-1))


def test_personal_momentum_7_is_refused(hero):
    _breaks(lambda: Character.objects.filter(pk=hero.pk).update(momentum=7))


def test_resolve_above_resolve_max_is_refused(hero):
    _breaks(lambda: Character.objects.filter(pk=hero.pk).update(resolve=5))  # max 4


def test_lowering_resolve_max_below_resolve_is_refused(hero):
    _breaks(lambda: Character.objects.filter(pk=hero.pk).update(resolve_max=2))  # resolve 3


def test_negative_determination_is_refused(kara):
    _breaks(lambda: Character.objects.filter(pk=kara.pk).update(determination=-1))


def test_duplicate_character_name_in_a_campaign_is_refused(hero, player2):
    _breaks(lambda: Character.objects.create(campaign=hero.campaign, owner=player2, name=hero.name))


def test_duplicate_event_seq_is_refused(momenta_campaign):
    TableEvent.objects.create(campaign=momenta_campaign, seq=1, kind="x")
    _breaks(lambda: TableEvent.objects.create(campaign=momenta_campaign, seq=1, kind="y"))


def test_one_membership_per_person_and_campaign(momenta_campaign, player):
    _breaks(
        lambda: Membership.objects.create(campaign=momenta_campaign, user=player, role="observer")
    )


def test_negative_dice_are_refused(hero):
    _breaks(lambda: Attribute.objects.filter(character=hero).update(value=-1))


def test_duplicate_attribute_name_is_refused(hero):
    _breaks(lambda: hero.attributes.create(name="LUCK", value=1))

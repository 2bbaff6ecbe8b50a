"""The event log: seq is unique and gap-free per campaign; refusals append nothing (TB-04)."""

import pytest
from django.core.exceptions import PermissionDenied

from tables.models import Campaign, TableEvent
from tables.services import campaigns, sessions
from tables.services.core import ServiceError


def test_n_commands_in_a_row_get_seqs_1_to_n(d20_campaign, kara, gm, outsider):
    commands = [
        lambda: sessions.start_session(d20_campaign.pk, gm),
        lambda: sessions.start_scene(d20_campaign.pk, gm, "Ball"),
        lambda: sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 3, "bonus"),
        lambda: sessions.adjust_pool(d20_campaign.pk, gm, "threat", 2, "ominous"),
        lambda: sessions.end_scene(d20_campaign.pk, gm),
        lambda: campaigns.join_campaign(d20_campaign.invite_token, outsider, "observer"),
        lambda: campaigns.regenerate_invite(d20_campaign.pk, gm),
        lambda: campaigns.update_campaign_settings(d20_campaign.pk, gm, {"threat_visible": True}),
    ]
    for command in commands:
        command()
    seqs = list(TableEvent.objects.filter(campaign=d20_campaign).values_list("seq", flat=True))
    assert seqs == list(range(1, len(commands) + 1))
    assert Campaign.objects.get(pk=d20_campaign.pk).last_seq == len(commands)


def test_refused_commands_append_nothing(d20_campaign, kara, gm, player, outsider):
    sessions.start_session(d20_campaign.pk, gm)
    refusals = [
        (PermissionDenied, lambda: sessions.adjust_pool(d20_campaign.pk, player, "threat", 1, "x")),
        (ServiceError, lambda: sessions.adjust_pool(d20_campaign.pk, gm, "threat", -1, "spend")),
        (ServiceError, lambda: sessions.adjust_pool(d20_campaign.pk, gm, "threat", 1, "")),
        (PermissionDenied, lambda: sessions.end_scene(d20_campaign.pk, player)),
        (PermissionDenied, lambda: sessions.start_session(d20_campaign.pk, outsider)),
        (
            ServiceError,
            lambda: campaigns.join_campaign(d20_campaign.invite_token, player, "player"),
        ),
        (ServiceError, lambda: campaigns.join_campaign("bad-token", outsider, "player")),
        (PermissionDenied, lambda: campaigns.regenerate_invite(d20_campaign.pk, player)),
    ]
    for error, command in refusals:
        with pytest.raises(error):
            command()
    assert list(TableEvent.objects.values_list("seq", flat=True)) == [1]
    assert Campaign.objects.get(pk=d20_campaign.pk).last_seq == 1
    sessions.end_scene(d20_campaign.pk, gm)
    assert list(TableEvent.objects.values_list("seq", flat=True)) == [1, 2]


def test_each_campaign_counts_its_own_seqs(momenta_campaign, d20_campaign, gm):
    sessions.start_session(momenta_campaign.pk, gm)
    sessions.start_session(d20_campaign.pk, gm)
    sessions.start_session(d20_campaign.pk, gm)
    assert list(momenta_campaign.events.values_list("seq", flat=True)) == [1]
    assert list(d20_campaign.events.values_list("seq", flat=True)) == [1, 2]


def test_a_command_failing_late_rolls_back_its_earlier_writes(d20_campaign, kara, gm, monkeypatch):
    """end_scene ends the scene, takes Momentum and expires assets before it appends
    the event; if appending fails, none of that stays."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=3)

    def broken(*args, **kwargs):
        raise ServiceError("log unavailable")

    monkeypatch.setattr(sessions, "append_event", broken)
    with pytest.raises(ServiceError):
        sessions.end_scene(d20_campaign.pk, gm)
    fresh = Campaign.objects.get(pk=d20_campaign.pk)
    assert (fresh.group_momentum, fresh.last_seq) == (3, 0)
    assert kara.assets.count() == 2
    assert not fresh.scenes.exists()

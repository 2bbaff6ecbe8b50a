"""Issue 35: event lines composed from the payload when drawn, for each reader: an invite
card in the reader's language, date format and time zone (not the creator's), and the
session and scene lines in the reader's language."""

import datetime as dt
import zoneinfo

import pytest
from django.utils import timezone, translation

from tables import events
from tables.live import render as live
from tables.models import TableEvent
from tables.services import campaigns, sessions

pytestmark = pytest.mark.django_db

EXPIRES = dt.datetime(2030, 12, 1, 23, 2, tzinfo=dt.UTC)


def drawn(event, language: str, zone: str) -> str:
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo(zone)):
        return live.render_event_fragments(event, "gm")


def test_an_invite_card_reads_in_each_readers_language_format_and_zone(momenta_campaign, gm):
    campaigns.regenerate_invite(momenta_campaign.pk, gm, expires_at=EXPIRES, uses_left=3)
    event = TableEvent.objects.get(kind=events.INVITE_REGENERATED.name)
    german = drawn(event, "de", "Europe/Berlin")
    spanish = drawn(event, "es", "America/Mexico_City")
    assert "Neuer Einladungslink, gültig bis 2. Dezember 2030 00:02 und für 3 Beitritte." in german
    assert "1 de diciembre de 2030 a las 17:02" in spanish and "3 usos" in spanish
    assert "until" not in german + spanish and "Dec 2030" not in german + spanish


def test_session_and_scene_lines_read_in_the_readers_language(momenta_campaign, gm):
    sessions.start_session(momenta_campaign.pk, gm)
    sessions.start_scene(momenta_campaign.pk, gm, "Die Docks")
    pairs = {
        events.SESSION_STARTED: ("Session 1 begins.", "La séance 1 commence."),
        events.SCENE_STARTED: ("Scene 1: Die Docks", "Scène 1 : Die Docks"),
    }
    for kind, (english, french) in pairs.items():
        event = TableEvent.objects.get(kind=kind.name)
        page = drawn(event, "fr", "Europe/Paris")
        assert french in page and english not in page


def test_a_board_trait_line_reads_in_each_readers_language_whoever_wrote_it(momenta_campaign, gm):
    """Issue 35: the line was stored in the writer's language; now its sentence and values
    are stored and each reader reads their own."""
    from tables.services import scene_board

    with translation.override("es"):  # the writer's language does not matter
        added = scene_board.add_trait(momenta_campaign.pk, gm, "Fog")
        kept = scene_board.set_lasting(momenta_campaign.pk, gm, added.payload["trait_id"], True)
    assert "gm bringt auf die Tafel: „Fog“." in drawn(added, "de", "Europe/Berlin")
    assert "gm place sur le tableau : « Fog »." in drawn(added, "fr", "Europe/Paris")
    assert "SL behält über die Szene hinaus: „Fog“." in drawn(kept, "de", "Europe/Berlin")
    assert kept.payload["summary"] == "GM keeps past the scene: “Fog”."  # Discord, exports

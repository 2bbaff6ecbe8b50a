"""Rows stored before the payload models (tables/payloads.py) still read, show and travel.

The models check what is appended from now on; the log, the page and the export read
the stored JSON as it is. Each payload below is literal JSON as the code before the
models stored it, and the last two are older still: a shape the models refuse today
(a settings change listing only the fields' names; a note from before `changes`).
"""

import json

import pytest
from django.urls import reverse
from pydantic import BaseModel, ValidationError

from tables import events
from tables.exports import schema
from tables.exports.dump import dumps, export_campaign
from tables.exports.load import import_campaign
from tables.live import render as live
from tables.models import Campaign, TableEvent
from tables.presenters.table import GM

pytestmark = pytest.mark.django_db

# (kind, payload) as stored; {gm} and {hero} stand for the rows' database ids.
TODAY = [
    ("session_started", '{"number": 1, "changes": []}'),
    ("note", '{"text": "Rain on the docks", "changes": []}'),
    (
        "settings_changed",
        '{"fields": {"threat_visible": [false, true]}, "changes": []}',
    ),
    (
        "member_joined",
        '{"user": "gm", "user_id": {gm}, "role": "gm", "changes": []}',
    ),
    (
        "pool_adjusted",
        '{"pool": "momentum", "character_id": {hero}, "changes": [{"pool": "momentum", '
        '"character": "Ash", "character_id": {hero}, "delta": 1, "after": 1, "lost": 0, '
        '"reason": "A gift"}]}',
    ),
    (
        "scene_ended",
        '{"number": 1, "title": "The docks", "expired_assets": [{"asset": "Cover", '
        '"character": "Ash"}], "changes": []}',
    ),
    (
        "trauma",
        '{"character_id": {hero}, "character": "Ash", "points": 1, "creation": false, '
        '"summary": "Ash suffers 1 trauma point.", "changes": []}',
    ),
]
OLDER = [
    ("settings_changed", '{"fields": ["threat_visible"], "changes": []}'),
    ("note", '{"text": "Before the ledger"}'),
]
WORDS = [
    "Rain on the docks",
    "<strong>Ash</strong> suffers 1 trauma point",
    "Before the ledger",
    "Cover",
]


@pytest.fixture
def stored(momenta_campaign, gm, hero):
    rows = []
    for seq, (kind, text) in enumerate(TODAY + OLDER, start=1):
        text = text.replace("{gm}", str(gm.pk)).replace("{hero}", str(hero.pk))
        rows.append(
            TableEvent.objects.create(
                campaign=momenta_campaign, seq=seq, kind=kind, actor=gm, payload=json.loads(text)
            )
        )
    Campaign.objects.filter(pk=momenta_campaign.pk).update(last_seq=len(rows))
    return rows


def test_todays_payloads_fit_their_models_and_the_older_ones_do_not(stored):
    for event in stored[: len(TODAY)]:
        assert events.REGISTRY[event.kind].stored_payload(event.payload) == event.payload
    for event in stored[len(TODAY) :]:
        with pytest.raises(ValidationError):
            events.REGISTRY[event.kind].stored_payload(event.payload)


def test_every_stored_row_shows_in_the_log_and_its_push(client, stored, momenta_campaign, gm):
    client.force_login(gm)
    page = client.get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    for words in WORDS:
        assert words in page
    for event in stored:
        assert f'id="event-{event.seq}"' in page
        assert f'data-seq="{event.seq}"' in live.render_event_fragments(event, GM)


def test_every_stored_row_exports_typed_where_it_fits_and_imports_as_it_was(stored, hero):
    document = export_campaign(Campaign.objects.get(pk=stored[0].campaign_id))
    parsed = schema.CampaignExport.model_validate_json(dumps(document))
    typed = [isinstance(e.payload, BaseModel) for e in parsed.events]
    assert typed == [True] * len(TODAY) + [False] * len(OLDER)

    copy = import_campaign(dumps(document))
    moved = {hero.pk: copy.characters.get(name=hero.name).pk}  # the one id that changes
    for old, new in zip(stored, copy.events.order_by("seq"), strict=True):
        assert (new.kind, new.payload) == (old.kind, _with_characters(old.payload, moved))


def _with_characters(value, moved):
    if isinstance(value, list):
        return [_with_characters(item, moved) for item in value]
    if isinstance(value, dict):
        return {
            key: moved.get(item, item) if key == "character_id" else _with_characters(item, moved)
            for key, item in value.items()
        }
    return value

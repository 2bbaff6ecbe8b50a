"""Both tables mid-scene with everything a GM keeps back (issue 34), for the tests that
walk what a player or observer can read (tests/tables/test_deny_by_default.py, and the
sockets' copy in tests/live/test_deny_by_default.py).

A hidden board trait on each table, a secret Momenta roll and a secret 2d20 test (for
the player's *own* characters, so nothing but secrecy keeps them from that player), a
GM-only note, another player's message to the GM, called tests whose Difficulty
and opposition the GM hides, and a Threat the GM does not show. The secrets' ids are
made distinctive (far above any other id, seq or number these small tables draw), so
an id is found as surely as a text.
"""

from __future__ import annotations

import re

from django.db import connection, transaction

from rules.dice import FixedDice
from tables import events
from tables.models import (
    AssistRequest,
    Campaign,
    CustomSpend,
    D20Test,
    MomentaRoll,
    SceneTrait,
    TableEvent,
)
from tables.services import calls, momenta, scene_board, sessions, talk
from tables.services import d20 as services_d20
from tables.services.core import append_event, lock_campaign
from tables.services.momenta import RollRequest

TRAIT_TEXT = "Wyvern-nest-under-the-bridge"
NOTE_TEXT = "Marcus-is-the-traitor"
WHISPER_TEXT = "Psst-the-key-is-in-my-boot"
# The hidden calls' Difficulty 5 and 7 opposition dice, wherever a page would word them.
HIDDEN_TERMS = [
    re.compile(r"Difficulty\W*(?:<[^>]*>\W*)*5(?!\d)"),
    re.compile(r"(?<!\d)7\W*(?:<[^>]*>\W*)*opposition"),
]
# The 2d20 table's Threat, which the GM has not shown to players (MO-13).
THREAT = 4321
SECRET_IDS = {SceneTrait: 910_000, MomentaRoll: 920_000, D20Test: 930_000}


def next_ids_from(model, start: int) -> None:
    """The next row of `model` gets an id from `start` on (SQLite or PostgreSQL)."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)", [table, start]
            )
        else:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            cursor.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, start - 1]
            )


def gm_only_note(campaign, gm, text) -> TableEvent:
    """A note for the GMs alone, as the Discord service writes one (a parked webhook)."""
    with transaction.atomic():
        locked = lock_campaign(campaign.pk)
        return append_event(
            locked, events.NOTE, gm, {"text": text}, audience=TableEvent.Audience.GM
        )


def put_secrets_in_play(momenta_campaign, d20_campaign, *, gm, player2, hero, sidekick, kara):
    """Play both tables into a scene and add every secret; their ids, by what they are."""
    for campaign in (momenta_campaign, d20_campaign):
        if not campaign.play_sessions.filter(ended_at__isnull=True).exists():
            sessions.start_session(campaign.pk, gm)
            sessions.start_scene(campaign.pk, gm, "Opening")
        scene_board.add_trait(campaign.pk, gm, "Fog on the river")
    trait_ids = []
    for offset, campaign in enumerate((momenta_campaign, d20_campaign)):
        next_ids_from(SceneTrait, SECRET_IDS[SceneTrait] + offset)
        event = scene_board.add_trait(campaign.pk, gm, TRAIT_TEXT, hidden=True)
        trait_ids.append(event.payload["trait_id"])
        gm_only_note(campaign, gm, NOTE_TEXT)
        talk.post_talk(campaign.pk, player2, talk.TO_GM, WHISPER_TEXT)
    next_ids_from(MomentaRoll, SECRET_IDS[MomentaRoll])
    roll = momenta.roll_momenta(
        momenta_campaign.pk, gm, hero.pk, RollRequest(attribute="WITS", secret=True),
        rng=FixedDice([5, 5, 1, 2]),
    )  # fmt: skip
    next_ids_from(D20Test, SECRET_IDS[D20Test])
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
        rng=FixedDice([3, 4]),
    )
    d20_call = calls.call_test(
        d20_campaign.pk, gm, character_id=kara.pk, attribute="Power", skill="Communicate",
        difficulty=5, hidden=True,
    )  # fmt: skip
    calls.call_test(
        momenta_campaign.pk, gm, character_id=hero.pk, attribute="WITS", opposition_pool=7,
        hidden=True,
    )  # fmt: skip
    # Rows the walk's other routes name (an Assist, a custom spend).
    AssistRequest.objects.create(
        campaign=momenta_campaign, roller=hero, helper=sidekick, requested_by=player2
    )
    CustomSpend.objects.create(campaign=d20_campaign, name="Favour", cost=1)
    Campaign.objects.filter(pk=d20_campaign.pk, threat_visible=False).update(threat=THREAT)
    ids = {"trait": trait_ids, "roll": roll.pk, "test": test.pk, "call": d20_call.pk}
    assert trait_ids == [SECRET_IDS[SceneTrait], SECRET_IDS[SceneTrait] + 1]
    assert ids["roll"] == SECRET_IDS[MomentaRoll] and ids["test"] == SECRET_IDS[D20Test]
    return ids


def needles(ids) -> list[tuple[str, re.Pattern]]:
    """(label, pattern) of every secret's text and id, as a reader must never meet them."""
    texts = [TRAIT_TEXT, NOTE_TEXT, WHISPER_TEXT]
    numbers = [*ids["trait"], ids["roll"], ids["test"], THREAT]
    found = [(t, re.compile(re.escape(t), re.IGNORECASE)) for t in texts]
    found += [(p.pattern, p) for p in HIDDEN_TERMS]
    return found + [(str(n), re.compile(rf"(?<![0-9A-Za-z]){n}(?![0-9A-Za-z])")) for n in numbers]


def leaks_in(text: str, ids) -> list[str]:
    return [label for label, pattern in needles(ids) if pattern.search(text)]

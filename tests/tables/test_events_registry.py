"""The event registry (tables/events.py): every kind declared once, and nothing else appended.

A kind's entry is what the log, the push and the socket read; these tests hold
the entries to the templates, the model and what the services really append.
"""

import dataclasses
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from pydantic import ValidationError

from rules.dice import FixedDice
from tables import events, payloads
from tables.live import consumers
from tables.live import render as live
from tables.models import Campaign, PoolChange, TableEvent
from tables.services import (
    calls,
    campaigns,
    core,
    corrections,
    extended_tasks,
    harm,
    momenta,
    scene_board,
    sessions,
    talk,
)
from tables.services import d20 as services_d20
from tables.services import game_lines as services_lines
from tables.services import gm as services_gm
from tables.services.characters import Sheet, save_character
from tables.services.conflicts import turns

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def own_templates(folder: str) -> set[str]:
    """The templates in tables/partials/<folder>/ but the fallbacks, by name."""
    fallbacks = {"generic", "none"}
    return {p.stem for p in (TEMPLATES / "tables/partials" / folder).glob("*.html")} - fallbacks


# --- The entries ---------------------------------------------------------------------------


def test_every_kind_has_a_label_and_templates_that_exist():
    for kind in events.REGISTRY.values():
        assert kind.label.strip(), kind.name
        for name in (*kind.log_templates, *kind.push_templates):
            assert (TEMPLATES / name).is_file(), f"{kind.name}: {name} is missing"
    assert live.kind_label("d20_spend") == "Momentum spent"  # the seeds' names, no line
    assert live.kind_label("momenta_patterns") == "Patterns chosen"


def test_every_event_or_push_template_is_named_by_an_entry():
    """A template is used only if an entry names it: none lies unused."""
    declared_log = {k.log_template for k in events.REGISTRY.values()} - {None}
    declared_push = {k.push_template for k in events.REGISTRY.values()} - {None}
    assert own_templates("events") == declared_log
    assert own_templates("push") == declared_push


def test_kinds_drawn_alike_share_one_template():
    """A later event about a 2d20 test pushes the test's state, whichever it is; both
    answers to an Assist push the Assist's (partials/push/d20_test.html, assist.html)."""
    about_a_test = {k.name for k in events.REGISTRY.values() if k.push_template == "d20_test"}
    assert about_a_test == {
        "d20_reroll", "d20_spend", "d20_refund", "d20_veto", "d20_resolved",
        "contest_resolved", "determination_permitted",
    }  # fmt: skip
    assert events.ASSIST_ANSWERED.push_templates == events.ASSIST_CONSENT.push_templates
    assert events.D20_VETO.log_templates[0] == "tables/partials/events/d20_spend.html"
    assert events.THREAT_ADDED.log_templates == events.THREAT_SPENT.log_templates
    assert events.CONTEST_CANCELLED.log_templates == ("tables/partials/events/generic.html",)


def test_entries_name_only_known_regions_records_and_audiences():
    for kind in events.REGISTRY.values():
        assert {events.LOG, events.POOLS} <= kind.regions <= events.REGIONS, kind.name
        assert set(kind.records) <= set(events.RECORD_KEYS), kind.name
        assert kind.audience in events.AUDIENCE_RULES, kind.name
        assert events.REGISTRY[kind.name] is kind
    with pytest.raises(ValueError, match="unknown regions"):
        events.EventKind("x", "X", regions=frozenset({"sidebar"}))


@pytest.mark.django_db
def test_table_event_kind_choices_are_the_registry_and_migrated():
    field = TableEvent._meta.get_field("kind")
    assert field.choices == events.choices()
    assert [name for name, _ in field.choices] == list(events.REGISTRY)
    call_command("makemigrations", "tables", "--check", "--dry-run", verbosity=0)


@pytest.fixture
def new_kind():
    """A kind added to the registry, as a new entry in tables/events.py would be."""
    kind = events._kind("meteor_strike", "Meteor strike", payload=payloads.Note)
    yield kind
    del events.REGISTRY[kind.name]


@pytest.mark.django_db
def test_a_new_kind_needs_no_migration(new_kind, momenta_campaign):
    """The model holds the registry's `choices` itself, not a copy: migrations name the
    callable, so a kind added to the registry is a valid choice with no migration."""
    field = TableEvent._meta.get_field("kind")
    assert field.deconstruct()[3]["choices"] is events.choices
    assert ("meteor_strike", "Meteor strike") in list(field.choices)
    call_command("makemigrations", "tables", "--check", "--dry-run", verbosity=0)
    event = _append(momenta_campaign, new_kind)
    event.full_clean()  # the stored kind passes the field's choices


def test_the_socket_rechecks_membership_after_the_kinds_that_change_it():
    assert consumers.MEMBERSHIP_KINDS == {"member_joined", "member_removed", "member_promoted"}


# --- append_event takes entries, never strings ---------------------------------------------


def _append(campaign, kind, payload=None, **options):
    with transaction.atomic():
        locked = core.lock_campaign(campaign.pk)
        return core.append_event(locked, kind, None, payload or {"text": "x"}, **options)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind, error",
    [
        ("note", TypeError),
        (None, TypeError),
        (events.EventKind("mystery", "Mystery"), ValueError),
        (dataclasses.replace(events.NOTE, label="Forged note"), ValueError),
    ],
    ids=["string", "none", "unregistered", "copy-of-an-entry"],
)
def test_append_event_refuses_anything_but_a_registry_entry(momenta_campaign, kind, error):
    with pytest.raises(error):
        _append(momenta_campaign, kind)
    momenta_campaign.refresh_from_db()
    assert momenta_campaign.last_seq == 0 and not TableEvent.objects.exists()
    assert _append(momenta_campaign, events.NOTE).kind == "note"


@pytest.mark.django_db
def test_tb_03_a_gm_only_kind_is_never_appended_for_everyone(momenta_campaign):
    with pytest.raises(ValueError, match="GM only"):
        _append(momenta_campaign, events.INVITE_REGENERATED)
    assert not TableEvent.objects.exists()
    link = {"expires_at": None, "uses_left": None, "summary": "New link"}
    assert (
        _append(momenta_campaign, events.INVITE_REGENERATED, link, audience="gm").audience == "gm"
    )


# --- What the services really append -------------------------------------------------------


def play_everything(d6, d20, gm, player, player2, hero, sidekick, kara, marcus, outsider):
    """One of every command that appends an event, in both systems."""
    campaigns.create_campaign(gm, "Scratch", "momenta")
    sessions.start_session(d6.pk, gm)
    sessions.start_scene(d6.pk, gm, "The docks")
    sessions.post_note(d6.pk, gm, "Rain")
    talk.post_talk(d6.pk, player, talk.IN_CHARACTER, "Wet again")
    talk.post_talk(d6.pk, player, talk.TO_GM, "I pocket the key")
    talk.post_talk(d6.pk, player, talk.WHISPER, "Follow me", recipient_id=player2.pk)
    gift = sessions.adjust_pool(d6.pk, gm, "momentum", 1, "A gift", character_id=hero.pk)
    corrections.void_event(d6.pk, gm, gift.seq, "Wrong hero")
    fog = scene_board.add_trait(d6.pk, gm, "Fog").payload["trait_id"]
    scene_board.hide_trait(d6.pk, gm, fog)
    scene_board.reveal_trait(d6.pk, gm, fog)
    turns.start_conflict(d6.pk, gm, [hero.pk, sidekick.pk])  # issue 24
    turns.end_conflict(d6.pk, gm)
    sessions.end_scene(d6.pk, gm)
    campaigns.update_campaign_settings(d6.pk, gm, {"threat_visible": True})
    campaigns.regenerate_invite(d6.pk, gm)
    joined = campaigns.join_campaign(
        Campaign.objects.get(pk=d6.pk).invite_token, outsider, "player"
    )
    campaigns.promote_member(d6.pk, gm, joined.pk)
    campaigns.remove_member(d6.pk, gm, joined.pk)
    cass = save_character(d6.pk, player, Sheet(fields={"name": "Cass", "notes": "", "resolve": 2,
                                                       "resolve_max": 3}))  # fmt: skip
    save_character(d6.pk, player, Sheet(fields={"name": "Cassie", "notes": "", "resolve": 2,
                                                "resolve_max": 3}), cass.pk)  # fmt: skip

    template = momenta.save_roll_template(
        d6.pk, gm, {"name": "Hack", "bands": ["Alarm", "Slow", "In", "Root"], "overflow": "+1"}
    )
    momenta.delete_roll_template(d6.pk, gm, template.payload["template_id"])
    momenta.save_custom_pattern(
        d6.pk, gm, {"name": "Lucky Streak", "kind": "quad", "effect": "text", "description": "C"}
    )
    assist = momenta.request_assist(d6.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(d6.pk, gm, assist.pk, "decline")
    asked = momenta.request_assist(d6.pk, player, hero.pk, sidekick.pk)  # Bo's player answers
    momenta.answer_as_helper(d6.pk, player2, asked.pk, agree=False)
    Campaign.objects.filter(pk=d6.pk).update(players_declare_edges=True)  # player's trauma
    wits = momenta.RollRequest(attribute="WITS")
    waiting = momenta.roll_momenta(d6.pk, player, hero.pk, wits, rng=FixedDice([5, 5, 1, 2]))
    momenta.choose_allocation(d6.pk, player, waiting.pk, None)
    secret = momenta.RollRequest(attribute="WITS", secret=True)
    hidden = momenta.roll_momenta(d6.pk, gm, hero.pk, secret, rng=FixedDice([5, 5, 1, 2]))
    momenta.reveal_roll(d6.pk, gm, hidden.pk)
    momenta.record_trauma(d6.pk, player, hero.pk, 1)

    sessions.start_session(d20.pk, gm)
    services_gm.add_threat(d20.pk, gm, 2, "Ambush")
    services_gm.spend_threat(d20.pk, gm, 1, "Reinforcements")
    services_gm.save_custom_spend(d20.pk, gm, name="Called Shot", cost=2)
    services_gm.delete_custom_spend(
        d20.pk, gm, d20.custom_spends.get(name="Called Shot").pk
    )  # fmt: skip
    test = services_d20.roll_d20_test(
        d20.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
        rng=FixedDice([2, 5]),
    )
    services_gm.permit_determination(d20.pk, gm, test.pk)
    services_d20.determination_reroll(d20.pk, player, test.pk, [1], rng=FixedDice([3]))
    for _ in range(2):
        services_d20.spend_momentum(d20.pk, player, test.pk, "obtain_information")
    services_d20.refund_dont_know(d20.pk, gm, test.pk, 0)
    services_d20.veto_spend(d20.pk, gm, test.pk, 1)
    services_d20.resolve_test(d20.pk, player, test.pk)
    hidden_test = services_d20.roll_d20_test(
        d20.pk,
        gm,
        marcus.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=0, secret=True
        ),
        rng=FixedDice([2, 5]),
    )
    services_gm.reveal_test(d20.pk, gm, hidden_test.pk)
    contest = services_d20.contest_opposer_roll(
        d20.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([3, 4]),
    )  # fmt: skip
    services_d20.cancel_contest(d20.pk, gm, contest.pk)
    contest = services_d20.contest_opposer_roll(
        d20.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([3, 4]),
    )  # fmt: skip
    answer = services_d20.roll_d20_test(
        d20.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", difficulty=0, contest_id=contest.pk
        ),
        rng=FixedDice([2, 5]),
    )
    services_d20.resolve_test(d20.pk, player, answer.pk)
    # A contest nobody answers before its scene ends, won by the opposer (CT-R2's setting).
    campaigns.update_campaign_settings(d20.pk, gm, {"contest_at_scene_end": "opposer_wins"})
    sessions.start_scene(d20.pk, gm, "Tortuga")
    services_d20.contest_opposer_roll(
        d20.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([3, 4]),
    )  # fmt: skip
    sessions.end_scene(d20.pk, gm)
    # Called tests (services/calls.py): called, withdrawn, called again and answered.
    kw = {"attribute": "Power", "skill": "Communicate", "difficulty": 1, "hidden": True}
    withdrawn = calls.call_test(d20.pk, gm, character_id=kara.pk, **kw)
    calls.cancel_call(d20.pk, gm, withdrawn.pk)
    called = calls.call_test(d20.pk, gm, character_id=None, **kw)
    calls.answer_d20_call(d20.pk, player, called.pk, kara.pk, rng=FixedDice([2, 5]))
    # 2d20 game lines (services/game_lines.py): a line with Challenge dice, a scene's range.
    campaigns.update_campaign_settings(d20.pk, gm, {"game_line": "sta1"})
    sessions.start_scene(d20.pk, gm, "The bridge")
    services_lines.set_scene_complication_range(d20.pk, gm, 3)
    dice = FixedDice([1, 5])
    dice_seq = services_lines.roll_challenge_dice(
        d20.pk, player, 2, character_id=kara.pk, rng=dice
    ).seq
    # Harm tracks and extended tasks (services/harm.py, services/extended_tasks.py).
    harm.set_track(d20.pk, gm, marcus.pk, "stress", 8)
    harm.set_track(d20.pk, gm, marcus.pk, "injuries", 2)
    hit = services_d20.roll_d20_test(
        d20.pk,
        player,
        kara.pk,
        # An attack named at Marcus in the composer, 1 Momentum for Bonus Damage (SC-02).
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", target_id=marcus.pk),
        rng=FixedDice([3, 4]),
    )
    services_d20.spend_momentum(d20.pk, player, hit.pk, "bonus_damage", from_pool=0)
    harm.apply_d20_hit(d20.pk, gm, hit.pk, track="stress", total=2)
    harm.recover(d20.pk, gm, marcus.pk, "stress", 1, "A breather")
    task = extended_tasks.create_task(d20.pk, gm, "Scan", work=5, magnitude=1)
    extended_tasks.link_roll(
        d20.pk, player, task.payload["task_id"], hit.pk, challenge_seq=dice_seq
    )


@pytest.fixture
def played(request, momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick):
    kara, marcus, outsider = (request.getfixturevalue(n) for n in ("kara", "marcus", "outsider"))
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    play_everything(
        momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick, kara, marcus, outsider
    )
    return list(TableEvent.objects.order_by("campaign_id", "seq"))


@pytest.mark.django_db
def test_every_kind_the_services_append_is_registered_and_every_kind_is_appended(played):
    appended = {e.kind for e in played}
    assert appended - set(events.REGISTRY) == set()
    # The scenario is broad: every kind a service can append turns up (secret_roll
    # is a plain GM-only kind no service appends).
    assert set(events.REGISTRY) - appended == {"secret_roll"}


@pytest.mark.django_db
def test_each_event_is_about_the_record_and_audience_its_kind_declares(played):
    for event in played:
        kind = events.REGISTRY[event.kind]
        entry = live.log_entry(event, Campaign.objects.get(pk=event.campaign_id), "gm")
        assert (entry.record is not None) == bool(kind.records), event.kind
        names = {key for key in events.RECORD_KEYS.values() if key in event.payload}
        assert bool(names) == bool(kind.records), event.kind
        if kind.audience == events.ALL:
            assert event.audience == "all", event.kind
        if kind.audience in (events.GM_ONLY, events.PRIVATE):
            assert event.audience == "gm", event.kind


@pytest.mark.django_db
def test_an_event_that_moves_a_characters_pool_declares_the_cards_it_refreshes(played):
    for event in played:
        touched = any(c.get("character_id") for c in event.payload.get("changes") or [])
        if touched or event.payload.get("character_id"):
            regions = events.REGISTRY[event.kind].regions
            assert regions & {events.CHARACTER_CARDS, events.CHARACTERS}, event.kind


# --- The push reads the registry -----------------------------------------------------------


@pytest.mark.django_db
def test_a_kind_that_refreshes_all_characters_pushes_the_whole_list(
    momenta_campaign, gm, hero, sidekick
):
    started = sessions.start_session(momenta_campaign.pk, gm)  # every card gains Momentum
    assert events.CHARACTERS in events.SESSION_STARTED.regions
    event = TableEvent.objects.get(campaign=momenta_campaign, kind="session_started")
    html = live.render_event_fragments(event, "all")
    assert '<section id="characters" class="characters" hx-swap-oob="true"' in html
    assert started.number == 1
    note = sessions.post_note(momenta_campaign.pk, gm, "Only words")
    html = live.render_event_fragments(note, "all")
    assert 'id="characters"' not in html and f'id="character-{hero.pk}"' not in html


# --- Typed payloads (tables/payloads.py) ---------------------------------------------------


def test_every_kind_names_a_payload_model_of_its_own_kind():
    for kind in events.REGISTRY.values():
        assert kind.payload is not payloads.Payload, f"{kind.name} declares no payload model"
    # Kinds that carry the same thing share one model, and so one adapter, built once.
    assert events.D20_VETO.payload is events.D20_SPEND.payload
    assert events.D20_VETO.adapter is events.D20_SPEND.adapter


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind, payload, error",
    [
        (events.NOTE, {"txet": "Rain"}, "txet\n  Extra inputs are not permitted"),
        (events.SESSION_STARTED, {"number": "three"}, "number\n  Input should be a valid int"),
        (events.MEMBER_JOINED, {"user": "sam", "role": "player"}, "user_id\n  Field required"),
        (events.CHALLENGE_ROLL, {}, "dice_name\n  Field required"),
    ],
    ids=["unknown-key", "mistyped-value", "missing-key", "empty"],
)
def test_append_event_refuses_a_payload_its_model_does_not_allow(
    momenta_campaign, hero, kind, payload, error
):
    momentum = hero.momentum
    with pytest.raises(ValidationError, match=error):
        with transaction.atomic():  # the command's transaction: the pool change goes too
            locked = core.lock_campaign(momenta_campaign.pk)
            gift = core.change_pool(locked, "momentum", 1, "gift", character=hero)
            core.append_event(locked, kind, None, payload, changes=[gift])
    momenta_campaign.refresh_from_db()
    hero.refresh_from_db()
    assert momenta_campaign.last_seq == 0 and not TableEvent.objects.exists()
    assert hero.momentum == momentum and not PoolChange.objects.exists()


@pytest.mark.django_db
def test_a_payload_is_stored_with_the_keys_its_service_gave(momenta_campaign, gm):
    """An optional key left out stays out: readers test for keys. (Key order is not kept:
    PostgreSQL's jsonb stores keys in an order of its own.)"""
    with transaction.atomic():
        locked = core.lock_campaign(momenta_campaign.pk)
        note = core.append_event(locked, events.NOTE, gm, {"summary": "Discord: set."})
    note.refresh_from_db()
    assert note.payload == {"summary": "Discord: set.", "changes": []}


@pytest.mark.django_db
def test_every_payload_the_services_append_is_stored_as_its_model_reads_it(played):
    for event in played:
        kind = events.REGISTRY[event.kind]
        assert kind.stored_payload(event.payload) == event.payload, event.kind

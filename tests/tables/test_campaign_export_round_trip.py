"""Export, import, export again: the same document (issue 15, "Export, import, backups").

The campaigns: the demo's two (seed_demo) after play through the services (rolls,
an Assist, Resolve refunds, pool changes, a secret roll kept secret, a contest),
and the events-registry scenario, which appends one of every kind of event (so a
kind added there is exported here too). Every database id starts at ID_FLOOR, so a
database id the export forgets to turn into a document id stands out.
"""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from rules.dice import FixedDice
from tables import events
from tables.exports.dump import dumps, export_campaign
from tables.exports.load import import_campaign
from tables.exports.tables import CAMPAIGN, TABLES
from tables.models import Campaign, Character, D20Test, MomentaRoll, TableEvent
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services import momenta, sessions
from tables.services.momenta import RollRequest
from tests.tables.test_events_registry import play_everything

ID_FLOOR = 500_000
ALL_MODELS = [
    get_user_model(),
    CAMPAIGN.model,
    *(t.model for t in TABLES),
    *(c.model for t in TABLES for c in t.children),
]


def _start_ids_at(floor: int) -> None:
    """Make every new row's database id larger than `floor` (no document id gets near)."""
    with connection.cursor() as cursor:
        for model in ALL_MODELS:
            table = model._meta.db_table
            if connection.vendor == "sqlite":  # AUTOINCREMENT: the next id is seq + 1
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, floor]
                )
            elif connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, floor]
                )
            else:
                pytest.skip(f"no id sequence recipe for {connection.vendor}")


@pytest.fixture(autouse=True)
def high_ids(db):
    _start_ids_at(ID_FLOOR)


def play_the_salt_roads(c, users):
    gm, alice, bob = users["gm"], users["alice"], users["bob"]
    iska, dorran, mira, toll = (
        c.characters.get(name=n)
        for n in ("Iska Vell", "Dorran Coil", "Mira Thane", "The Tollkeeper")
    )
    sessions.start_session(c.pk, gm)
    sessions.start_scene(c.pk, gm, "The toll bridge")
    # PM-05: a Boon's Advantage paid from Iska's Momentum; patterns chosen after.
    boon = RollRequest(attribute="WITS", advantage_sources=["boon"])
    first = momenta.roll_momenta(c.pk, alice, iska.pk, boon, rng=FixedDice([5, 5, 2, 3, 1]))
    momenta.choose_allocation(c.pk, alice, first.pk, None)
    # PM-08, RS-01, PAT-08: Dorran's Assist (his player offers it), Resolve from both;
    # Effortless gives Dorran his back.
    assist = momenta.request_assist(c.pk, bob, iska.pk, dorran.pk)
    momenta.answer_assist(c.pk, gm, assist.pk, "accept")
    helped = RollRequest(
        attribute="WITS", assist_id=assist.pk, resolve_spend=[(iska.pk, 1), (dorran.pk, 1)]
    )
    third = momenta.roll_momenta(c.pk, alice, iska.pk, helped, rng=FixedDice([3, 3, 3, 5, 6]))
    momenta.choose_allocation(c.pk, alice, third.pk, [("Effortless", 3)], refund_to=[dorran.pk])
    # TB-03: one secret roll revealed, one kept secret and still awaiting its patterns.
    shown = RollRequest(attribute="AGILITY", secret=True)
    revealed = momenta.roll_momenta(c.pk, gm, mira.pk, shown, rng=FixedDice([6, 4, 2, 1]))
    momenta.reveal_roll(c.pk, gm, revealed.pk)
    hidden = RollRequest(attribute="PRESENCE", secret=True)
    momenta.roll_momenta(c.pk, gm, toll.pk, hidden, rng=FixedDice([6, 6, 1, 2]))
    sessions.adjust_pool(c.pk, gm, "momentum", 1, "A clever plan", character_id=mira.pk)
    momenta.record_trauma(c.pk, gm, dorran.pk, 2)
    sessions.post_note(c.pk, gm, "The bridge creaks.")
    momenta.save_custom_pattern(
        c.pk, gm, {"name": "Salt Luck", "kind": "quad", "effect": "text", "description": "Gift"}
    )
    made = momenta.save_roll_template(
        c.pk, gm, {"name": "Haggle", "bands": ["No", "Pricey", "Fair", "Steal"], "overflow": "+1"}
    )
    # The log keeps naming a template that is gone: its reference becomes null.
    momenta.delete_roll_template(c.pk, gm, made.payload["template_id"])
    sessions.end_scene(c.pk, gm)


def play_house_intrigue(c, users):
    gm, alice, bob = users["gm"], users["alice"], users["bob"]
    kara, anna, dastan, marcus = (
        c.characters.get(name=n) for n in ("Kara", "Anna", "Dastan", "Marcus")
    )
    sessions.start_session(c.pk, gm)
    sessions.start_scene(c.pk, gm, "The ballroom")
    test = services_d20.roll_d20_test(
        c.pk,
        alice,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power",
            skill="Communicate",
            focus="Persuasion",
            assistants=[(anna.pk, "Power", "Communicate")],
        ),
        rng=FixedDice([3, 4, 15]),
    )
    services_d20.spend_momentum(c.pk, alice, test.pk, "create_asset", note="A loyal footman")
    services_d20.resolve_test(c.pk, alice, test.pk)
    services_gm.add_threat(c.pk, gm, 2, "The guards are alert")
    services_gm.save_custom_spend(c.pk, gm, name="Disarm", cost=2, description="Drop it")
    # TB-03: the GM's secret test stays secret.
    services_d20.roll_d20_test(
        c.pk,
        gm,
        marcus.pk,
        services_d20.D20TestRequest(attribute="Truth", skill="Understand", secret=True),
        rng=FixedDice([1, 19]),
    )
    contest = services_d20.contest_opposer_roll(
        c.pk, gm, marcus.pk, dastan.pk, attribute="Power", skill="Battle", rng=FixedDice([3, 4])
    )
    answer = services_d20.roll_d20_test(
        c.pk,
        bob,
        dastan.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Battle", contest_id=contest.pk),
        rng=FixedDice([2, 5]),
    )
    services_d20.resolve_test(c.pk, bob, answer.pk)
    sessions.adjust_pool(c.pk, gm, "group_momentum", 1, "Good teamwork")


@pytest.fixture
def played_campaigns(request, momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick):
    """The demo's campaigns and the registry scenario's, all played."""
    call_command("seed_demo", stdout=StringIO())
    users = {u.username: u for u in get_user_model().objects.all()}
    play_the_salt_roads(Campaign.objects.get(name__startswith="The Salt Roads"), users)
    play_house_intrigue(Campaign.objects.get(name__startswith="House Intrigue"), users)
    kara, marcus, outsider = (request.getfixturevalue(n) for n in ("kara", "marcus", "outsider"))
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    play_everything(
        momenta_campaign, d20_campaign, gm, player, player2, hero, sidekick, kara, marcus, outsider
    )
    return list(Campaign.objects.order_by("pk"))


def large_ints(value, where=""):
    """Paths of integers at or above ID_FLOOR: database ids the export let through."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in large_ints(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in large_ints(v, f"{where}[{i}]")]
    if isinstance(value, int) and not isinstance(value, bool) and value >= ID_FLOOR:
        return [f"{where} = {value}"]
    return []


def campaign_rows() -> dict[str, int]:
    models = [m for m in ALL_MODELS if m is not get_user_model()]
    return {m.__name__: m.objects.count() for m in models}


@pytest.mark.django_db
def test_exporting_importing_and_exporting_again_gives_the_same_document(played_campaigns):
    documents = [export_campaign(c) for c in played_campaigns]
    assert len(documents) == 5  # the demo's two, the fixtures' two, the scenario's scratch
    assert [large_ints(d) for d in documents] == [[]] * len(documents)
    # The registry scenario appends every kind a service can: each kind's payload went through.
    exported_kinds = {e["kind"] for d in documents for e in d["events"]}
    assert exported_kinds == set(TableEvent.objects.values_list("kind", flat=True))
    assert len(exported_kinds) >= len(events.REGISTRY) - 1
    # Harm tracks, their ledger and extended tasks travel too (issue 24, SC-02, SC-03).
    for key in ("harm_tracks", "harm_entries", "extended_tasks", "extended_task_rolls"):
        assert any(d[key] for d in documents), key

    # An empty database but for the people: every campaign row goes.
    texts = [dumps(d) for d in documents]
    Campaign.objects.all().delete()
    assert set(campaign_rows().values()) == {0}

    imported = [import_campaign(text) for text in texts]
    again = [export_campaign(c) for c in imported]
    assert again == documents
    assert [dumps(d) for d in again] == texts
    old_ids = {c.pk for c in played_campaigns}
    assert not old_ids & {c.pk for c in imported}


@pytest.mark.django_db
def test_an_imported_campaign_points_at_its_own_rows_and_plays_on(played_campaigns):
    source = next(c for c in played_campaigns if c.name.startswith("The Salt Roads"))
    document = export_campaign(source)
    copy = import_campaign(dumps(document))

    # Every event's record, and every character named in a payload, is the copy's own.
    for event in TableEvent.objects.filter(campaign=copy):
        found = events.REGISTRY[event.kind].record_of(event.payload)
        if found:
            model = {"test": D20Test, "roll": MomentaRoll}.get(found[0])
            if model is not None:
                assert model.objects.get(pk=found[1]).campaign_id == copy.pk
        if "character_id" in event.payload:
            character = Character.objects.get(pk=event.payload["character_id"])
            assert character.campaign_id == copy.pk
    (roll,) = [r for r in copy.momenta_rolls.all() if len(r.spec["resolve_spent"]) == 2]
    spenders = {who for who, _ in roll.spec["resolve_spent"]}
    assert spenders == {who for who, _ in roll.applied["refunds"]} | {roll.character_id}
    assert spenders == set(
        copy.characters.filter(name__in=["Iska Vell", "Dorran Coil"]).values_list("pk", flat=True)
    )
    # A new invite link, the same settings and pools.
    assert copy.invite_token != source.invite_token
    assert (copy.last_seq, copy.owner_id) == (source.last_seq, source.owner_id)

    # The secret roll awaiting its patterns is still the GM's to finish, on the copy.
    hidden = MomentaRoll.objects.get(campaign=copy, secret=True, revealed=False)
    assert hidden.awaiting and hidden.event.audience == "gm"
    gm = get_user_model().objects.get(username="gm")
    event = momenta.choose_allocation(copy.pk, gm, hidden.pk, None)
    assert event.seq == source.last_seq + 1 and event.audience == "gm"
    event = momenta.reveal_roll(copy.pk, gm, hidden.pk)
    assert event.seq == source.last_seq + 2
    # The source is untouched by what the copy does.
    assert MomentaRoll.objects.get(campaign=source, secret=True, revealed=False).awaiting


@pytest.mark.django_db
def test_the_secret_rolls_are_in_the_gms_backup(played_campaigns):
    documents = [export_campaign(c) for c in played_campaigns]
    rolls = [r for d in documents for r in d["momenta_rolls"] if r["secret"] and not r["revealed"]]
    tests = [t for d in documents for t in d["d20_tests"] if t["secret"] and not t["revealed"]]
    assert rolls and tests
    seqs = {r["event"] for r in rolls}
    gm_only = {e["seq"] for d in documents for e in d["events"] if e["audience"] == "gm"}
    assert seqs <= gm_only

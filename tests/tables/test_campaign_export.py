"""The campaign document: its published schema, what it covers, and every way an import
is refused (issue 15, "Export, import, backups"). The round trip itself is in
test_campaign_export_round_trip.py; the download in test_campaign_export_views.py."""

import dataclasses
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pydantic import create_model

from rules.dice import FixedDice
from tables import events
from tables.exports import refs, schema
from tables.exports import tables as export_tables
from tables.exports.dump import dumps, export_campaign
from tables.exports.load import ImportRefused, import_campaign
from tables.models import Campaign, TableEvent
from tables.services import momenta, sessions
from tables.services.momenta import RollRequest

MODELS = [
    get_user_model(),
    export_tables.CAMPAIGN.model,
    *(t.model for t in export_tables.TABLES),
    *(c.model for t in export_tables.TABLES for c in t.children),
]


def row_counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


# --- The schema and what the document covers ------------------------------------------------


def test_the_published_schema_is_the_one_the_models_make():
    """docs/campaign-export.schema.json is regenerated with `python -m tables.exports.schema`."""
    assert schema.SCHEMA_PATH.read_text() == schema.schema_text()


@pytest.mark.django_db
def test_the_schema_publishes_each_kinds_payload_and_reads_an_older_one_as_any_object():
    published = schema.json_schema()
    defs = published["$defs"]
    members = [
        m["$ref"].rsplit("/", 1)[1] for m in published["properties"]["events"]["items"]["oneOf"]
    ]
    by_kind = {defs[m]["properties"]["kind"].get("const"): defs[m] for m in members}
    assert set(by_kind) == {*events.REGISTRY, None}  # None: a kind this version does not know
    assert by_kind[None]["properties"]["kind"]["not"] == {"enum": list(events.REGISTRY)}
    for name in events.REGISTRY:
        typed, older = by_kind[name]["properties"]["payload"]["anyOf"]
        assert older == {"additionalProperties": True, "type": "object"}, name
        for ref in [typed] if "$ref" in typed else typed["oneOf"]:
            payload = defs[ref["$ref"].rsplit("/", 1)[1]]
            assert payload["additionalProperties"] is False, name
            assert "changes" in payload["required"], name
    spend = defs["D20SpendPayload"]["properties"]
    assert set(spend) == {"test_id", "character_id", "character", "spend", "ledger", "summary",
                          "asset", "trait", "changes", "summary_words"}  # fmt: skip
    # In the document a reference is a document id, or null where the row is gone.
    assert spend["character_id"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]


def test_every_field_of_every_campaign_model_is_exported_or_excluded_with_a_reason():
    assert export_tables.coverage_problems() == []


def test_a_model_field_missing_from_the_document_is_a_problem(monkeypatch):
    """What a new Campaign field with no place in the document looks like to the guard."""
    fields = {
        name: (info.annotation, info)
        for name, info in schema.CampaignSettings.model_fields.items()
        if name != "players_declare_edges"
    }
    older = create_model("OlderSettings", __base__=schema.Strict, **fields)
    monkeypatch.setattr(
        export_tables, "CAMPAIGN", dataclasses.replace(export_tables.CAMPAIGN, doc=older)
    )
    assert export_tables.coverage_problems() == [
        "Campaign.players_declare_edges is in neither tables/exports/schema.py (OlderSettings) "
        "nor Campaign's exclusions in tables/exports/tables.py"
    ]


def test_a_model_of_the_app_that_no_table_exports_is_a_problem(monkeypatch):
    monkeypatch.setattr(export_tables, "NOT_CAMPAIGN_DATA", {})
    assert export_tables.coverage_problems() == [
        "PersonSettings is not exported: add it to TABLES or NOT_CAMPAIGN_DATA "
        "in tables/exports/tables.py",
    ]


@pytest.mark.django_db
def test_an_id_in_a_payload_under_a_key_the_export_does_not_know_stops_the_export(
    momenta_campaign,
):
    """A service that starts storing a new kind of row id must say what it refers to."""
    TableEvent.objects.create(
        campaign=momenta_campaign, seq=1, kind="note", payload={"text": "x", "scene_id": 4}
    )
    Campaign.objects.filter(pk=momenta_campaign.pk).update(last_seq=1)
    with pytest.raises(refs.UnknownReference, match=r"events\[0\]\.payload\.scene_id"):
        export_campaign(momenta_campaign)


# --- Refusals: each changes nothing ----------------------------------------------------------


@pytest.fixture
def document(momenta_campaign, gm, player, hero):
    """A small played campaign's document: a roll by the player, a pool change."""
    sessions.start_session(momenta_campaign.pk, gm)
    wits = RollRequest(attribute="WITS")
    momenta.roll_momenta(momenta_campaign.pk, player, hero.pk, wits, rng=FixedDice([5, 5, 1, 2]))
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 1, "A gift", character_id=hero.pk)
    return export_campaign(momenta_campaign)


def refused(text, **options) -> str:
    """The refusal's message; asserts that no row of any kind was added or removed."""
    before = row_counts()
    with pytest.raises(ImportRefused) as caught:
        import_campaign(text, **options)
    assert row_counts() == before
    assert str(caught.value).startswith("Import refused, nothing was changed: ")
    return str(caught.value)


def edited(document, change) -> str:
    copy = json.loads(json.dumps(document))
    change(copy)
    return json.dumps(copy)


@pytest.mark.django_db
def test_the_document_imports(document):
    before = row_counts()
    copy = import_campaign(dumps(document))
    assert copy.name == document["campaign"]["name"]
    assert row_counts()["Campaign"] == before["Campaign"] + 1
    assert row_counts()["User"] == before["User"]


@pytest.mark.django_db
def test_an_event_whose_payload_predates_its_kinds_model_imports_as_it_was(document):
    """Older files are read as written: a session start from before `changes`."""
    assert document["events"][0]["kind"] == "session_started"
    older = edited(document, _set(["events", 0, "payload"], {"number": 1}))
    copy = import_campaign(older)
    assert copy.events.get(seq=document["events"][0]["seq"]).payload == {"number": 1}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "the file is not JSON"),
        (b"\xff\xfe\x00", "the file is not JSON"),
        ("[1, 2]", "the file is not a campaign export"),
        ("[" * 100_000, "the file is not JSON"),
        ('{"format": "something-else", "version": 1}', "the file is not a campaign export"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(document, text, message):
    assert message in refused(text)


@pytest.mark.django_db
def test_a_newer_version_is_refused_with_what_to_do(document):
    """Even one that would pass the schema otherwise: a newer writer may mean more."""
    message = refused(edited(document, lambda d: d.update(version=2)))
    assert "version 2, made by a newer Momenta Table" in message
    assert "reads up to version 1: upgrade it first" in message


def _set(path, value):
    def change(doc):
        *parents, last = path
        target = doc
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def _drop(path):
    def change(doc):
        *parents, last = path
        target = doc
        for key in parents:
            target = target[key]
        del target[last]

    return change


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (_drop(["events"]), "events: Field required"),
        (_set(["version"], 0), "version: Input should be 1"),
        # The schema says `const 1`: not a number equal to it (issue 26).
        (_set(["version"], 1.0), "version: Input should be 1"),
        (_set(["version"], True), "version: Input should be 1"),
        (_set(["version"], 2.0), "version: Input should be 1"),
        (_set(["characters", 0, "momentum"], "3"), "characters[0].momentum: Input should be"),
        (_set(["characters", 0, "resolve"], -1), "characters[0].resolve: Input should be greater"),
        (_set(["characters", 0, "colour"], "red"), "characters[0].colour: Extra inputs"),
        (_set(["members", 0, "user"], None), "members[0].user: Input should be a valid string"),
        (_set(["events", 0, "created_at"], "yesterday"), "events[0].created_at: Input should"),
        (_set(["momenta_rolls", 0, "secret"], 1), "momenta_rolls[0].secret: Input should be"),
    ],
)
def test_a_file_that_fails_the_schema_is_refused_with_where(document, change, message):
    assert message in refused(edited(document, change))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (_set(["pool_changes", 0, "character"], 99), "pool_changes[0].character: there is no "
         "characters id 99 in the file"),
        (_set(["pool_changes", 0, "event"], 99), "pool_changes[0].event: there is no event #99"),
        (_set(["momenta_rolls", 0, "character"], 2), "there is no characters id 2"),
        (_set(["events", 1, "payload", "character_id"], 7), "events[1].payload.character_id: "
         "there is no characters id 7 in the file"),
        (_set(["events", 1, "payload", "roll_id"], "one"), "events[1].payload.roll_id: there is "
         "no momenta_rolls id 'one'"),
        (_set(["events", 1, "payload", "scene_id"], 1), "events[1].payload.scene_id: 'scene_id' "
         "looks like a row id"),
        (_set(["members", 1, "role"], "king"), "members[1].role: Value 'king' is not a valid "
         "choice."),
        (_set(["events", 0, "kind"], "meteor"), "events[0].kind: Value 'meteor' is not a valid"),
        (_set(["characters", 0, "name"], ""), "characters[0].name: This field cannot be blank."),
        (_set(["characters", 0, "name"], "x" * 81), "characters[0].name: Ensure this value has "
         "at most 80 characters"),
        (_set(["campaign", "last_seq"], 1), "campaign.last_seq 1 is below the last event's seq"),
        (_set(["events", 1, "seq"], 1), "events (seq): the same id is used twice"),
    ],
)  # fmt: skip
def test_a_file_whose_references_or_values_do_not_hold_is_refused(document, change, message):
    assert message in refused(edited(document, change))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (_set(["characters", 0, "name"], "A\x00sh"), "characters[0].name: a NUL character"),
        (_set(["events", 1, "payload", "summary"], "\x00"), "events[1].payload.summary: a NUL"),
        (_set(["events", 1, "payload", "\x00"], 1), "events[1].payload: a NUL character"),
    ],
)
def test_a_nul_is_refused_with_where_on_every_database(document, change, message):
    """PostgreSQL refuses a NUL in text and JSON, SQLite would keep it (issue 34)."""
    assert message in refused(edited(document, change))


@pytest.mark.django_db
def test_a_value_only_the_database_refuses_rolls_back_the_whole_import(document):
    """Momentum 9 passes the schema and the field; the table's check (0 to 6) refuses
    it after the campaign and its members were written: all of it goes."""
    message = refused(edited(document, _set(["characters", 0, "momentum"], 9)))
    assert "the database refused it" in message


@pytest.mark.django_db
def test_missing_people_are_all_named_and_nothing_is_made(document):
    def strangers(doc):
        doc["members"][1]["user"] = "zed"
        doc["events"][0]["actor"] = "yann"

    message = refused(edited(document, strangers))
    assert "these users are not on this site: yann, zed" in message
    assert "--create-users" in message


@pytest.mark.django_db
def test_create_users_makes_the_missing_people_inactive_without_a_password(document):
    text = edited(document, _set(["members", 1, "user"], "zed"))
    copy = import_campaign(text, create_users=True)
    zed = get_user_model().objects.get(username="zed")
    assert not zed.is_active and not zed.has_usable_password()
    assert copy.memberships.filter(user=zed, role="gm").exists()


@pytest.mark.django_db
def test_create_users_refuses_a_name_the_site_would_not_accept(document):
    message = refused(edited(document, _set(["members", 1, "user"], "zed q!")), create_users=True)
    assert "not a valid username here: zed q!" in message


# --- The commands ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_command_writes_the_document_to_stdout_or_a_file(document, tmp_path):
    campaign = Campaign.objects.get(name=document["campaign"]["name"])
    out = StringIO()
    call_command("export_campaign", str(campaign.pk), stdout=out)
    assert json.loads(out.getvalue()) == document
    path = tmp_path / "backup.json"
    call_command("export_campaign", str(campaign.pk), "-o", str(path), stderr=StringIO())
    assert path.read_text() == out.getvalue()
    with pytest.raises(CommandError, match="There is no campaign 999999"):
        call_command("export_campaign", "999999")


@pytest.mark.django_db
def test_import_command_makes_a_campaign_or_says_why_not(document, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text(dumps(document))
    out = StringIO()
    call_command("import_campaign", str(path), stdout=out)
    copy = Campaign.objects.order_by("-pk").first()
    assert out.getvalue() == f"Imported {copy.name} as campaign {copy.pk}.\n"

    path.write_text(edited(document, lambda d: d.update(version=7)))
    before = row_counts()
    with pytest.raises(CommandError, match="Import refused, nothing was changed: the file is v"):
        call_command("import_campaign", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_campaign", str(tmp_path / "absent.json"))
    assert row_counts() == before

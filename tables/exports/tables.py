"""Which model fills which part of the export document, and what each leaves out (and why).

The export and the import both walk TABLES, in this order (a row's references
point only to tables above it, except the free-form JSON, which the import
rewrites once every row exists). `coverage_problems()` is the guard against
silent loss: a model field that is neither in its document model nor in
`excluded`, or a model pointing at a campaign that no table exports, is a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.db import models as dj

from tables import models
from tables.exports import schema


@dataclass(frozen=True)
class Table:
    key: str  # the document's key ("characters")
    model: type[dj.Model]
    doc: type[schema.Strict]
    parent: str = "campaign"  # the FK that ties a row to its campaign (or character)
    # Fields the document leaves out on purpose, each with the reason.
    excluded: dict[str, str] = field(default_factory=dict)
    # Rows nested in each of this table's rows: their Table, by document key.
    children: tuple[Table, ...] = ()


CHARACTER_ROWS = tuple(
    Table(key, model, doc, parent="character")
    for key, model, doc in [
        ("attributes", models.Attribute, schema.Attribute),
        ("skills", models.Skill, schema.Skill),
        ("traits", models.Trait, schema.Trait),
        ("assets", models.Asset, schema.Asset),
    ]
)

CAMPAIGN = Table(
    "campaign",
    models.Campaign,
    schema.CampaignSettings,
    parent="",
    excluded={
        "invite_token": "a secret: the imported campaign gets an invite link of its own",
        # A webhook URL lets whoever holds it post to the group's channel; a backup file
        # travels further than the settings page, so the GM sets them again after an import.
        "discord_webhook_url": "a secret: the GM sets the webhook again after an import",
        "discord_gm_webhook_url": "a secret: the GM sets the webhook again after an import",
        "discord_last_error": "this server's delivery status, not the campaign's",
        "discord_last_error_at": "this server's delivery status, not the campaign's",
        "discord_webhook_set_by": "goes with the webhook, which is not exported",
        "discord_gm_webhook_set_by": "goes with the webhook, which is not exported",
        "discord_webhook_failures": "this server's delivery status, not the campaign's",
        "discord_gm_webhook_failures": "this server's delivery status, not the campaign's",
        "discord_webhook_parked_at": "this server's delivery status, not the campaign's",
        "discord_gm_webhook_parked_at": "this server's delivery status, not the campaign's",
    },
)

TABLES = (
    Table("members", models.Membership, schema.Member),
    Table("characters", models.Character, schema.Character, children=CHARACTER_ROWS),
    Table("roll_templates", models.RollTemplate, schema.RollTemplate),
    Table("custom_patterns", models.CustomPattern, schema.CustomPattern),
    Table("custom_spends", models.CustomSpend, schema.CustomSpend),
    Table("play_sessions", models.PlaySession, schema.PlaySession),
    Table("scenes", models.Scene, schema.Scene),
    Table(
        "events",
        models.TableEvent,
        schema.TableEvent,
        # It points at a later event of the same table; each `voided` event's payload
        # names its target (target_seq), and the import links them again (load.py).
        excluded={
            "voided_by": "rebuilt on import from the voided events' target_seq",
            "idempotency_key": "a browser's retry guard, meaningless once the answer came",
        },
    ),
    Table("pool_changes", models.PoolChange, schema.PoolChange),
    Table("assist_requests", models.AssistRequest, schema.AssistRequest),
    Table("contests", models.Contest, schema.Contest),
    Table("d20_tests", models.D20Test, schema.D20Test),
    Table("momenta_rolls", models.MomentaRoll, schema.MomentaRoll),
    Table("called_tests", models.CalledTest, schema.CalledTest),
    Table("scene_traits", models.SceneTrait, schema.SceneTrait),
    Table(
        "conflicts",
        models.Conflict,
        schema.Conflict,
        children=(
            Table("participants", models.Participant, schema.Participant, parent="conflict"),
        ),
    ),
    Table("harm_tracks", models.HarmTrack, schema.HarmTrack),
    Table("harm_entries", models.HarmEntry, schema.HarmEntry),
    Table("extended_tasks", models.ExtendedTask, schema.ExtendedTask),
    Table("extended_task_rolls", models.ExtendedTaskRoll, schema.ExtendedTaskRoll),
)
BY_MODEL = {t.model: t for t in TABLES}

# Models of the app that belong to no campaign, so no export.
NOT_CAMPAIGN_DATA = {
    models.PersonSettings: "one person's display preferences (dice motion): not a campaign's",
}


def numbered(table: Table) -> bool:
    """Does the document give this table's rows an `id` (so others can refer to them)?"""
    return "id" in table.doc.model_fields


def fields_of(table: Table) -> list[dj.Field]:
    """The model's fields the document carries, in the model's order. Never the database
    id: a numbered table's `id` is the document's own number for the row."""
    skip = {table.parent, *table.excluded}
    return [
        f for f in table.model._meta.concrete_fields if f.name not in skip and not f.primary_key
    ]


def coverage_problems() -> list[str]:
    """Every model field the export would lose without saying so, and every stale name."""
    problems = []
    for table in (CAMPAIGN, *TABLES, *(c for t in TABLES for c in t.children)):
        name = table.model.__name__
        carried = {f.name for f in fields_of(table)}
        documented = set(table.doc.model_fields) - {c.key for c in table.children}
        if numbered(table):
            carried.add("id")
        for missing in sorted(carried - documented):
            problems.append(
                f"{name}.{missing} is in neither tables/exports/schema.py "
                f"({table.doc.__name__}) nor {name}'s exclusions in tables/exports/tables.py"
            )
        for stale in sorted(documented - carried):
            problems.append(f"{table.doc.__name__}.{stale} is not a field of {name}")
        model_names = {f.name for f in table.model._meta.concrete_fields}
        for stale in sorted(set(table.excluded) - model_names):
            problems.append(f"{name}'s exclusion {stale!r} is not one of its fields")
    exported = {CAMPAIGN.model, *BY_MODEL, *(c.model for t in TABLES for c in t.children)}
    for model in apps.get_app_config("tables").get_models():
        if model not in exported and model not in NOT_CAMPAIGN_DATA:
            problems.append(
                f"{model.__name__} is not exported: add it to TABLES or NOT_CAMPAIGN_DATA "
                "in tables/exports/tables.py"
            )
    return problems

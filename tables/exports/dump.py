"""Export: one campaign, whole, as the document tables/exports/schema.py describes.

A read, not a command: it changes nothing, so it appends no event. It reads under
the campaign's lock, so the log, the ledger and the records agree with each other.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models as dj
from django.db import transaction

from tables.exports import refs, schema
from tables.exports.tables import CAMPAIGN, TABLES, Table, fields_of, numbered
from tables.models import Campaign, TableEvent
from tables.services.core import lock_campaign


class _Numbers:
    """Database id -> document id for every numbered table, usernames, event seqs."""

    def __init__(self, campaign: Campaign):
        self.ids: dict[type[dj.Model], dict[int, int]] = {}
        for table in TABLES:
            if numbered(table):
                pks = _rows(table, campaign).values_list("pk", flat=True)
                self.ids[table.model] = {pk: n for n, pk in enumerate(pks, start=1)}
        self.seqs = dict(campaign.events.values_list("pk", "seq"))
        self.usernames: dict[int, str | None] = {}
        self.by_key = {t.key: self.ids[t.model] for t in TABLES if numbered(t)}

    def username(self, pk: int | None) -> str | None:
        if pk is None:
            return None
        if pk not in self.usernames:
            user = get_user_model().objects.filter(pk=pk).first()
            self.usernames[pk] = user.get_username() if user else None
        return self.usernames[pk]

    def in_json(self, table: str, value: Any, where: str) -> Any:
        """A reference inside JSON; null where the row is gone (a deleted template)."""
        if table == refs.USERS:
            return self.username(value)
        return self.by_key[table].get(value)


def _rows(table: Table, parent) -> dj.QuerySet:
    return table.model.objects.filter(**{table.parent: parent}).order_by("pk")


def _value(f: dj.Field, obj: dj.Model, numbers: _Numbers, where: str) -> Any:
    raw = getattr(obj, f.attname)
    if f.is_relation:
        if raw is None:
            return None
        target = f.related_model
        if target is get_user_model():
            return numbers.username(raw)
        if target is TableEvent:
            return numbers.seqs[raw]
        return numbers.ids[target][raw]
    if isinstance(f, dj.JSONField):
        return refs.translate(raw, numbers.in_json, where)
    return raw


def _row(table: Table, obj: dj.Model, numbers: _Numbers, where: str) -> dict:
    row = {"id": numbers.ids[table.model][obj.pk]} if numbered(table) else {}
    for f in fields_of(table):
        row[f.name] = _value(f, obj, numbers, f"{where}.{f.name}")
    if table.model is TableEvent and obj.audience == TableEvent.Audience.NAMED:
        # A whisper the GMs do not read (issue 37): only GMs export, so its words stay
        # out; the event stays (the log's seqs have no gap), and so does whom it was for.
        row["payload"] = {**row["payload"], "text": ""}
    for child in table.children:
        row[child.key] = [
            _row(child, c, numbers, f"{where}.{child.key}[{i}]")
            for i, c in enumerate(_rows(child, obj))
        ]
    return row


def export_campaign(campaign: Campaign) -> dict:
    """The campaign's document, checked against the schema, as plain JSON values."""
    with transaction.atomic():
        # Every service changes a campaign under this row lock, so holding it keeps a roll
        # from landing between reading the log and reading the ledger or the records.
        campaign = lock_campaign(campaign.pk)
        numbers = _Numbers(campaign)
        doc: dict[str, Any] = {
            "format": schema.FORMAT,
            "version": schema.VERSION,
            "campaign": _row(CAMPAIGN, campaign, numbers, "campaign"),
        }
        for table in TABLES:
            doc[table.key] = [
                _row(table, obj, numbers, f"{table.key}[{i}]")
                for i, obj in enumerate(_rows(table, campaign))
            ]
    # Our own output must pass the published schema: a mismatch is a bug here.
    return schema.CampaignExport.model_validate(doc).model_dump(mode="json")


def dumps(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

"""Import: a campaign document becomes a new campaign, in one transaction, or nothing does.

Every check that can refuse runs before the first write (the format, the
version, the schema, references within the document, choices and lengths,
event kinds, people); the database's own constraints are the last word, and a
refusal from them rolls everything back. Rows get new database ids; every
reference, the free-form JSON's included (tables/exports/refs.py), is rewritten
to them. Events keep their seq. Nothing is appended to the log: the import
restores history, it does not make any.

People are matched by username. Missing ones refuse the import (all of them
named), unless `create_users`: then each is made inactive, with no usable
password, for the site operator to hand over or merge.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db import models as dj
from pydantic import ValidationError as SchemaError

from tables.exports import event_schema, refs, schema
from tables.exports.tables import CAMPAIGN, TABLES, Table, fields_of, numbered
from tables.models import Campaign, TableEvent

MAX_LISTED = 20  # problems listed in one refusal; the rest are counted


class ImportRefused(Exception):
    """The document cannot be imported; `problems` says why, one line each."""

    def __init__(self, problems: Iterable[str]):
        self.problems = list(problems)
        shown = self.problems[:MAX_LISTED]
        more = len(self.problems) - len(shown)
        text = "; ".join(shown) + (f"; and {more} more" if more > 0 else "")
        super().__init__(f"Import refused, nothing was changed: {text}")


def parse(text: str | bytes) -> schema.CampaignExport:
    """The document in `text`, or ImportRefused saying what is wrong with it."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise ImportRefused([f"the file is not JSON ({error})"]) from None
    if not isinstance(data, dict) or data.get("format") != schema.FORMAT:
        raise ImportRefused([f"the file is not a campaign export (no format {schema.FORMAT!r})"])
    # PostgreSQL refuses a NUL in text and JSON, SQLite keeps it: refused on both.
    if nul := list(_nul_at(data)):
        raise ImportRefused(f"{_path(loc)}: a NUL character (\\u0000)" for loc in nul)
    version = data.get("version")
    if type(version) is int and version > schema.VERSION:  # as schema.exact_version reads it
        raise ImportRefused(
            [
                f"the file is version {version}, made by a newer Momenta Table; this one "
                f"reads up to version {schema.VERSION}: upgrade it first"
            ]
        )
    try:
        return schema.CampaignExport.model_validate_json(text)
    except SchemaError as error:
        raise ImportRefused(
            f"{_path(event_schema.untagged(e['loc']))}: {e['msg']}"
            for e in error.errors(include_url=False)
        ) from None


def _nul_at(value, loc: tuple = ()):
    """Where the document's strings (and keys) hold a NUL."""
    if isinstance(value, str):
        if "\x00" in value:
            yield loc
    elif isinstance(value, dict):
        for key, item in value.items():
            if "\x00" in key:
                yield loc  # in a key: the object that holds it
            else:
                yield from _nul_at(item, (*loc, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nul_at(item, (*loc, i))


def _path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the document"


def import_campaign(text: str | bytes, *, create_users: bool = False) -> Campaign:
    """A new campaign from an export document (see the module docstring)."""
    document = parse(text)
    plan = _Plan(document.model_dump())
    plan.check()
    with transaction.atomic():
        users = _users(plan.usernames, create_users)
        try:
            return plan.write(users)
        except (DatabaseError, ValidationError) as error:
            raise ImportRefused([f"the database refused it: {error}"]) from None


def _users(names: set[str], create: bool) -> dict[str, Any]:
    User = get_user_model()
    field = User.USERNAME_FIELD
    found = {getattr(u, field): u for u in User.objects.filter(**{f"{field}__in": names})}
    missing = sorted(names - set(found))
    if missing and not create:
        raise ImportRefused(
            [
                "these users are not on this site: "
                + ", ".join(missing)
                + " (create them first, or import with --create-users)"
            ]
        )
    invalid = []
    for name in missing:
        try:
            User._meta.get_field(field).run_validators(name)
        except ValidationError:
            invalid.append(name)
    if invalid:
        raise ImportRefused([f"not a valid username here: {', '.join(invalid)}"])
    for name in missing:
        user = User(**{field: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        found[name] = user
    return found


class _Plan:
    """The checked document and, once written, its document id -> database id maps."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.problems: list[str] = []
        self.usernames: set[str] = set()
        self.new_ids: dict[str, dict[int, int]] = {}
        self.event_pks: dict[int, int] = {}
        self.users: dict[str, Any] = {}
        self.doc_ids: dict[str, set[int]] = {}  # document ids of each numbered table
        self.seqs: set[int] = set()

    # --- checks, before any write ------------------------------------------------------

    def check(self) -> None:
        doc = self.doc
        for table in TABLES:
            if numbered(table):
                ids = [row["id"] for row in doc[table.key]]
                self._unique(table.key, ids)
                self.doc_ids[table.key] = set(ids)
        seqs = [row["seq"] for row in doc["events"]]
        self._unique("events (seq)", seqs)
        self.seqs = set(seqs)
        if seqs and doc["campaign"]["last_seq"] < max(seqs):
            self.problems.append(
                f"campaign.last_seq {doc['campaign']['last_seq']} is below the last event's "
                f"seq {max(seqs)}"
            )
        self._check_rows(CAMPAIGN, doc["campaign"], "campaign")
        for table in TABLES:
            for i, row in enumerate(doc[table.key]):
                self._check_rows(table, row, f"{table.key}[{i}]")
        if self.problems:
            raise ImportRefused(self.problems)

    def _unique(self, what: str, values: list[int]) -> None:
        if len(values) != len(set(values)):
            self.problems.append(f"{what}: the same id is used twice")

    def _check_rows(self, table: Table, row: dict, where: str) -> None:
        for f in fields_of(table):
            at, value = f"{where}.{f.name}", row[f.name]
            if f.is_relation:
                self._check_ref(f, value, at)
            elif isinstance(f, dj.JSONField):
                try:
                    refs.translate(value, self._check_json_ref, at)
                except refs.UnknownReference as error:
                    self.problems.append(str(error))
            else:
                # The model field's own checks: choices, lengths, ranges. No queries.
                try:
                    f.clean(value, None)
                except ValidationError as error:
                    self.problems.append(f"{at}: {' '.join(error.messages)}")
        for child in table.children:
            for i, sub in enumerate(row[child.key]):
                self._check_rows(child, sub, f"{where}.{child.key}[{i}]")

    def _check_ref(self, f: dj.Field, value: Any, at: str) -> None:
        if value is None:
            if not f.null:
                self.problems.append(f"{at}: required")
            return
        target = f.related_model
        if target is get_user_model():
            self.usernames.add(value)
        elif target is TableEvent:
            if value not in self.seqs:
                self.problems.append(f"{at}: there is no event #{value} in the file")
        elif value not in self.doc_ids[_table_of(target).key]:
            self.problems.append(
                f"{at}: there is no {_table_of(target).key} id {value} in the file"
            )

    def _check_json_ref(self, table: str, value: Any, at: str) -> Any:
        if table == refs.USERS:
            if isinstance(value, str) and value:
                self.usernames.add(value)
            else:
                self.problems.append(f"{at}: a username is expected")
        elif not isinstance(value, int) or value not in self.doc_ids[table]:
            self.problems.append(f"{at}: there is no {table} id {value!r} in the file")
        return value

    # --- the write, inside the caller's transaction -----------------------------------------

    def write(self, users: dict[str, Any]) -> Campaign:
        self.users = users
        campaign = self._create(CAMPAIGN, [self.doc["campaign"]], {})[0]
        made: list[tuple[Table, list[dict], list[dj.Model]]] = []
        for table in TABLES:
            rows = self.doc[table.key]
            objs = self._create(table, rows, {table.parent: campaign})
            made.append((table, rows, objs))
            if numbered(table):
                self.new_ids[table.key] = {r["id"]: o.pk for r, o in zip(rows, objs, strict=True)}
            if table.model is TableEvent:
                self.event_pks = {o.seq: o.pk for o in objs}
                _link_voids(rows, objs)
            for child in table.children:
                for row, obj in zip(rows, objs, strict=True):
                    sub = row[child.key]
                    made.append((child, sub, self._create(child, sub, {child.parent: obj})))
        # Only now does every row the JSON may point at have its new id.
        for table, rows, objs in made:
            self._rewrite_json(table, rows, objs)
        return campaign

    def _create(self, table: Table, rows: list[dict], parent: dict) -> list[dj.Model]:
        json_fields = [f for f in fields_of(table) if isinstance(f, dj.JSONField)]
        objs = []
        for row in rows:
            values = dict(parent)
            for f in fields_of(table):
                if f in json_fields:
                    values[f.name] = None if f.null else {}  # rewritten once all rows exist
                else:
                    values[f.attname] = self._db_value(f, row[f.name])
            objs.append(table.model(**values))
        if not objs:
            return []
        table.model.objects.bulk_create(objs, batch_size=500)
        # auto_now_add stamped "now" on save: put back the times the document holds.
        stamped = [f for f in fields_of(table) if getattr(f, "auto_now_add", False)]
        if stamped:
            for obj, row in zip(objs, rows, strict=True):
                for f in stamped:
                    setattr(obj, f.attname, row[f.name])
            table.model.objects.bulk_update(objs, [f.name for f in stamped], batch_size=500)
        return objs

    def _db_value(self, f: dj.Field, value: Any) -> Any:
        if not f.is_relation or value is None:
            return value
        target = f.related_model
        if target is get_user_model():
            return self.users[value].pk
        if target is TableEvent:
            return self.event_pks[value]
        return self.new_ids[_table_of(target).key][value]

    def _json_ref(self, table: str, value: Any, at: str) -> Any:
        if table == refs.USERS:
            return self.users[value].pk
        return self.new_ids[table][value]

    def _rewrite_json(self, table: Table, rows: list[dict], objs: list[dj.Model]) -> None:
        json_fields = [f for f in fields_of(table) if isinstance(f, dj.JSONField)]
        if not json_fields or not objs:
            return
        for row, obj in zip(rows, objs, strict=True):
            for f in json_fields:
                setattr(obj, f.attname, refs.translate(row[f.name], self._json_ref))
        table.model.objects.bulk_update(objs, [f.name for f in json_fields], batch_size=500)


def _link_voids(rows: list[dict], events: list[TableEvent]) -> None:
    """Mark each voided event with the `voided` event that names it (services.corrections);
    read from the document's rows, as the events' payloads are written later."""
    by_seq = {e.seq: e for e in events}
    voided = []
    for row, event in zip(rows, events, strict=True):
        target = by_seq.get((row["payload"] or {}).get("target_seq"))
        if row["kind"] == "voided" and target is not None:
            target.voided_by = event
            voided.append(target)
    if voided:
        TableEvent.objects.bulk_update(voided, ["voided_by"], batch_size=500)


def _table_of(model: type[dj.Model]) -> Table:
    return next(t for t in TABLES if t.model is model)

"""A campaign as one JSON document: export (a GM's backup) and import (a new campaign).

- `schema`: the document's pydantic models and the published JSON schema (no Django:
  `python -m tables.exports.schema` rewrites docs/campaign-export.schema.json);
- `event_schema`: each event's payload typed by its kind (tables/payloads.py), an older
  payload read as any object;
- `tables`: which model fills which part of the document, and what is left out;
- `refs`: the row ids inside free-form JSON (payloads, specs), rewritten both ways;
- `dump`: export (`export_campaign`, `dumps`); `load`: import (`import_campaign`,
  `ImportRefused`).
"""

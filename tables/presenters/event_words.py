"""Log lines in words for events that store only data (no `summary`): the names
people read, never a model's field names ("Group Momentum", not "group_momentum").

tables/live/render.py's `_summary` asks here for the generic card's line. The
words of a pool change are tables/wording.py's (Discord posts use them too).
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist

from tables.models import Campaign
from tables.wording import pool_adjusted, pool_label  # noqa: F401  (render.py asks here)


def _value_words(field, value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    choices = dict(field.flatchoices) if field is not None and field.choices else {}
    return str(choices.get(value, value))


def settings_changed(fields) -> str:
    """'PAT-R1: repeated Extra Success upgrades one step each: on → off; …' from the
    stored {field: [old, new]} (or, in older events, a list of field names)."""
    items = fields.items() if isinstance(fields, dict) else ((f, None) for f in fields or ())
    parts = []
    for name, values in items:
        try:
            field = Campaign._meta.get_field(name)
            label = str(field.verbose_name)
        except FieldDoesNotExist:
            field, label = None, str(name).replace("_", " ")
        label = label[:1].upper() + label[1:]
        if isinstance(values, list | tuple) and len(values) == 2:
            old, new = (_value_words(field, v) for v in values)
            parts.append(f"{label}: {old} → {new}")
        else:
            parts.append(label)
    return "; ".join(parts)

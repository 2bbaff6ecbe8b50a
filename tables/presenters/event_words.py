"""Log lines in words for events that store only data (no `summary`): the names
people read, never a model's field names ("Group Momentum", not "group_momentum").

tables/live/render.py's `_summary` asks here for the generic card's line. The
words of a pool change are tables/words/wording.py's (Discord posts use them too).
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext, ngettext

from tables.models import Campaign
from tables.words.wording import moment


def _value_words(field, value) -> str:
    if isinstance(value, bool):
        return gettext("on") if value else gettext("off")
    choices = dict(field.flatchoices) if field is not None and field.choices else {}
    label = choices.get(value, value)
    # Choice labels a list built at import time holds in English (the game lines'
    # titles): worded for the reader here; a missing catalogue entry leaves them as is.
    return gettext(label) if isinstance(label, str) and label else str(label)


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


def new_invite_link(payload: dict) -> str:
    """An invite link's limits, composed when drawn from the stored moment and count: each
    reader reads their own language, date format and zone (not the creator's)."""
    try:
        expires = payload.get("expires_at")
        expires = datetime.fromisoformat(expires) if expires else None
    except (TypeError, ValueError):
        expires = None
    uses = payload.get("uses_left")
    uses = uses if isinstance(uses, int) and not isinstance(uses, bool) else None
    if expires is not None and uses is not None:
        return ngettext(
            "New invite link, until %(when)s and for %(n)s join.",
            "New invite link, until %(when)s and for %(n)s joins.",
            uses,
        ) % {"when": moment(expires), "n": uses}
    if expires is not None:
        return gettext("New invite link, until %(when)s.") % {"when": moment(expires)}
    if uses is not None:
        return ngettext(
            "New invite link, for %(n)s join.", "New invite link, for %(n)s joins.", uses
        ) % {"n": uses}
    return gettext("New invite link, no limits.")


def session_began(payload: dict) -> str:
    return gettext("Session %(number)s begins.") % {"number": payload.get("number", "")}


def scene_line(payload: dict) -> str:
    values = {"number": payload.get("number", ""), "title": payload.get("title") or ""}
    if values["title"]:
        text = gettext("Scene %(number)s: %(title)s") % values
    else:
        text = gettext("Scene %(number)s") % values
    expired = payload.get("expired_assets") or []
    if expired:
        names = ", ".join(f"{a.get('asset')} ({a.get('character')})" for a in expired)
        text += gettext(". Assets expired: %(names)s") % {"names": names}
    return text

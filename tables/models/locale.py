"""Languages and time zones a person or a campaign may choose (issue 28)."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


@cache
def time_zones() -> frozenset[str]:
    """The IANA names this machine knows (zoneinfo: the system's tzdata)."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value and value not in time_zones():
        raise ValidationError(
            _("“%(value)s” is not a time zone name, such as Europe/Berlin."),
            params={"value": value[:64]},
            code="time_zone",
        )


def time_zone_choices(blank_label=None) -> list[tuple[str, str]]:
    """The select's options: every zone by name, after a blank one when `blank_label`."""
    zones = [(name, name) for name in sorted(time_zones())]
    return [("", blank_label), *zones] if blank_label is not None else zones

"""Languages and time zones a person or a campaign may choose (issue 28, issue 34).

Two sets of time zone names. Offered (and accepted as a new choice): the canonical
IANA zones of tzdata's zone1970.tab and zone.tab, the names people pick a place by,
and UTC; not `localtime` (the server's own zone), `Factory`, the posix/ and right/
copies, nor the backward-compatibility names (CST6CDT, US/Eastern, Asia/Calcutta…).
Drawable: every name zoneinfo can load, so a value stored before (or imported) is
still drawn in, and can be kept on save, though it is no longer offered.
"""

from __future__ import annotations

import zoneinfo
from functools import cache
from importlib import resources
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

UTC = "UTC"
TABLES = ("zone1970.tab", "zone.tab")
# The tables' regions (Arctic: zone.tab's Arctic/Longyearbyen), one optgroup each.
REGIONS = (
    "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
    "Indian", "Pacific",
)  # fmt: skip
NOT_A_ZONE = _("“%(value)s” is not a time zone name, such as Europe/Berlin.")


def _tab_files() -> list[Path]:
    """zone1970.tab and zone.tab of the tzdata zoneinfo reads: the system's (TZPATH),
    else the tzdata package's (zoneinfo's own fallback, e.g. on Windows)."""
    for root in zoneinfo.TZPATH:
        found = [Path(root) / name for name in TABLES if (Path(root) / name).is_file()]
        if found:
            return found
    try:
        package = resources.files("tzdata") / "zoneinfo"
        return [Path(str(package / name)) for name in TABLES if (package / name).is_file()]
    except ModuleNotFoundError:
        return []


def _listed(path: Path) -> set[str]:
    """The TZ column (the third) of a .tab file's rows; # starts a comment line."""
    rows = [row.split("\t") for row in path.read_text(encoding="utf-8").splitlines()]
    return {row[2] for row in rows if len(row) > 2 and not row[0].startswith("#")}


@cache
def drawable_time_zones() -> frozenset[str]:
    """Every name zoneinfo can load here: a stored zone a page may be drawn in."""
    return frozenset(zoneinfo.available_timezones())


@cache
def time_zones() -> frozenset[str]:
    """The canonical zones (offered, and accepted as a new choice) that load here."""
    listed: set[str] = set()
    for path in _tab_files():
        listed |= _listed(path)
    if not listed:  # no table on this machine: the regions' names zoneinfo knows
        listed = set(drawable_time_zones())
    listed = {name for name in listed if name.split("/")[0] in REGIONS}
    return frozenset((listed & drawable_time_zones()) | {UTC})


def validate_time_zone(value: str) -> None:
    """A stored zone: any that loads (a legacy name chosen before stays valid). The
    forms accept only the offered ones as a new choice (TimeZoneField)."""
    if value and value not in drawable_time_zones():
        raise ValidationError(NOT_A_ZONE, params={"value": value[:64]}, code="time_zone")


def time_zone_choices(blank_label=None, current: str = "") -> list:
    """The select's options: UTC, then an optgroup per region (Europe: Europe/Berlin…),
    after a blank one when `blank_label`. `current`, a stored zone no longer offered
    (that still loads), comes first: the form shows it chosen and keeps it on save."""
    by_region: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(time_zones() - {UTC}):
        by_region.setdefault(name.split("/")[0], []).append((name, name))
    choices: list = [("", blank_label)] if blank_label is not None else []
    if current and current not in time_zones() and current in drawable_time_zones():
        choices.append((current, current))
    return [*choices, (UTC, UTC), *by_region.items()]

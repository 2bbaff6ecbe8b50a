"""Small helpers for the sentences the log reads: services write them into events,
presenters, templates and Discord posts show them. Words only: no reads, no writes.
Each helper reads the event's own data (a payload, a spend, a change line)."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from rules import game_lines
from rules.patterns import KIND_LABELS
from rules.pools import DETERMINATION, GROUP_MOMENTUM, THREAT
from rules.templates import DEFAULT_BAND_LABELS
from tables.models import PoolChange
from tables.words.said import joined, named, worded
from tables.words.said import words as said_words

SEEDS = game_lines.LINES[game_lines.DEFAULT]


def successes(n: int) -> str:
    """'1 success', '2 successes' by the reader's plural rule."""
    return ngettext("%(n)s success", "%(n)s successes", n) % {"n": n}


# Where the points of one Momentum spend came from, in the order they are paid (MO-02, MO-13);
# {group} and {gm} are the line's names for the pools (GL-01).
SPEND_SOURCES = (
    ("from_bonus", gettext_noop("from bonus {group}")),
    ("from_roll", gettext_noop("from the roll")),
    ("from_pool", gettext_noop("from the group pool")),
    ("to_threat", gettext_noop("added to {gm}")),
)


def _get(thing, key: str, default=None):
    if isinstance(thing, dict):
        return thing.get(key, default)
    return getattr(thing, key, default)


# The seeded roll templates' names (services/roll_templates.py), stored in English.
DEFAULT_TEMPLATE_NAMES = frozenset(
    {
        gettext_noop("Narrative action"),
        gettext_noop("Attack (damage)"),
        gettext_noop("Attack (strain)"),
    }
)


def template_words(name):
    """A roll template's name: a seeded one in the reader's words; the GM's as typed."""
    return _(name) if name in DEFAULT_TEMPLATE_NAMES else name


# The built-in patterns' names (rules/patterns.py, PAT-06 … PAT-08), stored in English.
BUILT_IN_PATTERNS = frozenset(
    {gettext_noop("Solid Hit"), gettext_noop("Extra Success"), gettext_noop("Effortless")}
)


def pattern_words(kind: str, face: int, name: str) -> str:
    """'Pasch 5 (Extra-Erfolg)': a triggered pattern in the reader's words; a GM's own
    pattern keeps the name the GM gave it (PAT-01)."""
    label = f"{pgettext('dice pattern', KIND_LABELS[kind])} {face}"
    return f"{label} ({pattern_name(name)})"


def pattern_name(name: str) -> str:
    """A built-in pattern's name in the reader's words; a GM's own as typed."""
    return _(name) if name in BUILT_IN_PATTERNS else name


def band_words(label):
    """A result band's label: a default one (stored in English) in the reader's words; a
    label the GM typed as typed."""
    return _(label) if label in DEFAULT_BAND_LABELS else label


def moment(value) -> str:
    """A moment in the reader's zone and locale ("2. Dezember 2030 00:02")."""
    return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")


def percent(value, decimals: int = 1) -> str:
    """An exact chance (a Fraction) in the reader's figures: "91.0%", "91,0 %" (the
    locale's decimal mark; the sign's spacing is the catalogue's)."""
    number = formats.number_format(round(float(value) * 100, decimals), decimal_pos=decimals)
    return pgettext("a percentage", "%(number)s%%") % {"number": number}


def expected(value, decimals: int = 2) -> str:
    """An expectation (a Fraction) with the locale's decimal mark: "1.25", "1,25"."""
    return formats.number_format(round(float(value), decimals), decimal_pos=decimals)


def spend_name(kind) -> str:
    """A standard spend by the reader's catalogue (rules.momentum marks the names); the
    GM's own (MO-14) as the GM typed it."""
    return kind.name if kind.custom else _(kind.name)


def spend_name_words(kind) -> dict | str:
    """spend_name() as a value to store: a standard spend's message id, worded per
    reader; the GM's own name as typed."""
    return kind.name if kind.custom else said_words(kind.name)


def stored_spend_name(spend: dict) -> str:
    """A spend as a test's ledger stored it: a standard one's name (stored in English) in
    the reader's words, a GM's own (key "custom:…") as the GM typed it (MO-14)."""
    name = spend.get("name", "")
    return name if str(spend.get("key", "")).startswith("custom:") or not name else _(name)


def stored_reason(reason: str) -> str:
    """A reason the rules stored in English (a refund's, MO-11, MO-12): worded for the
    reader where it is one of the catalogue's sentences, else as stored."""
    return _(reason) if reason else reason


def spend_description(kind) -> str:
    if not kind.description or kind.custom:
        return kind.description
    return _(kind.description)


def spend_price(kind, line=SEEDS) -> str:
    """'2 Momentum', '1 Momentum per question (repeatable)' (MO-03, MO-09 … MO-11, MO-14),
    by the group pool's name at `line`'s table (GL-01).

    `kind`: a rules SpendKind or its JSON form (a spend dict has the same keys).
    """
    names = {"n": _get(kind, "cost"), "pool": line.group_pool}
    if not _get(kind, "repeatable"):
        return _("{n} {pool}").format(**names)
    if _get(kind, "key") == "obtain_information":
        return _("{n} {pool} per question (repeatable)").format(**names)
    return _("{n} {pool} per use (repeatable)").format(**names)


def spend_paid(spend, line=SEEDS) -> str:
    """'1 from the roll, 2 added to Threat': where one spend's points came from."""
    return worded({"summary_words": spend_paid_words(spend, line)})


def spend_paid_words(spend, line=SEEDS) -> dict | str:
    """spend_paid() as a sentence to store; `line` names the pools (Campaign.book_line)."""
    names = {"group": named(line.group_pool), "gm": named(line.gm_pool)}
    parts = [
        said_words("%(n)s %(source)s", n=n, source=said_words(label, **names))
        for key, label in SPEND_SOURCES
        if (n := _get(spend, key, 0))
    ]
    return joined(parts)


def refund_back(spend, changes, line=SEEDS) -> str:
    """'1 back to the roll, 2 back to the test: the group pool is full' — where a refunded
    spend's points went (MO-11, MO-12), from the ledger lines written, so the two agree."""
    sentence = refund_back_words(spend, changes, line)
    return worded({"summary_words": sentence}) if sentence else _("nothing to give back")


def refund_back_words(spend, changes, line=SEEDS) -> dict | str:
    """refund_back() as a sentence to store ("" when nothing went back)."""
    names = {"group": named(line.group_pool), "gm": named(line.gm_pool)}
    parts = []
    if n := _get(spend, "from_bonus", 0):
        parts.append(said_words(gettext_noop("{n} back as bonus {group}"), n=n, **names))
    if n := _get(spend, "from_roll", 0):
        parts.append(said_words(gettext_noop("{n} back to the roll"), n=n))
    for change in changes:
        pool, delta, lost = _get(change, "pool"), _get(change, "delta", 0), _get(change, "lost", 0)
        if pool == "group_momentum":
            if delta or not lost:
                parts.append(said_words(gettext_noop("{n} back to the group pool"), n=delta))
            if lost:
                parts.append(said_words(gettext_noop("{n} lost: the group pool is full"), n=lost))
        elif pool == "threat" and delta:
            parts.append(said_words(gettext_noop("{n} taken off {gm}"), n=-delta, **names))
    if n := _get(spend, "back_to_test", 0):
        sentence = gettext_noop(
            "{n} back to the test's {group} to spend again: the group pool is full"
        )
        parts.append(said_words(sentence, n=n, **names))
    return joined(parts)


def spend_line(spend, line=SEEDS) -> str:
    """'Obtain Information: 1 Momentum (1 from the roll)' — one spend made, in words."""
    points = _get(spend, "points")
    if points is None:
        points = sum(_get(spend, key, 0) or 0 for key, _words in SPEND_SOURCES)
    paid = spend_paid(spend, line)
    text = _("{name}: {n} {pool}").format(name=_get(spend, "name"), n=points, pool=line.group_pool)
    return text + (f" ({paid})" if paid else "")


def pool_label(pool: str) -> str:
    """'group_momentum' -> 'Group Momentum' (the ledger's own labels)."""
    try:
        return str(PoolChange.Pool(pool).label)
    except ValueError:
        return pool.replace("_", " ").capitalize()


def pool_adjusted(payload: dict, label: str | None = None) -> str:
    """The GM's hand change (PM-13): whose pool, by its name (`label`: the table's name
    for it, GL-01); the change line below the summary gives the amount, the value after
    and the reason."""
    if payload.get("summary"):  # a refill or a narrative spend (GL-02) says what it was
        return str(payload["summary"])
    label = label or pool_label(str(payload.get("pool", "")))
    changes = payload.get("changes") or []
    who = changes[0].get("character") if changes and isinstance(changes[0], dict) else None
    if who:
        return _("The GM adjusts {who}'s {pool}.").format(who=who, pool=label)
    return _("The GM adjusts {pool}.").format(pool=label)


# --- the game line's names for the pools (GL-01) ---------------------------------------

_FIELDS = {GROUP_MOMENTUM: "group_pool", THREAT: "gm_pool", DETERMINATION: "personal_pool"}


def pool_name(campaign, pool: str, label: str) -> str:
    """`label` (the ledger's name for `pool`), or the campaign's line's name for it."""
    field = _FIELDS.get(pool)
    line = getattr(campaign, "line", None)
    if field is None or line is None or not getattr(campaign, "uses_group_economy", False):
        return label
    name = getattr(line, field)
    default = getattr(game_lines.LINES[game_lines.DEFAULT], field)
    return label if name == default else name

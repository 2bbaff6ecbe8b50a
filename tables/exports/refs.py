"""References to rows inside the free-form JSON of a campaign (payloads, specs, ledgers, cards).

Services write database ids into that JSON under a few keys (`character_id`,
`test_id`, …). An export turns each into the row's document id and an import
back into the new row's database id, so the keys are listed here, once. A key
that looks like a reference (`…_id`, `…_ids`, or `id`) but is not listed is an
error, not a guess: a service that starts storing a new kind of id makes the
round-trip test fail until the key is added here.

Ids in positional lists have no key to go by: PAIR_KEYS names the lists of
[id, amount] pairs. An id stored some other new way is caught by the round-trip
test instead, which makes every database id larger than any document id and
looks for one left in the document (tests/tables/test_campaign_export_round_trip.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

USERS = "users"  # a reference to a person: a username in the document

# key -> the document table it refers to
REF_KEYS = {
    "character_id": "characters",
    "holder_character_id": "characters",
    "opposer_id": "characters",
    "active_id": "characters",
    "roller_id": "characters",
    "helper_id": "characters",
    "test_id": "d20_tests",
    "roll_id": "momenta_rolls",
    "assist_id": "assist_requests",
    "contest_id": "contests",
    "template_id": "roll_templates",
    "pattern_id": "custom_patterns",
    "spend_id": "custom_spends",
    "user_id": USERS,
    "recipient_id": USERS,  # a whisper's (issue 37)
    "call_id": "called_tests",
    "trait_id": "scene_traits",
    "conflict_id": "conflicts",
    # Harm and extended tasks (issue 24)
    "target_id": "characters",
    "source_roll_id": "momenta_rolls",
    "source_test_id": "d20_tests",
    "linked_test_id": "d20_tests",
    "task_id": "extended_tasks",
}
# [[id, amount], …]: the rules' (spender, amount) pairs (rules/d6.py RollSpec.resolve_spent,
# AppliedRoll.refunds); the services' spenders are character ids.
PAIR_KEYS = {"resolve_spent": "characters", "refunds": "characters"}
# {"contest": {"id": …}}: services describe a contest with its own id under "id".
NESTED_ID = {"contest": "contests"}


class UnknownReference(ValueError):
    """A key that looks like a row id, with no entry in REF_KEYS."""


# (table, value, where) -> the translated value
Lookup = Callable[[str, Any, str], Any]


def translate(value: Any, lookup: Lookup, where: str = "", id_table: str | None = None) -> Any:
    """A copy of `value` with every reference passed through `lookup`, keys kept in order.
    `id_table`: what an "id" key in this dict refers to (NESTED_ID)."""
    if isinstance(value, list):
        return [translate(item, lookup, f"{where}[{i}]") for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        at = f"{where}.{key}" if where else key
        table = id_table if key == "id" and id_table else REF_KEYS.get(key)
        if table is not None and item is not None:
            out[key] = lookup(table, item, at)
        elif key in PAIR_KEYS and isinstance(item, list):
            out[key] = [
                _pair(entry, PAIR_KEYS[key], lookup, f"{at}[{i}]") for i, entry in enumerate(item)
            ]
        elif _looks_like_ref(key, item):
            raise UnknownReference(
                f"{at}: {key!r} looks like a row id but tables/exports/refs.py "
                "does not say what it refers to"
            )
        else:
            out[key] = translate(item, lookup, at, NESTED_ID.get(key))
    return out


def _pair(entry: Any, table: str, lookup: Lookup, where: str) -> Any:
    if isinstance(entry, list) and entry and _is_int(entry[0]):
        return [lookup(table, entry[0], f"{where}[0]"), *entry[1:]]
    return translate(entry, lookup, where)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _looks_like_ref(key: str, item: Any) -> bool:
    if not (key == "id" or key.endswith("_id") or key.endswith("_ids")):
        return False
    values = item if isinstance(item, list) else [item]
    return any(_is_int(v) for v in values)

"""A character's sheet (attributes, skills, traits) read in one statement.

prefetch_related_objects reads each part with a statement of its own; a roll needs
two or three of them for one character, so they come in one UNION ALL instead and
land where prefetch_related_objects would put them (`character.attributes.all()`
then reads nothing).
"""

from __future__ import annotations

from django.db.models import CharField, F, IntegerField, Value
from django.db.models.functions import Cast

from tables.models.core import Attribute, Character, Skill, Trait

# The part's relation name -> its model and the two fields read besides the id; the
# second is carried as text (a UNION's columns share one type) and converted back.
PARTS = {
    "attributes": (Attribute, "name", "value"),
    "skills": (Skill, "name", "value"),
    "traits": (Trait, "kind", "text"),
}


def prefetch_sheet(character: Character, parts=("attributes", "skills", "traits")) -> None:
    """Read the `parts` of `character`'s sheet not read yet, in one statement."""
    cache = character.__dict__.setdefault("_prefetched_objects_cache", {})
    wanted = [p for p in parts if p not in cache]
    if not wanted:
        return
    queries = [
        PARTS[part][0]
        .objects.filter(character_id=character.pk)
        .order_by()
        .annotate(
            part=Value(index, IntegerField()),
            first=F(PARTS[part][1]),
            second=Cast(PARTS[part][2], CharField()),
        )
        .values_list("part", "pk", "first", "second")
        for index, part in enumerate(wanted)
    ]
    rows = queries[0].union(*queries[1:], all=True) if len(queries) > 1 else queries[0]
    # The models' own orderings (name; kind, text), in the database's collation.
    rows = rows.order_by("part", "first", "second")
    found = {part: [] for part in wanted}
    for index, pk, first, second in rows:
        part = wanted[index]
        model, first_name, second_name = PARTS[part]
        value = int(second) if second_name == "value" else second
        found[part].append(
            model(pk=pk, character=character, **{first_name: first, second_name: value})
        )
    for part, objects in found.items():
        queryset = getattr(character, part).all()
        queryset._result_cache = objects
        queryset._prefetch_done = True
        cache[part] = queryset

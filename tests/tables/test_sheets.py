"""models/sheets.py: a character's sheet in one statement, as prefetching reads it."""

import pytest
from django.db.models import prefetch_related_objects

from tables.models import Character
from tables.models.sheets import prefetch_sheet

pytestmark = pytest.mark.django_db

PARTS = ("attributes", "skills", "traits")


def rows(character):
    return {
        part: [
            (
                o.pk,
                o.character_id,
                *(getattr(o, f) for f in ("name", "kind", "text", "value") if hasattr(o, f)),
            )
            for o in getattr(character, part).all()
        ]
        for part in PARTS
    }


def test_the_sheet_is_read_in_one_statement_as_prefetching_reads_it(
    kara, django_assert_num_queries
):
    # Out of alphabetical order, so the order read is the models' own (name; kind, text).
    kara.attributes.create(name="Agility", value=11)
    kara.skills.create(name="Battle", value=4)
    kara.traits.create(kind="focus", text="Disguise")
    kara.traits.create(kind="thread", text="Owes the Guild")
    expected = Character.objects.get(pk=kara.pk)
    prefetch_related_objects([expected], *PARTS)

    character = Character.objects.get(pk=kara.pk)
    with django_assert_num_queries(1):
        prefetch_sheet(character)
    with django_assert_num_queries(0):
        got = rows(character)
        assert character.attributes.all()[0].character is character
    assert got == rows(expected)
    assert [type(v[-1]) for v in got["attributes"]] == [int] * len(got["attributes"])


def test_only_the_parts_asked_for_and_not_read_yet_are_read(kara, django_assert_num_queries):
    character = Character.objects.get(pk=kara.pk)
    with django_assert_num_queries(1):
        prefetch_sheet(character, ("attributes", "traits"))
    with django_assert_num_queries(1):
        prefetch_sheet(character)  # the skills alone
    with django_assert_num_queries(0):
        prefetch_sheet(character)
        assert [s.name for s in character.skills.all()] == ["Communicate"]

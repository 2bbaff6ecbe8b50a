"""Issue 35: every field of every model has a label from the catalogue, lazy so that it
is worded for each reader (the GM's admin panel, a form made from the model): without
one Django shows the code name ("dice system", "is npc") in English whatever the
reader's language. The models' own names too, singular and plural."""

import pytest
from django.apps import apps
from django.utils import translation
from django.utils.functional import Promise

# Labels that German writes as English does.
SAME_IN_GERMAN = {"Name", "Pool", "Momentum", "Position", "Initiative", "Maximum", "System",
                  "Text", "Notes", "Mode", "Value"}  # fmt: skip


def labels():
    for model in apps.get_app_config("tables").get_models():
        meta = model._meta
        yield model.__name__, "(name)", meta.verbose_name
        yield model.__name__, "(plural)", meta.verbose_name_plural
        for field in meta.get_fields():
            if getattr(field, "concrete", False) and not field.auto_created:
                yield model.__name__, field.name, field.verbose_name


LABELS = sorted(labels(), key=lambda found: found[:2])


def test_the_models_were_found():
    assert len(LABELS) > 250


@pytest.mark.parametrize(("model", "name", "label"), LABELS, ids=[f"{m}.{n}" for m, n, _ in LABELS])
def test_every_model_field_has_a_translated_lazy_label(model, name, label):
    assert isinstance(label, Promise), f"{model}.{name}: {label!r}"
    with translation.override("en"):
        english = str(label)
    with translation.override("de"):
        german = str(label)
    assert german != english or english in SAME_IN_GERMAN, f"{model}.{name}: {english!r}"

"""Issue 35: protocol words are never translated. A header name, an htmx swap value, an
event kind, a setting's key or a pool's key that went through gettext would change with
the reader's language, and the other end (a browser, htmx, a stored row) would no longer
understand it: a translated Idempotency-Key header would turn idempotency off."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from tables import events
from tables.models import Campaign, PoolChange

CATALOGUES = sorted((Path(settings.BASE_DIR) / "locale").glob("*/LC_MESSAGES/django.po"))
HEADERS = ["Idempotency-Key", "HX-Request", "HX-Reswap", "HX-Retarget", "HX-Trigger", "Retry-After"]
# Not "none": it is also an English word the pages use ("Patterns: none").
SWAPS = ["innerHTML", "outerHTML", "beforebegin", "afterbegin", "beforeend", "afterend"]


def msgids(path: Path) -> set[str]:
    text = path.read_text()
    found = set()
    for block in re.findall(r'^msgid ((?:"(?:[^"\\]|\\.)*"\n?)+)', text, flags=re.M):
        found.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)))
    return found - {""}


def protocol_words() -> list[str]:
    words = HEADERS + SWAPS
    words += list(events.REGISTRY)  # event kinds, stored in every row
    words += [f.name for f in Campaign._meta.get_fields() if "_" in f.name]  # setting keys
    words += [value for value, _ in PoolChange.Pool.choices]
    return sorted(set(words))


def test_the_catalogues_were_read():
    assert len(CATALOGUES) == 3 and all(len(msgids(p)) > 1000 for p in CATALOGUES)


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.parts[-3])
def test_no_protocol_word_is_a_catalogue_message(catalogue):
    translated = msgids(catalogue) & set(protocol_words())
    assert translated == set(), f"protocol words in {catalogue}: {sorted(translated)}"

"""Every string marked for translation is in each catalogue, translated (issue 28).

makemessages runs over a copy of the code and the catalogues (the repository's stay
as they are): a string marked since the catalogues were last brought up to date
arrives with an empty msgstr, one whose text changed comes back fuzzy. Either fails.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from momenta_site.catalogues import extract

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
SOURCES = ("momenta_site", "tables", "rules", "templates")
PROBE = "A string marked after the catalogues were made"


@dataclass(frozen=True)
class Entry:
    msgid: str
    translations: tuple[str, ...]  # msgstr, or msgstr[0], msgstr[1]… of a plural
    fuzzy: bool
    where: str  # the first "#:" reference, for the message


def entries(po: Path) -> list[Entry]:
    """The catalogue's live entries (not its header, not obsolete #~ ones)."""
    found = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        where = next((line[3:].split()[0] for line in lines if line.startswith("#: ")), "")
        parts: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith("#"):
                continue
            if line.startswith('"'):
                parts[key] += json.loads(line)
                continue
            key, _, text = line.partition(" ")
            parts[key] = json.loads(text)
        if parts.get("msgid"):
            strs = tuple(v for k, v in sorted(parts.items()) if k.startswith("msgstr"))
            found.append(Entry(parts["msgid"], strs, fuzzy, where))
    return found


def problems(po: Path) -> list[str]:
    """What keeps the catalogue from being complete: one line per entry."""
    out = []
    for entry in entries(po):
        if entry.fuzzy:
            out.append(f"fuzzy: {entry.msgid!r} ({entry.where})")
        elif not all(entry.translations):
            out.append(f"untranslated: {entry.msgid!r} ({entry.where})")
    return out


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """The catalogues as makemessages brings them up to date with today's code."""
    root = tmp_path_factory.mktemp("catalogues")
    skip = shutil.ignore_patterns("__pycache__")
    for name in SOURCES:
        shutil.copytree(Path(settings.BASE_DIR) / name, root / name, ignore=skip)
    # A template marked after the catalogues were last updated, in the copy only.
    (root / "templates" / "probe.html").write_text(f"{{% load i18n %}}{{% translate {PROBE!r} %}}")
    shutil.copytree(Path(settings.BASE_DIR) / "locale", root / "locale")
    # settings.LOCALE_PATHS names the repository's; makemessages writes to the first.
    saved = settings.LOCALE_PATHS
    settings.LOCALE_PATHS = [root / "locale"]
    try:
        extract(LANGUAGES, root=root)
    finally:
        settings.LOCALE_PATHS = saved
    return root / "locale"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated_in_the_catalogue(extracted, language):
    found = [
        p for p in problems(extracted / language / "LC_MESSAGES" / "django.po") if PROBE not in p
    ]
    assert found == [], f"{len(found)} in locale/{language} (locale/README.md):\n" + "\n".join(
        found[:40]
    )


def test_a_newly_marked_string_arrives_untranslated_and_is_reported(extracted):
    """Extraction itself works: what is marked in Python and in templates arrives, and
    a string marked since the catalogues were made is reported in each."""
    for language in LANGUAGES:
        found = problems(extracted / language / "LC_MESSAGES" / "django.po")
        assert f"untranslated: {PROBE!r} (templates/probe.html)" in found, language
    msgids = {e.msgid for e in entries(extracted / "de" / "LC_MESSAGES" / "django.po")}
    assert "Your settings are saved." in msgids  # gettext, tables/views/person.py
    assert "Campaign time zone" in msgids  # gettext_lazy, a model field's name
    assert "Scene traits that counted:" in msgids  # {% translate %}, a template


def test_an_empty_a_fuzzy_and_an_untranslated_plural_entry_are_each_reported(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
        '#: a.py:1\nmsgid "Done"\nmsgstr "Fertig"\n\n'
        '#: a.py:2\nmsgid "Open"\nmsgstr ""\n\n'
        '#: a.py:3\n#, fuzzy, python-format\nmsgid "%(n)s left"\nmsgstr "%(n)s übrig"\n\n'
        '#: a.py:4\nmsgid "one die"\nmsgid_plural "%(n)s dice"\n'
        'msgstr[0] "ein Würfel"\nmsgstr[1] ""\n\n'
        '#~ msgid "Gone"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    assert problems(po) == [
        "untranslated: 'Open' (a.py:2)",
        "fuzzy: '%(n)s left' (a.py:3)",
        "untranslated: 'one die' (a.py:4)",
    ]

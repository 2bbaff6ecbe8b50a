"""Releases (issue 27): one version, said the same in pyproject.toml, the code and the
CHANGELOG's newest entry, and shown to the operator in the admin."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from momenta_site import __version__, release

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_and_the_code_name_the_same_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__


def test_the_changelogs_newest_entry_is_this_version():
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == __version__


def releases() -> list[tuple[str, str]]:
    """CHANGELOG.md's sections, newest first: (version, the section's text)."""
    parts = re.split(r"^## (\S+).*$", (ROOT / "CHANGELOG.md").read_text(), flags=re.MULTILINE)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_each_release_says_how_to_upgrade_to_it_and_whether_going_back_is_safe():
    """A release per version (issue 39, docs/releasing.md): every section but the first
    release's names the release before in its "Going back to" notes, and the version
    being made (pyproject's) has its "Upgrading from" notes."""
    sections = releases()
    assert len(sections) >= 2
    for (version, text), (before, _) in zip(sections, sections[1:], strict=False):
        assert f"### Going back to {before}\n" in text, version
    newest, text = sections[0]
    assert newest == __version__
    assert f"### Upgrading from {sections[1][0]}\n" in text


def test_released_sections_are_dated_and_only_the_newest_may_be_unreleased():
    sections = releases()
    headings = re.findall(r"^## (.*)$", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    for heading in headings[1:]:
        assert re.fullmatch(r"\S+ — \d{4}-\d{2}-\d{2}", heading), heading
    assert re.fullmatch(r"\S+ — (unreleased|\d{4}-\d{2}-\d{2})", headings[0])
    assert len(sections) == len(headings)


def test_the_admin_shows_the_version(db):
    operator = get_user_model().objects.create_superuser("op", "op@example.org", "op-pass-123")
    client = Client()
    client.force_login(operator)
    page = client.get("/admin/").content.decode()
    # And the commit: the version is the same for every commit between releases.
    assert f"Momenta Table {__version__} ({release.commit()})" in page


def test_the_commit_is_the_deploys_when_it_says_one(monkeypatch):
    monkeypatch.setenv("MOMENTA_COMMIT", "0123456789ab")
    release.commit.cache_clear()
    try:
        assert release.commit() == "0123456789ab"
        assert release.label() == f"{__version__} (0123456789ab)"
    finally:
        release.commit.cache_clear()


def test_the_commit_is_the_checkouts_head_without_one(monkeypatch):
    monkeypatch.delenv("MOMENTA_COMMIT", raising=False)
    release.commit.cache_clear()
    try:
        found = release.commit()
    finally:
        release.commit.cache_clear()
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    assert head.stdout.startswith(found) and len(found) == 12


def test_json_log_lines_name_the_release():
    import json
    import logging

    from momenta_site.logs import Formatter

    record = logging.makeLogRecord({"msg": "hello", "levelno": 30, "levelname": "WARNING"})
    line = json.loads(Formatter(json=True).format(record))
    assert (line["version"], line["commit"]) == (__version__, release.commit())


def locked_versions() -> dict[str, set[str]]:
    """requirements.lock's pins: name -> versions (one per environment marker)."""
    pins: dict[str, set[str]] = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if match := re.match(r"([A-Za-z0-9._-]+)==([^ ;\\]+)", line):
            pins.setdefault(canonicalize_name(match[1]), set()).add(match[2])
    return pins


def test_the_lock_pins_every_dependency_within_its_range():
    """Regenerate it after changing a dependency (deploy/README.md, "Reproducible installs")."""
    pins = locked_versions()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"]:
        wanted = Requirement(line)
        locked = pins.get(canonicalize_name(wanted.name), set())
        assert locked, f"{wanted.name} is not in requirements.lock"
        assert all(wanted.specifier.contains(v) for v in locked), (wanted, locked)

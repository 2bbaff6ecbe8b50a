"""`manage.py host_backup`: the table in play copied whole (its write-ahead log too)
with its key into one archive, owner-only, never over an existing file; restoring is
unpacking it into an empty folder."""

from __future__ import annotations

import sqlite3
import stat
import tarfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import CommandError

from momenta_site import hosting
from tables.management.commands.host_backup import backup

from .conftest import run_from_a_gm_shell

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 12, 2, 14, 5, 9, tzinfo=UTC)


@pytest.fixture
def table(tmp_path):
    """A hosted table's folder whose last rolls are still in the write-ahead log, held
    open as the running server holds it."""
    folder = tmp_path / "table"
    folder.mkdir()
    key = hosting.kept_key(folder)
    db = sqlite3.connect(folder / hosting.DATABASE_FILE)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")  # nothing written back to the main file
    db.execute("CREATE TABLE rolls (faces TEXT)")
    db.executemany("INSERT INTO rolls VALUES (?)", [("6,1",), ("3,3",)])
    db.commit()
    yield folder, key
    db.close()


def test_the_archive_holds_the_whole_database_and_the_key(table, tmp_path):
    folder, key = table
    written = backup(folder, None, NOW)
    assert written == folder / "backups" / "momenta-table-20261202-140509.tar.gz"
    assert stat.S_IMODE(written.stat().st_mode) == 0o600  # password hashes inside
    restored = tmp_path / "restored"
    with tarfile.open(written) as archive:
        assert sorted(archive.getnames()) == [hosting.DATABASE_FILE, hosting.KEY_FILE]
        archive.extractall(restored, filter="data")
    assert hosting.kept_key(restored) == key
    with sqlite3.connect(restored / hosting.DATABASE_FILE) as db:
        assert db.execute("SELECT faces FROM rolls").fetchall() == [("6,1",), ("3,3",)]
    assert [p.name for p in written.parent.iterdir()] == [written.name]  # nothing aside


def test_an_existing_archive_is_never_overwritten(table, tmp_path):
    folder, _ = table
    target = tmp_path / "mine.tar.gz"
    target.write_bytes(b"an older backup")
    with pytest.raises(CommandError, match="exists already"):
        backup(folder, target, NOW)
    assert target.read_bytes() == b"an older backup"


def test_a_folder_without_a_table_is_refused_with_one_line(tmp_path):
    done = run_from_a_gm_shell("host_backup", "--data", str(tmp_path / "none"))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"CommandError: no hosted table in {tmp_path / 'none'} (no db.sqlite3 or secret-key)"
    ]

"""deploy/backup (issue 27): dumps named to the second, never overwritten, the newest
kept. The clock and pg_dump are stand-ins on PATH: `date` answers the time the test
sets (in the script's own format), `pg_dump` writes which database at which time."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "backup"

FAKE_DATE = """#!/bin/sh
exec {date} -d "$(cat {clock})" "$@"
"""
FAKE_PG_DUMP = """#!/bin/sh
[ -e {fail} ] && {{ echo "pg_dump: connection refused" >&2; exit 1; }}
echo "dump of $2 at $(cat {clock})"
"""


@pytest.fixture
def site(tmp_path):
    """run(at): deploy/backup as if it were `at` UTC; .dir holds the dumps."""
    bin_dir, backups = tmp_path / "bin", tmp_path / "backups"
    bin_dir.mkdir()
    backups.mkdir()
    clock, fail = tmp_path / "clock", tmp_path / "fail"
    fakes = {
        "date": FAKE_DATE.format(date=shutil.which("date"), clock=clock),
        "pg_dump": FAKE_PG_DUMP.format(fail=fail, clock=clock),
    }
    for name, text in fakes.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)

    def run(at: str, **env: str) -> subprocess.CompletedProcess:
        clock.write_text(at + " UTC")
        path = f"{bin_dir}:/usr/bin:/bin"
        env = {"PATH": path, "MOMENTA_BACKUP_DIR": str(backups), **env}
        return subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True)

    run.dir, run.fail = backups, fail
    return run


def dumps(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_two_backups_in_one_minute_are_both_kept(site):
    assert site("2026-12-01 18:00:01").returncode == 0
    done = site("2026-12-01 18:00:59")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{site.dir}/momenta-20261201-180059.dump\n"
    assert dumps(site.dir) == {
        "momenta-20261201-180001.dump": "dump of momenta at 2026-12-01 18:00:01 UTC\n",
        "momenta-20261201-180059.dump": "dump of momenta at 2026-12-01 18:00:59 UTC\n",
    }


def test_a_second_backup_in_the_same_second_is_refused_not_written_over(site):
    site("2026-12-01 18:00:01")
    (site.dir / "momenta-20261201-180001.dump").write_text("the first\n")
    done = site("2026-12-01 18:00:01")
    assert done.returncode != 0
    assert "exists already" in done.stderr
    assert dumps(site.dir) == {"momenta-20261201-180001.dump": "the first\n"}


def test_a_failed_dump_leaves_no_file(site):
    site.fail.touch()
    done = site("2026-12-01 18:00:01")
    assert done.returncode != 0
    assert "connection refused" in done.stderr
    assert dumps(site.dir) == {}


def test_only_the_newest_are_kept_and_nothing_else_is_touched(site):
    (site.dir / "momenta-20261130-0300.dump").write_text("older naming, to the minute\n")
    (site.dir / "notes.txt").write_text("not a dump\n")
    for second in ("01", "02", "03"):
        assert site(f"2026-12-01 18:00:{second}", MOMENTA_BACKUP_KEEP="2").returncode == 0
    assert sorted(dumps(site.dir)) == [
        "momenta-20261201-180002.dump",
        "momenta-20261201-180003.dump",
        "notes.txt",
    ]


def test_the_database_is_the_one_named(site):
    site("2026-12-01 18:00:01", MOMENTA_BACKUP_DB="momenta_staging")
    assert list(dumps(site.dir).values()) == [
        "dump of momenta_staging at 2026-12-01 18:00:01 UTC\n"
    ]


def test_a_dump_is_readable_by_its_owner_only(site):
    """It holds password hashes."""
    site("2026-12-01 18:00:01")
    (dump,) = site.dir.iterdir()
    assert dump.stat().st_mode & 0o077 == 0

"""A backup of a hosted table's folder (`manage.py host`, docs/hosting.md).

`manage.py host_backup [--data DIR] [--to FILE]` copies the database with SQLite's
online backup API, so a table in play is copied whole and consistent (what sits in
its write-ahead log too), and puts it beside the folder's key in one .tar.gz, named
to the second (UTC), readable by its owner only (it holds password hashes), written
aside first and never over an existing file (as deploy/backup does). Static files
are not kept: `manage.py host` collects them again. Restoring is unpacking it into
an empty data folder (docs/hosting.md).
"""

from __future__ import annotations

import os
import sqlite3
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from momenta_site import hosting


def backup(folder: Path, to: Path | None, now: datetime) -> Path:
    """The archive written: DATABASE_FILE and KEY_FILE of `folder`."""
    database, key = folder / hosting.DATABASE_FILE, folder / hosting.KEY_FILE
    if not database.exists() or not key.exists():
        raise CommandError(f"no hosted table in {folder} (no {database.name} or {key.name})")
    if to is None:
        to = folder / "backups" / f"momenta-table-{now:%Y%m%d-%H%M%S}.tar.gz"
    if to.exists():
        raise CommandError(f"{to} exists already; not overwritten")
    to.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=to.parent, prefix=".backup-") as scratch:
        copy = Path(scratch) / hosting.DATABASE_FILE
        source, target = sqlite3.connect(database), sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        partial = Path(scratch) / "archive.tar.gz"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out, tarfile.open(fileobj=out, mode="w:gz") as archive:
            archive.add(copy, arcname=hosting.DATABASE_FILE)
            archive.add(key, arcname=hosting.KEY_FILE)
        try:
            os.link(partial, to)  # fails if the name was taken meanwhile
        except FileExistsError:
            raise CommandError(f"{to} exists already; not overwritten") from None
    return to


class Command(BaseCommand):
    help = "Back up a hosted table's folder (database and key) into one archive."

    def add_arguments(self, parser):
        parser.add_argument("--data", help=f"The table's folder (default {hosting.DEFAULT_DATA}).")
        parser.add_argument("--to", help="The archive (default DIR/backups/, named by time).")

    def handle(self, *args, data=None, to=None, **options):
        folder = hosting.data_folder(data)
        target = Path(to).expanduser().resolve() if to else None
        try:
            written = backup(folder, target, datetime.now(UTC))
        except OSError as error:
            raise CommandError(f"backup failed: {error}") from None
        self.stdout.write(str(written))

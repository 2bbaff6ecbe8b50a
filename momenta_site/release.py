"""Which release this process runs: its version and commit, for /healthz, the admin
header and the JSON log lines, so an operator checking an upgrade or a rollback sees
the code that answers, not only a version shared by every commit between releases.

The version is the code's own (`momenta_site.__version__`, held equal to pyproject.toml
by tests/deploy/test_release.py): an installed package's metadata says what was
installed last, which a checkout without a reinstall leaves behind. The commit is
MOMENTA_COMMIT when the deploy sets it (a copy without .git), else the checkout's
HEAD, read once per process; `unknown` without either.
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

from momenta_site import __version__

ROOT = Path(__file__).resolve().parent.parent
VERSION = __version__
UNKNOWN = "unknown"


@functools.cache
def commit() -> str:
    given = os.environ.get("MOMENTA_COMMIT", "").strip()
    if given:
        return given
    if not (ROOT / ".git").exists():
        return UNKNOWN
    # safe.directory: the service user (momenta) reads a checkout root owned, which git
    # otherwise refuses ("dubious ownership"); it only reads HEAD here.
    argv = ["git", "-c", "safe.directory=*", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"]
    try:
        found = subprocess.run(argv, capture_output=True, text=True, timeout=5, check=True)
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN  # no git on the machine, or not a readable checkout
    return found.stdout.strip() or UNKNOWN


def label() -> str:
    """`0.2.0 (1a2b3c4d5e6f)`."""
    return f"{VERSION} ({commit()})"

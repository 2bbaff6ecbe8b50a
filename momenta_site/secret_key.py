"""Which SECRET_KEY the server signs with (issue 12): never the repository's public one
in production.

Sessions, password-reset tokens, messages and invite links are only as safe as this
key, and the development default is printed in the repository for anyone to read.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# Development and the test suite only (DEBUG on, or under pytest).
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me-in-production"

MISSING = (
    "SECRET_KEY is not set. With DEBUG off the server refuses to run on the "
    "repository's public development key: set the SECRET_KEY environment variable "
    "to a long random value, e.g. "
    "`python -c 'import secrets; print(secrets.token_urlsafe(50))'` "
    "(or DEBUG=1 on a development machine)."
)


def secret_key(*, debug: bool, sqlite_path: str) -> str:
    """SECRET_KEY from the environment; else the development key (DEBUG, tests), a
    random key kept beside the demo's own SQLite file (`manage.py demo`), or refuse."""
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    # pytest sets PYTEST_VERSION for the session, and the servers the tests start
    # inherit it: they must share one key with the test process.
    if debug or "PYTEST_VERSION" in os.environ:
        return DEVELOPMENT_KEY
    if running_demo():
        return demo_key(Path(sqlite_path))
    if running_host():
        # `manage.py host` before it has read its data folder's key, or host_backup:
        # they sign nothing; the table runs with the folder's key (momenta_site/hosting.py).
        return secrets.token_urlsafe(50)
    raise ImproperlyConfigured(MISSING)


def running_demo() -> bool:
    """This process is `manage.py demo` (settings read it too: the demo's static files)."""
    return Path(sys.argv[0]).name == "manage.py" and sys.argv[1:2] == ["demo"]


def running_host() -> bool:
    """This process is `manage.py host` or `host_backup`, which read their key from
    their data folder (tables/management/commands/host.py)."""
    return Path(sys.argv[0]).name == "manage.py" and sys.argv[1:2] in (["host"], ["host_backup"])


def demo_key(database: Path) -> str:
    """The demo database's own random key, made on first use and kept beside it
    (readable by its owner only), so its sessions outlive a restart."""
    path = database.with_name(database.name + ".secret-key")
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key

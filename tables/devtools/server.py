"""A throwaway app server on a free loopback port, with its own fresh SQLite file.

DATABASE_URL and REDIS_URL are dropped from the environment, so the server runs
the embedded stack (SQLite, in-memory channel layer) whatever the caller's
settings say, and never touches a real database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANAGE = [sys.executable, str(ROOT / "manage.py")]
# Served by the app itself (runserver --insecure, demo): answering means it is up.
READY_PATH = "/static/tables/live.js"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(folder: Path, **extra: str) -> dict[str, str]:
    """The environment of a server whose database is `folder`/db.sqlite3."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    if "PYTEST_VERSION" in os.environ:
        # The test suite's servers: a browser login would pay PBKDF2's ~0.4 s of CPU,
        # dozens of times a run (settings.py refuses this outside pytest; issue 38).
        env["TEST_FAST_PASSWORD_HASHER"] = "1"
    env.update(
        SQLITE_PATH=str(folder / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


class ServerProcess:
    """`manage.py <command...> 127.0.0.1:PORT`, logged to `folder`/server.log.

    The port is chosen once, so a stopped server starts again at the same address
    (browsers reconnect to it). Also a context manager: start on enter, stop on exit.
    """

    def __init__(self, folder: Path, command: list[str], env: dict[str, str] | None = None):
        self.folder = Path(folder)
        self.command = command
        self.env = env if env is not None else server_env(self.folder)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = self.folder / "server.log"
        self.database = Path(self.env["SQLITE_PATH"])
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        """Run another manage.py command against this server's database."""
        kwargs.setdefault("timeout", 120)
        return subprocess.run([*MANAGE, *args], cwd=ROOT, env=self.env, check=True, **kwargs)

    def start(self, timeout: float = 90) -> None:
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [*MANAGE, *self.command, f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("the server stopped:\n" + self.log.read_text())
            try:
                urllib.request.urlopen(self.base + READY_PATH, timeout=2)
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

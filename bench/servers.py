"""Server processes for the side-by-side bench: ASGI servers and a throwaway Redis.

Each process is started in its own session and asked (PR_SET_PDEATHSIG) to
die with the bench, so neither an error, Ctrl-C nor a killed bench leaves a
server behind. Only loopback addresses are used.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

HOST = "127.0.0.1"
READY_TIMEOUT_S = 60.0
PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the bench process goes away."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass  # not Linux: the bench's own cleanup still stops the servers


class Process:
    """One child process with its log file; stop() is idempotent."""

    def __init__(self, name: str, argv: list[str], env: dict, cwd: Path, log: Path):
        self.name, self.argv, self.log = name, argv, log
        self._log = open(log, "wb")  # noqa: SIM115 (closed in stop)
        self.popen = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.ps = psutil.Process(self.popen.pid)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def cpu_s(self) -> float:
        """User + system CPU seconds so far (0 once it has exited)."""
        try:
            t = self.ps.cpu_times()
        except psutil.NoSuchProcess:
            return 0.0
        return t.user + t.system + t.children_user + t.children_system

    def rss(self) -> int:
        try:
            return self.ps.memory_info().rss
        except psutil.NoSuchProcess:
            return 0

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, grace: float = 5.0) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)
        self._log.close()


def wait_http(proc: Process, port: int, timeout: float = READY_TIMEOUT_S) -> None:
    """Until the server answers any HTTP request on `port`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited:\n{proc.tail()}")
        try:
            urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # an answer, whatever its status
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{proc.name} not answering on port {port}:\n{proc.tail()}")


def server_argv(server: str, app: str, port: int) -> list[str]:
    """The same server, flags and logging for the relay and the app."""
    if server == "uvicorn":
        # --lifespan off: neither Django's ASGI handler nor Channels' router speaks it.
        return [
            sys.executable,
            "-m",
            "uvicorn",
            app,
            "--host",
            HOST,
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
    if server == "daphne":
        return [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port), "-v", "0", app]
    raise ValueError(server)


class Side:
    """One side of the comparison: N server processes of one ASGI app, on N ports."""

    def __init__(self, name: str, app: str, server: str, processes: int, env: dict, cwd, tmp):
        self.name = name
        self.ports = [free_port() for _ in range(processes)]
        self.procs = [
            Process(
                f"{name}[{i}]",
                server_argv(server, app, port),
                env,
                cwd,
                Path(tmp) / f"{name}-{i}.log",
            )
            for i, port in enumerate(self.ports)
        ]

    def wait_ready(self) -> None:
        for proc, port in zip(self.procs, self.ports, strict=True):
            wait_http(proc, port)

    def url(self, index: int, scheme: str = "http") -> str:
        return f"{scheme}://{HOST}:{self.ports[index % len(self.ports)]}"

    def cpu_s(self) -> float:
        return sum(p.cpu_s() for p in self.procs)

    def rss(self) -> int:
        return sum(p.rss() for p in self.procs)

    def dead(self) -> list[Process]:
        return [p for p in self.procs if not p.alive()]

    def stop(self) -> None:
        for proc in self.procs:
            if proc.alive():
                proc.popen.send_signal(signal.SIGTERM)
        for proc in self.procs:
            proc.stop()


def start_redis(tmp) -> tuple[Process, str]:
    """A throwaway redis-server on a free loopback port: no persistence, no config file.
    REDIS_SERVER names another redis-server than Debian's."""
    port = free_port()
    proc = Process(
        "redis",
        [
            os.environ.get("REDIS_SERVER", "/usr/bin/redis-server"),
            "--port",
            str(port),
            "--bind",
            HOST,
            "--save",
            "",
            "--appendonly",
            "no",
            "--maxclients",
            "10000",
        ],
        dict(os.environ),
        Path(tmp),
        Path(tmp) / "redis.log",
    )
    end = time.monotonic() + 10
    while time.monotonic() < end:
        if not proc.alive():
            raise RuntimeError(f"redis-server exited:\n{proc.tail()}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://{HOST}:{port}"
        except OSError:
            time.sleep(0.05)
    proc.stop()
    raise RuntimeError("redis-server did not answer PING")

"""The pieces of `manage.py host` that come before Django's settings: the data folder,
its key, the names this machine answers to and the environment the table runs in.

Nothing here imports a model: the command's first step runs under whatever settings
the shell had, and builds the environment its second step (and uvicorn) run under
(tables/management/commands/host.py).
"""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
import sqlite3
from pathlib import Path

DEFAULT_DATA = Path("~/.momenta-table")
KEY_FILE = "secret-key"
DATABASE_FILE = "db.sqlite3"
STATIC_FOLDER = "static"
# Set in the environment of the command's second step: settings are this folder's.
DATA_VARIABLE = "MOMENTA_HOST_DATA"
PASSWORD_VARIABLE = "MOMENTA_GM_PASSWORD"
# Variables of a production site that must not leak into a table on a laptop.
# (FORWARDED_ALLOW_IPS: no proxy in front, so the default, loopback only.)
DROPPED = (
    "DATABASE_URL",
    "REDIS_URL",
    "STATIC_ROOT",
    "SECURE_PROXY_SSL_HEADER",
    "DRAIN_FILE",
    "FORWARDED_ALLOW_IPS",
)


class HostError(Exception):
    """Bad input to `manage.py host`: one line for the operator, nothing created."""


def data_folder(value: str | None) -> Path:
    return Path(value).expanduser().resolve() if value else DEFAULT_DATA.expanduser().resolve()


def prepare_folder(folder: Path) -> None:
    """The data folder exists and this user can write in it (else HostError)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{secrets.token_hex(4)}"
        probe.write_text("")
        probe.unlink()
        folder.chmod(0o700)  # the database holds password hashes, the key signs sessions
    except OSError as error:
        raise HostError(f"cannot write in the data folder {folder}: {error.strerror}") from None


def kept_key(folder: Path) -> str:
    """The folder's SECRET_KEY, made on first use, readable by its owner only."""
    path = folder / KEY_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


def has_accounts(folder: Path) -> bool:
    """Whether the folder's database already holds an account (the GM's): not a first
    run. Read-only: a missing database stays missing."""
    path = folder / DATABASE_FILE
    if not path.exists():
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT 1 FROM auth_user LIMIT 1").fetchone() is not None
    except sqlite3.Error:
        return False  # created, but migrate or the first account never finished


def check_port(bind: str, port: int) -> None:
    """HostError when another program listens on the port already."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds: a port whose last connections are closing is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((bind, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise HostError(
                    f"port {port} is in use on {bind}: choose another with --port"
                ) from None
            raise HostError(f"cannot listen on {bind}:{port}: {error.strerror}") from None


def check_tls(cert: str | None, key: str | None) -> None:
    if bool(cert) != bool(key):
        raise HostError("give both --tls-cert and --tls-key, or neither")
    for name, path in (("--tls-cert", cert), ("--tls-key", key)):
        if path and not os.access(path, os.R_OK):
            raise HostError(f"{name} {path}: no such file, or not readable")


def outbound_address() -> str | None:
    """The address this machine's LAN sees it by. A UDP socket 'connected' to a
    documentation address picks the route; no packet is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return None


def machine_addresses(hostname: str) -> list[str]:
    """The IPv4 addresses the machine's name resolves to, and its outbound one."""
    found = []
    try:
        infos = socket.getaddrinfo(hostname, None, socket.AF_INET, socket.SOCK_STREAM)
        found = [info[4][0] for info in infos]
    except OSError:
        pass
    outbound = outbound_address()
    if outbound:
        found.append(outbound)
    return found


def host_names(extra: list[str], hostname: str, addresses: list[str]) -> list[str]:
    """The names browsers may address this table by (ALLOWED_HOSTS): the ones given
    with --host first, then the machine's addresses, its name, then loopback."""
    names = [*extra, *(a for a in addresses if not is_loopback(a)), hostname]
    if hostname and "." not in hostname:
        names.append(f"{hostname}.local")  # mDNS on a home network (macOS, avahi)
    names += ["localhost", "127.0.0.1"]
    kept: list[str] = []
    for name in names:
        name = name.strip().lower()
        if name and name not in kept and not _link_local(name):
            kept.append(name)
    return kept


def _link_local(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_link_local
    except ValueError:
        return False


def base_urls(names: list[str], port: int, tls: bool) -> list[str]:
    scheme = "https" if tls else "http"
    default = 443 if tls else 80
    return [f"{scheme}://{name}" + ("" if port == default else f":{port}") for name in names]


def preferred(names: list[str]) -> str:
    """The name to print the GM's and friends' links with: a --host name if given,
    else the LAN address, else the machine's name (host_names' order)."""
    return next((name for name in names if name != "localhost" and not is_loopback(name)), names[0])


def is_loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def table_environment(
    base: dict[str, str], folder: Path, key: str, names: list[str], urls: list[str], tls: bool
) -> dict[str, str]:
    """The environment the table (the command's second step, then uvicorn) runs in:
    the settings module reads all of it (momenta_site/settings.py)."""
    env = {k: v for k, v in base.items() if k not in DROPPED}
    env.update(
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        DEBUG="0",
        SECRET_KEY=key,
        SQLITE_PATH=str(folder / DATABASE_FILE),
        STATIC_ROOT=str(folder / STATIC_FOLDER),
        ALLOWED_HOSTS=",".join(names),
        CSRF_TRUSTED_ORIGINS=",".join(urls),
        HTTPS="1" if tls else "0",
        # No HSTS: a table at home may be reached over plain HTTP again next week, and
        # browsers would refuse its name for the year HSTS asked for.
        SECURE_HSTS_SECONDS="0",
        PYTHONUNBUFFERED="1",
        **{DATA_VARIABLE: str(folder)},
    )
    return env

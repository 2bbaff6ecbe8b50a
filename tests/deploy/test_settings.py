"""Production settings read from the environment: the PostgreSQL pool, static files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SHOW = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "pool": db.get("OPTIONS", {}).get("pool"),
    "connect_timeout": db.get("OPTIONS", {}).get("connect_timeout"),
    "conn_max_age": db["CONN_MAX_AGE"],
    "storage": settings.STORAGES["staticfiles"]["BACKEND"],
    "finders": settings.WHITENOISE_USE_FINDERS,
}))
"""


def settings_with(**env: str) -> dict:
    """The settings a process started with this environment reads."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "STATIC_ROOT", "CONN_MAX_AGE", "ASGI_HTTP_HANDLER")
    }
    base |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1"}
    code = "import django; django.setup()\n" + SHOW
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base | env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_postgresql_gets_a_connection_pool_and_no_persistent_connections():
    shown = settings_with(DATABASE_URL="postgres://u@db.example:5432/momenta", DB_POOL_MAX_SIZE="7")
    assert shown["pool"] == {"min_size": 2, "max_size": 7, "timeout": 2}
    assert shown["conn_max_age"] == 0  # Django refuses a pool with persistent connections


def test_postgresql_connects_within_a_short_timeout_with_or_without_the_pool():
    """psycopg's own default is 130 s: a host dropping packets held every connect."""
    url = "postgres://u@db.example:5432/momenta"
    assert settings_with(DATABASE_URL=url)["connect_timeout"] == 2
    assert settings_with(DATABASE_URL=url, DB_POOL="0")["connect_timeout"] == 2
    assert settings_with(DATABASE_URL=url, DB_CONNECT_TIMEOUT="5")["connect_timeout"] == 5


def test_db_pool_off_takes_conn_max_age_from_the_environment():
    url = "postgres://u@db.example:5432/momenta"
    shown = settings_with(DATABASE_URL=url, DB_POOL="0", CONN_MAX_AGE="60")
    assert shown["pool"] is None
    assert shown["conn_max_age"] == 60


def test_sqlite_keeps_its_connection_on_the_one_hop_handler():
    """One-hop HTTP runs every request on the process's one sync thread, which keeps its
    connection (tests/deploy/test_asgi_http.py)."""
    shown = settings_with()
    assert shown["pool"] is None
    assert shown["conn_max_age"] == 300


def test_sqlite_keeps_no_connection_past_its_request_on_djangos_handler():
    """Under Django's ASGI handler a request's thread ends with it."""
    shown = settings_with(ASGI_HTTP_HANDLER="django")
    assert shown["pool"] is None
    assert shown["conn_max_age"] == 0


def test_an_unknown_http_handler_is_refused_at_start():
    base = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env = base | {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "ASGI_HTTP_HANDLER": "x"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "ASGI_HTTP_HANDLER" in done.stderr


def test_static_root_set_means_hashed_compressed_files_from_collectstatic(tmp_path):
    shown = settings_with(STATIC_ROOT=str(tmp_path))
    # whitenoise's CompressedManifestStaticFilesStorage, minifying first (issue 29).
    assert shown["storage"] == "momenta_site.static_storage.MinifiedStaticFilesStorage"
    assert shown["finders"] is False


def test_without_static_root_files_are_served_from_the_source_folders():
    shown = settings_with()
    assert shown["storage"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
    assert shown["finders"] is True


HASHERS = (
    "import django; django.setup()\n"
    "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"
)


def test_the_fast_password_hasher_is_refused_outside_the_test_suite():
    """TEST_FAST_PASSWORD_HASHER in a production environment (no pytest session): the
    server refuses to start rather than store MD5 password hashes (issue 38)."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PYTEST_VERSION")}
    env = base | {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "-c", HASHERS],
        cwd=ROOT,
        env=env | {"TEST_FAST_PASSWORD_HASHER": "1"},
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "TEST_FAST_PASSWORD_HASHER" in done.stderr
    # Without it, Django's own PBKDF2.
    done = subprocess.run(
        [sys.executable, "-c", HASHERS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "django.contrib.auth.hashers.PBKDF2PasswordHasher", done.stderr


def test_the_servers_the_tests_start_hash_passwords_fast(tmp_path):
    """tables/devtools/server.py's servers under pytest: a browser login costs no PBKDF2."""
    from tables.devtools.server import server_env

    env = server_env(tmp_path)
    assert env["TEST_FAST_PASSWORD_HASHER"] == "1"
    done = subprocess.run(
        [sys.executable, "-c", HASHERS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "django.contrib.auth.hashers.MD5PasswordHasher", done.stderr

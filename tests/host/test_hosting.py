"""`manage.py host`'s pieces before Django's settings (momenta_site/hosting.py): the
names the table answers to, its kept key, and the environment its settings read."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

from momenta_site import hosting

ROOT = Path(__file__).resolve().parents[2]


def test_the_given_names_come_first_then_the_machines_addresses_then_loopback():
    names = hosting.host_names(
        ["Table.Example.org", "table.test"],
        "gamebox",
        ["127.0.1.1", "192.168.1.20", "192.168.1.20", "169.254.3.4"],
    )
    assert names == [
        "table.example.org",
        "table.test",
        "192.168.1.20",
        "gamebox",
        "gamebox.local",
        "localhost",
        "127.0.0.1",
    ]
    # The links printed for the GM and the friends use the first one friends can reach.
    assert hosting.preferred(names) == "table.example.org"
    assert hosting.preferred(hosting.host_names([], "gamebox", ["10.0.0.5"])) == "10.0.0.5"
    assert hosting.preferred(["localhost", "127.0.0.1"]) == "localhost"


def test_urls_name_the_port_unless_it_is_the_schemes_own():
    assert hosting.base_urls(["a.test"], 8000, tls=False) == ["http://a.test:8000"]
    assert hosting.base_urls(["a.test"], 443, tls=True) == ["https://a.test"]
    assert hosting.base_urls(["a.test"], 80, tls=False) == ["http://a.test"]


def test_the_key_is_made_once_readable_by_its_owner_only_and_kept(tmp_path):
    first = hosting.kept_key(tmp_path)
    assert len(first) > 40
    assert stat.S_IMODE((tmp_path / hosting.KEY_FILE).stat().st_mode) == 0o600
    assert hosting.kept_key(tmp_path) == first


def test_an_empty_folder_is_a_first_run_and_a_database_with_an_account_is_not(tmp_path):
    import sqlite3

    assert not hosting.has_accounts(tmp_path)
    assert not (tmp_path / hosting.DATABASE_FILE).exists()  # looking created nothing
    with sqlite3.connect(tmp_path / hosting.DATABASE_FILE) as db:
        db.execute("CREATE TABLE auth_user (id INTEGER)")
    assert not hosting.has_accounts(tmp_path)  # migrated, the GM never made
    with sqlite3.connect(tmp_path / hosting.DATABASE_FILE) as db:
        db.execute("INSERT INTO auth_user VALUES (1)")
    assert hosting.has_accounts(tmp_path)


def settings_under(env: dict[str, str]) -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "print(json.dumps({k: getattr(s, k) for k in ('DEBUG', 'SECRET_KEY', 'ALLOWED_HOSTS',"
        " 'CSRF_TRUSTED_ORIGINS', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE',"
        " 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'STATIC_COLLECTED', 'REDIS_URL'"
        ")} | {'db': s.DATABASES['default']['NAME'], 'engine': s.DATABASES['default']['ENGINE'],"
        " 'static': str(s.STATIC_ROOT)}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_table_runs_on_its_folder_with_debug_off_and_cookies_fit_for_plain_http(tmp_path):
    shell = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://x/y", "REDIS_URL": "redis://x"}
    names = ["table.test", "localhost"]
    urls = hosting.base_urls(names, 8123, tls=False)
    env = hosting.table_environment(shell, tmp_path, "k" * 60, names, urls, tls=False)
    seen = settings_under(env)
    assert seen["DEBUG"] is False
    assert seen["SECRET_KEY"] == "k" * 60
    assert seen["engine"].endswith("sqlite3")
    assert seen["db"] == str(tmp_path / "db.sqlite3")
    assert seen["REDIS_URL"] == ""  # the in-memory channel layer, one process
    assert seen["static"] == str(tmp_path / "static") and seen["STATIC_COLLECTED"]
    assert seen["ALLOWED_HOSTS"] == names
    assert seen["CSRF_TRUSTED_ORIGINS"] == ["http://table.test:8123", "http://localhost:8123"]
    # A friend on a LAN address over plain HTTP must keep their session and CSRF cookie.
    assert seen["SESSION_COOKIE_SECURE"] is False and seen["CSRF_COOKIE_SECURE"] is False
    assert seen["SECURE_SSL_REDIRECT"] is False


def test_with_tls_the_cookies_are_secure_only_and_no_hsts_is_asked(tmp_path):
    names = ["table.test"]
    env = hosting.table_environment(
        {"PATH": "/usr/bin:/bin"},
        tmp_path,
        "k" * 60,
        names,
        hosting.base_urls(names, 8443, tls=True),
        tls=True,
    )
    seen = settings_under(env)
    assert seen["SESSION_COOKIE_SECURE"] is True and seen["CSRF_COOKIE_SECURE"] is True
    assert seen["CSRF_TRUSTED_ORIGINS"] == ["https://table.test:8443"]
    assert seen["SECURE_HSTS_SECONDS"] == 0

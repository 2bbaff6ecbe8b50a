"""The demo: seed_demo is idempotent, and `manage.py demo` serves a page you can log into."""

import gzip
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from tables.management.commands.seed_demo import PASSWORD
from tables.models import Attribute, Campaign, Character, Membership, Trait

ROOT = Path(__file__).resolve().parents[2]


def _counts():
    return [m.objects.count() for m in (Campaign, Membership, Character, Attribute, Trait)]


@pytest.mark.django_db
def test_seed_demo_creates_the_demo_and_prints_the_logins():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    text = out.getvalue()
    assert "http://127.0.0.1:8000/" in text
    for name in ("gm", "alice", "bob", "cara"):
        assert name in text
        # As the login form asks: axes' backend counts by the request's address.
        request = RequestFactory().post("/login/")
        assert authenticate(request, username=name, password=PASSWORD) is not None
    assert PASSWORD in text

    momenta = Campaign.objects.get(preset="momenta")
    assert momenta.owner.username == "gm"
    for character in momenta.characters.filter(is_npc=False):
        assert character.attributes.filter(name="LUCK").exists()
        assert character.traits.filter(kind="thread").exists()
        assert character.resolve_max > 0

    d20 = Campaign.objects.get(preset="2d20")
    kara = d20.characters.get(name="Kara")
    assert kara.skills.filter(name="Communicate").exists()
    assert kara.owner.username == "alice"
    marcus = d20.characters.get(name="Marcus")
    assert marcus.is_npc and marcus.owner.username == "gm"
    assert d20.characters.filter(name="Anna").exists()
    assert d20.memberships.get(user__username="cara").role == "observer"


@pytest.mark.django_db
def test_seed_demo_twice_changes_nothing():
    call_command("seed_demo", stdout=StringIO())
    before = _counts()
    names = sorted(Character.objects.values_list("name", "momentum", "resolve"))
    call_command("seed_demo", stdout=StringIO())
    assert _counts() == before
    assert sorted(Character.objects.values_list("name", "momentum", "resolve")) == names


@pytest.mark.django_db
def test_demo_command_migrates_seeds_then_serves(monkeypatch):
    from tables.management.commands import demo

    calls = []
    real = demo.call_command

    def record(name, *args, **kwargs):
        calls.append((name, args, kwargs))
        if name != "runserver":
            real(name, *args, **kwargs)

    monkeypatch.setattr(demo, "call_command", record)
    call_command("demo", stdout=StringIO())
    assert [c[0] for c in calls] == ["migrate", "seed_demo", "runserver"]
    assert calls[-1][1] == ("127.0.0.1:8000",)
    assert calls[-1][2]["use_reloader"] is False


@pytest.mark.django_db
@pytest.mark.parametrize(
    "addrport, url",
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000/"),
        ("127.0.0.1:8123", "http://127.0.0.1:8123/"),
        ("8124", "http://127.0.0.1:8124/"),
    ],
)
def test_demo_prints_the_url_it_serves_once(monkeypatch, addrport, url):
    """Not "ready at :8000" and then "(Serving on … instead.)": the real URL, once."""
    from tables.management.commands import demo

    real = demo.call_command

    def record(name, *args, **kwargs):
        if name != "runserver":
            real(name, *args, **kwargs)

    monkeypatch.setattr(demo, "call_command", record)
    out = StringIO()
    call_command("demo", addrport, stdout=out)
    text = out.getvalue()
    assert f"Demo ready at {url}" in text
    assert text.count("http://") == 1 and "instead" not in text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_demo_serves_a_login_on_a_fresh_database(tmp_path):
    """The README's first command, on a fresh SQLite file: log in as alice, see home."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(tmp_path / "demo.sqlite3")
    env["PYTHONUNBUFFERED"] = "1"
    log = open(tmp_path / "demo.log", "w+")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "demo", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = opener.open(f"{base}/login/", timeout=5).read().decode()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"demo did not start:\n{log.read()}")
                time.sleep(0.3)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode(
            {"username": "alice", "password": PASSWORD, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(
            f"{base}/login/", data=form, headers={"Referer": f"{base}/login/"}
        )
        request.add_header("Accept-Encoding", "gzip")
        # Hashing the password on a loaded machine can take seconds.
        home = opener.open(request, timeout=30)
        # Compressed, as production's proxy compresses (issue 29).
        assert home.headers["Content-Encoding"] == "gzip"
        body = gzip.decompress(home.read()).decode()
        assert home.geturl() == f"{base}/"
        assert "The Salt Roads" in body and "House Intrigue" in body
        assert opener.open(f"{base}/static/tables/site.css", timeout=5).status == 200
        # The pages name collected files (issue 29): hashed, so cached for a year,
        # gzipped, and minified: no comments, no indentation.
        for kind in ("css", "js"):
            url = re.search(rf'"(/static/tables/site\.[0-9a-f]{{12}}\.{kind})"', body).group(1)
            asked = urllib.request.Request(base + url, headers={"Accept-Encoding": "gzip"})
            answer = opener.open(asked, timeout=5)
            max_age = re.search(r"max-age=(\d+)", answer.headers["Cache-Control"]).group(1)
            assert int(max_age) >= 365 * 24 * 3600
            assert answer.headers["Content-Encoding"] == "gzip"
            text = gzip.decompress(answer.read()).decode()
            assert "/*" not in text and "\n  " not in text, url
        log.seek(0)
        assert "alice" in log.read()
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()

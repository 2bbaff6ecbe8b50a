"""EMAIL_URL (issue 27): one setting says how password-reset mail leaves the site;
the console is the default, a URL that cannot be read stops the server at start.
Django's EMAIL_BACKEND holds a request's mail until its answer is sent, then hands it
to the URL's backend, EMAIL_DELIVERY_BACKEND (issue 34, momenta_site/mail.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from momenta_site.email_url import email_settings

ROOT = Path(__file__).resolve().parents[2]
SMTP = "django.core.mail.backends.smtp.EmailBackend"
HOLDING = "momenta_site.mail.HoldingBackend"

SHOW = """
import json
import django
django.setup()
from django.conf import settings
names = ["EMAIL_BACKEND", "EMAIL_DELIVERY_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS"]
names.append("DEFAULT_FROM_EMAIL")
print(json.dumps({name: getattr(settings, name) for name in names}))
"""


def started_with(**env: str) -> subprocess.CompletedProcess:
    """A process that loads the settings with this environment, and prints its mail ones."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL", "DEFAULT_FROM"))}
    base |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1"}
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=base | env, capture_output=True, text=True
    )


def test_without_email_url_mail_is_printed_to_the_console():
    done = started_with()
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["EMAIL_BACKEND"] == HOLDING
    assert shown["EMAIL_DELIVERY_BACKEND"].endswith("console.EmailBackend")


def test_an_smtp_url_sets_djangos_mail_settings():
    done = started_with(
        EMAIL_URL="smtp://bot:pw@mail.example.org:2525?tls=1", DEFAULT_FROM_EMAIL="t@example.org"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "EMAIL_BACKEND": HOLDING,
        "EMAIL_DELIVERY_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 2525,
        "EMAIL_USE_TLS": True,
        "DEFAULT_FROM_EMAIL": "t@example.org",
    }


def test_an_unreadable_email_url_stops_the_start_with_the_reason():
    done = started_with(EMAIL_URL="smpt://bot:s3cret@mail.example.org")
    assert done.returncode != 0
    assert "EMAIL_URL must start with one of" in done.stderr
    assert "got smpt://." in done.stderr
    assert "s3cret" not in done.stderr  # the journal keeps what it is shown


def test_smtp_with_starttls_user_and_password():
    assert email_settings("smtp://user%40example.org:p%3Ass@mail.example.org:587?tls=1") == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "user@example.org",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": 10,
    }


@pytest.mark.parametrize(
    "url,port,tls,ssl",
    [
        ("smtp://relay.local", 25, False, False),
        ("smtp://relay.local?tls=1", 587, True, False),
        ("smtps://relay.local", 465, False, True),
        ("smtp://relay.local?ssl=1", 465, False, True),
    ],
)
def test_smtp_ports_follow_the_encryption_asked_for(url, port, tls, ssl):
    values = email_settings(url)
    assert (values["EMAIL_PORT"], values["EMAIL_USE_TLS"], values["EMAIL_USE_SSL"]) == (
        port,
        tls,
        ssl,
    )
    assert values["EMAIL_HOST_USER"] == values["EMAIL_HOST_PASSWORD"] == ""


def test_smtp_timeout_is_read_from_the_url():
    assert email_settings("smtp://relay.local?timeout=3")["EMAIL_TIMEOUT"] == 3


@pytest.mark.parametrize(
    "url,backend",
    [
        ("console://", "console"),
        ("locmem://", "locmem"),
        ("dummy://", "dummy"),
    ],
)
def test_local_backends(url, backend):
    assert email_settings(url) == {
        "EMAIL_BACKEND": f"django.core.mail.backends.{backend}.EmailBackend"
    }


def test_file_url_names_the_folder():
    assert email_settings("file:///var/spool/momenta-mail") == {
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": "/var/spool/momenta-mail",
    }


@pytest.mark.parametrize(
    "url",
    [
        "",
        "mail.example.org",
        "smtp://",
        "smtp://relay.local:port",
        "smtp://relay.local?timeout=soon",
        "smtp://relay.local?tls=1&ssl=1",
        "smtps://relay.local?tls=1",
        "file://relative/folder",
    ],
)
def test_an_unreadable_url_is_refused(url):
    with pytest.raises(ImproperlyConfigured):
        email_settings(url)

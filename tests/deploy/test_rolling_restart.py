"""The documented upgrade under load: `deploy/restart` while players keep posting.

Runs in `.ci/run`'s deploy stage only (two workers behind Caddy, PostgreSQL +
Redis, see tests/deploy/test_through_proxy.py), where it must pass, never skip.
A member posts table talk through the proxy a few times a second, as the page
does (htmx, an Idempotency-Key per submission), while `deploy/restart` drains,
stops and starts each worker in turn. Every POST must be answered 200 (no 502
from a worker shutting down, no 503 "no upstreams" from a proxy that has not yet
re-admitted the restarted one), and the log must hold each submission exactly
once. Before the restart, as an upgrade does (deploy/README.md, "Upgrading"), a
migration runs under the same load: the schema editor adds a column with a
database default, the shape momenta_site/migration_safety.py lets through, which
the running code never names. The environment names the stack:

- MOMENTA_DEPLOY_URL: the site, balancing both workers;
- MOMENTA_DEPLOY_RESTART: the command that restarts them (deploy/restart, with
  the environment that points it at CI's workers).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shlex
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter

import pytest

from tests.deploy.test_through_proxy import ROOT, manage_shell
from tests.e2e.conftest import PASSWORD

pytestmark = pytest.mark.skipif(
    not (os.environ.get("MOMENTA_DEPLOY_URL") and os.environ.get("MOMENTA_DEPLOY_RESTART")),
    reason="the deploy stack runs in .ci/run only",
)

# What `AddField(TableEvent, BooleanField(db_default=False))` runs in a migration.
MIGRATION = """
from django.db import connection, models
from tables.models import TableEvent
field = models.BooleanField(db_default=False)
field.set_attributes_from_name("upgrade_probe_{suffix}")
field.model = TableEvent  # as the migration's state gives it (for the default's SQL)
with connection.schema_editor() as editor:
    editor.add_field(TableEvent, field)
"""

# A few commands a second, as a busy table gives them; a pause, not an assertion.
PAUSE_SECONDS = 0.25
# Posts before the restart begins and after it ends: the load spans it all.
AROUND = 8

SEED = """
import json, os
from django.contrib.auth import get_user_model
from tables.models import Campaign, Membership
from tables.services.campaigns import PRESETS

user = get_user_model().objects.create_user(NAME, password=os.environ["E2E_PASSWORD"])
dice_system, economy = PRESETS[Campaign.Preset.MOMENTA]
c = Campaign.objects.create(
    name="Rolling restart", owner=user, preset=Campaign.Preset.MOMENTA,
    dice_system=dice_system, economy=economy,
)
Membership.objects.create(campaign=c, user=user, role="gm")
print("SEED=" + json.dumps({"campaign": c.pk}))
"""


class Member:
    """One logged-in browser session, over plain HTTP through the proxy."""

    def __init__(self, base: str, name: str, password: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(f"{base}/login/", timeout=30).read()
        answer = self.post("/login/", {"username": name, "password": password}, htmx=False)
        assert answer == 200, answer

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post(self, path: str, data: dict, *, htmx: bool = True, key: str | None = None):
        """The answer's status, or the error's text when there was no answer."""
        headers = {"X-CSRFToken": self.csrf(), "Referer": self.base + path}
        if htmx:
            headers["HX-Request"] = "true"
        if key:
            headers["Idempotency-Key"] = key
        body = urllib.parse.urlencode(data | {"csrfmiddlewaretoken": self.csrf()}).encode()
        request = urllib.request.Request(self.base + path, body, headers)
        try:
            with self.opener.open(request, timeout=30) as answer:
                answer.read()
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError as error:
            return repr(error)


def test_a_rolling_restart_under_load_fails_no_command_and_loses_no_event():
    base = os.environ["MOMENTA_DEPLOY_URL"]
    name = f"upgrader-{uuid.uuid4().hex[:8]}"  # a fresh member, however often it runs
    seeded = manage_shell(f"NAME = {name!r}\n{SEED}")
    campaign = json.loads(seeded.split("SEED=", 1)[1])["campaign"]
    member = Member(base, name, PASSWORD)
    path = f"/campaigns/{campaign}/table/talk/"

    sent: list[tuple[str, object]] = []  # (key, status)
    restarted = threading.Event()

    pause = threading.Event()  # never set: waits between posts

    def load() -> None:
        after = 0
        while after < AROUND:
            key = str(uuid.uuid4())
            sent.append((key, member.post(path, {"mode": "ic", "text": key}, key=key)))
            if restarted.is_set():
                after += 1
            pause.wait(PAUSE_SECONDS)

    poster = threading.Thread(target=load)
    poster.start()
    try:
        while len(sent) < AROUND and poster.is_alive():
            pause.wait(PAUSE_SECONDS)
        manage_shell(MIGRATION.format(suffix=name.rsplit("-", 1)[1]))
        done = subprocess.run(
            shlex.split(os.environ["MOMENTA_DEPLOY_RESTART"]),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=150,
        )
    finally:
        restarted.set()
        poster.join(timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"{len(sent)} posts during the rolling restart:\n{done.stdout}")

    failed = [(key, status) for key, status in sent if status != 200]
    statuses = Counter(str(status) for _, status in failed)
    assert failed == [], f"{len(failed)} of {len(sent)} posts failed: {dict(statuses)}"
    # Each submission is in the log exactly once: none lost, none applied twice.
    talk = manage_shell(
        "import json; from tables.models import TableEvent; "
        f"talk = TableEvent.objects.filter(campaign_id={campaign}, kind='talk'); "
        "print('TALK=' + json.dumps([e.payload['text'] for e in talk]))"
    )
    logged = json.loads(talk.split("TALK=", 1)[1])
    assert sorted(logged) == sorted(key for key, _ in sent)

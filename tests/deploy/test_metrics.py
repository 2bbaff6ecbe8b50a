"""`/metrics` for Prometheus (issue 39; momenta_site/metrics.py).

It answers a direct connection from loopback, or anyone with `Authorization: Bearer
<METRICS_TOKEN>`; everyone else, a request the proxy forwarded included (its client may
be on loopback too), gets the site's 404 as for a missing page. It counts requests and
5xx by view, times the commands, and asks the database and Redis at each scrape. The
sockets and events it counts are tested with the live path (tests/live/test_metrics.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import ApplicationCommunicator
from django.db import OperationalError, connection
from django.test import Client
from django.urls import path, reverse
from prometheus_client import generate_latest

from momenta_site import metrics
from momenta_site.asgi import application
from tables.urls import urlpatterns as site_urlpatterns
from tests.deploy.asgi_scopes import http_scope
from tests.deploy.test_healthz import dead_redis_cache
from tests.metrics_scrape import parse, scrape, value

pytestmark = pytest.mark.django_db

METRIC_NAMES = (
    "momenta_http_requests_total",
    "momenta_command_seconds",
    "momenta_sockets_open",
    "momenta_events_pushed_total",
    "momenta_database_up",
)


def test_loopback_gets_every_metric_over_plain_http_at_a_workers_address(client, settings):
    """Prometheus scrapes 127.0.0.1:8001 over HTTP: no 400 for the host, no https redirect."""
    settings.ALLOWED_HOSTS = ["table.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    answer = client.get("/metrics", HTTP_HOST="127.0.0.1:8001")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain; version=")
    assert answer["Cache-Control"] == "no-store"
    text = answer.content.decode()
    for name in METRIC_NAMES:
        assert f"# TYPE {name} " in text, name
    assert value(parse(text), "momenta_database_up") == 1


def test_ipv6_loopback_gets_the_metrics():
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 200


def page(answer) -> bytes:
    return re.sub(rb"[A-Za-z0-9]{64}", b"", answer.content)


@pytest.mark.parametrize("address", ["203.0.113.5", "10.0.0.7", "192.168.1.20", "", "unix"])
def test_any_other_address_gets_the_sites_404_as_for_a_missing_page(address):
    visitor = Client(REMOTE_ADDR=address)
    refused = visitor.get("/metrics")
    missing = visitor.get("/no-such-page")
    assert refused.status_code == missing.status_code == 404
    # The same page, but for the path and the CSRF token each answer draws anew.
    assert page(refused).replace(b"/metrics", b"/no-such-page") == page(missing)
    assert b"momenta_" not in refused.content


def test_the_right_token_opens_it_from_anywhere_and_a_wrong_one_nowhere(settings):
    settings.METRICS_TOKEN = "scrape-token-0123456789"
    remote, local = Client(REMOTE_ADDR="203.0.113.5"), Client()
    assert (
        remote.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-token-0123456789").status_code
        == 200
    )
    assert (
        remote.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-token-012345678").status_code
        == 404
    )
    assert remote.get("/metrics", HTTP_AUTHORIZATION="scrape-token-0123456789").status_code == 404
    assert remote.get("/metrics").status_code == 404
    # A wrong token is refused from loopback too: a stale scrape config shows at once.
    assert local.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert local.get("/metrics", HTTP_AUTHORIZATION="").status_code == 404


def test_without_a_token_set_no_token_opens_it(settings):
    settings.METRICS_TOKEN = ""
    remote = Client(REMOTE_ADDR="203.0.113.5")
    for offered in ("Bearer ", "Bearer", ""):
        assert remote.get("/metrics", HTTP_AUTHORIZATION=offered).status_code == 404, offered


def test_only_get_and_head_read_it():
    assert Client().head("/metrics").status_code == 200
    assert Client().post("/metrics").status_code == 404


# --- Behind the proxy: the ASGI app as uvicorn runs it ---------------------------------


async def asgi_status(client: tuple[str, int], *headers: tuple[bytes, bytes]) -> int:
    """The status momenta_site.asgi answers GET /metrics with, from `client`."""
    scope = http_scope("/metrics", client, *headers, server=("127.0.0.1", 8001))
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    while (await communicator.receive_output(10)).get("more_body"):
        pass
    await communicator.wait(10)
    return start["status"]


CADDY = ("127.0.0.1", 48000)  # the proxy: loopback, in FORWARDED_ALLOW_IPS


@pytest.mark.django_db(transaction=True)
async def test_prometheus_on_the_machine_reaches_the_instance_directly():
    assert await asgi_status(CADDY) == 200
    assert await asgi_status(("::1", 48000)) == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "forwarded_for",
    [
        b"203.0.113.7",  # a client on the internet
        b"127.0.0.1",  # a client claiming loopback, or one on this machine going through Caddy
        b"127.0.0.1, 203.0.113.7",  # a client's own header, appended to by the proxy
        b"::1",
    ],
)
async def test_a_request_through_the_proxy_is_never_loopback(forwarded_for):
    """TrustedProxyMiddleware gives the app X-Forwarded-For's address for Caddy's
    requests; whatever that is, a forwarded request is not Prometheus on this machine."""
    assert await asgi_status(CADDY, (b"x-forwarded-for", forwarded_for)) == 404


@pytest.mark.django_db(transaction=True)
async def test_forwarding_headers_are_refused_whoever_sends_them():
    for header in (b"forwarded", b"x-real-ip"):
        assert await asgi_status(CADDY, (header, b"127.0.0.1")) == 404
    # Not from the proxy: X-Forwarded-For is not believed, and the address is not loopback.
    assert await asgi_status(("203.0.113.7", 5000), (b"x-forwarded-for", b"127.0.0.1")) == 404


@pytest.mark.django_db(transaction=True)
async def test_the_token_opens_it_through_the_proxy(settings):
    settings.METRICS_TOKEN = "scrape-token-0123456789"
    headers = [(b"x-forwarded-for", b"203.0.113.7")]
    assert await asgi_status(CADDY, *headers) == 404
    bearer = (b"authorization", b"Bearer scrape-token-0123456789")
    assert await asgi_status(CADDY, *headers, bearer) == 200


# --- What it counts ------------------------------------------------------------------------


def broken_view(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [path("broken/", broken_view, name="metrics_broken"), *site_urlpatterns]


@pytest.mark.urls(__name__)
def test_a_5xx_is_counted_by_its_view():
    before = scrape()
    visitor = Client(raise_request_exception=False)
    assert visitor.get("/broken/").status_code == 500
    assert visitor.get("/broken/").status_code == 500
    assert visitor.get("/login/").status_code == 200
    after = scrape()
    broken = {"view": "metrics_broken", "status": "5xx"}
    assert value(after, "momenta_http_requests_total", **broken) == (
        value(before, "momenta_http_requests_total", **broken) + 2
    )
    login = {"view": "login", "status": "2xx"}
    assert value(after, "momenta_http_requests_total", **login) == (
        value(before, "momenta_http_requests_total", **login) + 1
    )
    assert value(after, "momenta_http_requests_total", view="login", status="5xx") == value(
        before, "momenta_http_requests_total", view="login", status="5xx"
    )


def test_a_missing_page_is_counted_unmatched():
    before = scrape()
    assert Client().get("/no-such-page").status_code == 404
    key = {"view": "unmatched", "status": "4xx"}
    assert value(scrape(), "momenta_http_requests_total", **key) == (
        value(before, "momenta_http_requests_total", **key) + 1
    )


def test_commands_are_timed_by_view_and_pages_are_not(client_for, d20_campaign):
    gm = client_for("gm")
    count = "momenta_command_seconds_count"
    before = scrape()
    threat = reverse("gm_threat", args=[d20_campaign.pk])
    form = {"action": "add", "amount": 1, "reason": "x", "expected": 0}
    answer = gm.post(threat, form, HTTP_HX_REQUEST="true")  # as htmx sends it
    assert answer.status_code == 200
    assert gm.get(reverse("table", args=[d20_campaign.pk])).status_code == 200
    after = scrape()
    assert value(after, count, view="gm_threat") == value(before, count, view="gm_threat") + 1
    # Unchanged by the page's GET (not 0: the process's counters are global, and the
    # fuzz POSTs to every URL, the table's too, when it runs first on this worker).
    assert value(after, count, view="table") == value(before, count, view="table")
    # Observed into its buckets: the slowest bucket holds it.
    assert value(after, "momenta_command_seconds_bucket", view="gm_threat", le="+Inf") == (
        value(after, count, view="gm_threat")
    )


def test_a_post_outside_a_campaign_is_not_a_command():
    before = scrape()
    Client().post(reverse("login"), {"username": "nobody", "password": "x"})
    after = scrape()
    count = "momenta_command_seconds_count"
    assert value(after, count, view="login") == value(before, count, view="login") == 0


# --- The database's and Redis's state, asked at the scrape --------------------------------


def test_database_up_is_0_when_the_database_does_not_answer(monkeypatch):
    def refused():
        raise OperationalError("connection refused")

    assert value(scrape(), "momenta_database_up") == 1
    monkeypatch.setattr(connection, "ensure_connection", refused)
    assert value(scrape(), "momenta_database_up") == 0


def test_redis_up_follows_the_cache_and_channel_layer(settings):
    settings.REDIS_URL = ""  # CI's second stage runs with Redis configured
    assert ("momenta_redis_up", ()) not in scrape()  # no Redis configured: none to watch
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert value(scrape(), "momenta_redis_up") == 1  # what settings give answers (here: memory)
    settings.CACHES = dead_redis_cache()
    assert value(scrape(), "momenta_redis_up") == 0


# --- Several workers behind one port: prometheus_client's multiprocess mode --------------

ROOT = Path(__file__).resolve().parents[2]
WORKER = """
import sys
from tables.live.metrics import EVENTS_PUSHED, SOCKETS_OPEN
SOCKETS_OPEN.inc(int(sys.argv[1]))
EVENTS_PUSHED.labels("note").inc()
print("counted", flush=True)
sys.stdin.read()  # alive until told
"""


def worker(folder, sockets: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(sockets)],
        env={"PROMETHEUS_MULTIPROC_DIR": str(folder), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout.readline() == "counted\n"
    return process


def workers_scrape(folder):
    return parse(generate_latest(metrics.registry(str(folder))).decode())


def test_several_workers_are_added_up_and_a_dead_ones_sockets_dropped(tmp_path):
    first, second = worker(tmp_path, 3), worker(tmp_path, 2)
    try:
        samples = workers_scrape(tmp_path)
        assert value(samples, "momenta_sockets_open") == 5
        assert value(samples, "momenta_events_pushed_total", kind="note") == 2
        first.communicate("")  # the first worker dies (its sockets with it)
        samples = workers_scrape(tmp_path)
        assert value(samples, "momenta_sockets_open") == 2
        # Its counts stay: a total never goes back.
        assert value(samples, "momenta_events_pushed_total", kind="note") == 2
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.communicate("")

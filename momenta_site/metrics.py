"""`/metrics` for Prometheus (issue 39), and the HTTP counts it shows.

`MetricsMiddleware`, right after /healthz in settings.MIDDLEWARE, counts every other
request by view (its URL name) and status class, and times the commands (a POST to a
campaign's URL) by view. The live path counts its sockets and events itself
(tables/live/metrics.py). The database's and Redis's state are asked at each scrape, by
/healthz's own checks (momenta_site/health.py).

Who may read it: a direct connection from loopback (Prometheus on the machine scraping
127.0.0.1:PORT), or a request carrying `Authorization: Bearer <METRICS_TOKEN>`. A request
the proxy forwarded is never loopback, whatever address it claims: TrustedProxyMiddleware
takes the client's address from the proxy's X-Forwarded-For, and Caddy's own address is
loopback, so the forwarding headers themselves refuse it. Anyone else gets the site's
404, as for a page that does not exist.

Several workers behind one port (`serve --workers N`) share their counts through
prometheus_client's multiprocess mode: `serve` sets PROMETHEUS_MULTIPROC_DIR, and a
scrape adds up every worker's files, whichever worker answers it.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from pathlib import Path

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from momenta_site import health

PATH = "/metrics"

REQUESTS = Counter(
    "momenta_http_requests",
    "HTTP requests answered, by view (URL name) and status class (2xx to 5xx).",
    ["view", "status"],
)
COMMAND_SECONDS = Histogram(
    "momenta_command_seconds",
    "Seconds to answer a command (a POST to a campaign's URL), by view.",
    ["view"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
# Headers a proxy adds: a request carrying one came through it, not from this machine.
FORWARDED = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


def view_name(request) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name
    # Answered before URL resolution (whitenoise), or by no URL at all (a 404).
    return "static" if request.path.startswith(settings.STATIC_URL) else "unmatched"


def is_command(request) -> bool:
    match = getattr(request, "resolver_match", None)
    return (
        request.method == "POST"
        and match is not None
        and not match.namespaces  # the admin's pk is not a campaign
        and "pk" in match.kwargs
    )


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def allowed(request) -> bool:
    """The right token from anywhere; otherwise a direct connection from loopback only.
    A wrong token is refused from anywhere."""
    offered = request.headers.get("Authorization")
    if offered is not None:
        token = settings.METRICS_TOKEN
        expected = f"Bearer {token}".encode()
        return bool(token) and hmac.compare_digest(offered.encode("latin-1"), expected)
    if any(header in request.headers for header in FORWARDED):
        return False
    return _loopback(request.META.get("REMOTE_ADDR") or "")


class Dependencies:
    """The database's and Redis's state, asked at scrape time: 1 answers, 0 not."""

    def collect(self):
        failed = set(async_to_sync(health.failures)())
        yield GaugeMetricFamily(
            "momenta_database_up",
            "The database answers a query.",
            value=int("database" not in failed),
        )
        if settings.REDIS_URL:  # without Redis there is none to watch
            redis_up = not failed & {"cache", "channel layer"}
            yield GaugeMetricFamily(
                "momenta_redis_up",
                "Redis answers the cache and the channel layer.",
                value=int(redis_up),
            )


def forget_dead_workers(path: str) -> None:
    """A dead worker's open sockets died with it: drop its live gauges' files (its
    counters stay, so totals do not go back)."""
    for file in Path(path).glob("gauge_live*_*.db"):
        pid = int(file.stem.rsplit("_", 1)[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, path)
        except PermissionError:
            pass  # alive, as another user


# Read once, at import, as prometheus_client reads it to choose where its counts live.
MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def registry(path: str = ""):
    """This process's metrics, or every worker's under the multiprocess mode."""
    path = path or MULTIPROC_DIR
    if not path:
        return REGISTRY
    forget_dead_workers(path)
    shared = CollectorRegistry()
    multiprocess.MultiProcessCollector(shared, path=path)
    return shared


def exposition() -> HttpResponse:
    body = generate_latest(registry()) + generate_latest(Dependencies())
    response = HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response


class MetricsMiddleware:
    """Answers `/metrics` before host checks and redirects (Prometheus scrapes a worker
    at 127.0.0.1:PORT over plain HTTP, like /healthz's probes), and counts the rest."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == PATH and request.method in ("GET", "HEAD") and allowed(request):
            return exposition()
        started = time.perf_counter()
        response = self.get_response(request)  # a refused /metrics: the site's own 404
        view = view_name(request)
        REQUESTS.labels(view, f"{response.status_code // 100}xx").inc()
        if is_command(request):
            COMMAND_SECONDS.labels(view).observe(time.perf_counter() - started)
        return response

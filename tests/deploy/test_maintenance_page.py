"""Caddy's maintenance page (deploy/momenta-errors.caddy; issue 39).

The report: with no worker answering, players got Caddy's blank 503 without
`Retry-After`. The shipped `handle_errors` answers Caddy's own 502/503/504 with
deploy/maintenance/index.html and `Retry-After`, for a page and a command alike, and
leaves the workers' own answers (their 503 with the database away) as they are.
Runs the real Caddy over a dead port and over a worker stand-in.
"""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tables.devtools.server import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"

pytestmark = pytest.mark.skipif(shutil.which("caddy") is None, reason="needs caddy")


class OwnAnswer(http.server.BaseHTTPRequestHandler):
    """A worker with its database away: its own 503, its own body."""

    def do_GET(self):
        body = b'{"status": "unavailable"}'
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Retry-After", "5")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def site(port: int, upstream: int) -> str:
    return f"""http://127.0.0.1:{port} {{
	bind 127.0.0.1
	reverse_proxy 127.0.0.1:{upstream}
	import {DEPLOY / "momenta-errors.caddy"}
}}
"""


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """(the URL of a site whose worker is gone, that of one whose worker says 503)."""
    folder = tmp_path_factory.mktemp("caddy")
    worker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OwnAnswer)
    threading.Thread(target=worker.serve_forever, daemon=True).start()
    gone, answering = free_port(), free_port()
    config = folder / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        + site(gone, free_port())  # nothing listens there
        + site(answering, worker.server_address[1])
    )
    env = dict(os.environ, MOMENTA_MAINTENANCE_DIR=str(DEPLOY / "maintenance"))
    env.update(XDG_DATA_HOME=str(folder), XDG_CONFIG_HOME=str(folder))
    caddy = subprocess.Popen(
        ["caddy", "run", "--adapter", "caddyfile", "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    urls = f"http://127.0.0.1:{gone}", f"http://127.0.0.1:{answering}"
    try:
        wait_for(urls[1])
        yield urls
    finally:
        caddy.terminate()
        caddy.wait(10)
        worker.shutdown()


def wait_for(url: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
        except urllib.error.HTTPError:
            return  # Caddy answers
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"caddy did not answer at {url}")


def fetch(url: str, method: str = "GET") -> urllib.error.HTTPError:
    with pytest.raises(urllib.error.HTTPError) as answered:
        urllib.request.urlopen(urllib.request.Request(url, method=method, data=None), timeout=5)
    return answered.value


@pytest.mark.parametrize(("path", "method"), [("/", "GET"), ("/campaigns/1/roll/", "POST")])
def test_with_no_worker_answering_caddy_answers_the_maintenance_page(proxy, path, method):
    answer = fetch(proxy[0] + path, method)
    assert answer.code == 502
    assert answer.headers["Retry-After"] == "30"
    assert answer.headers["Cache-Control"] == "no-store"
    assert "back in a moment" in answer.read().decode()


def test_a_workers_own_503_is_passed_on_as_it_is(proxy):
    answer = fetch(proxy[1] + "/healthz")
    assert answer.code == 503
    assert answer.headers["Retry-After"] == "5"
    assert answer.read() == b'{"status": "unavailable"}'

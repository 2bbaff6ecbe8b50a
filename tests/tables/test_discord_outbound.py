"""Discord's outbound requests (issue 26): no redirect followed, no private address
reached, and one campaign's slow webhook never holds up another campaign's posts.

Every request goes to local servers on 127.0.0.1 (threads with http.server). Nothing
is timed: the isolation tests block a webhook on an Event and check what got through
while it was still blocked.
"""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tables.discord import outbound
from tables.discord.sender import Answer, Job, Sender, http_post
from tests.discord_fake import FakeDiscord

WAIT = 10  # seconds a test waits for a thing that must happen (never a timing claim)


class LocalServer:
    """An HTTP server on 127.0.0.1 answering every request with `answer(handler)`,
    which returns (status, headers); it records each request's method, path and headers."""

    def __init__(self, answer=lambda handler: (204, {})):
        self.requests: list[tuple[str, str, dict]] = []
        self.arrived = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                server.requests.append((self.command, self.path, dict(self.headers)))
                server.arrived.set()
                status, headers = answer(self)
                self.send_response(status)
                for name, value in {"Content-Length": "0", **headers}.items():
                    self.send_header(name, value)
                self.end_headers()

            do_GET = do_POST = do_PUT = do_HEAD = _any

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.http.server_address[1]

    def url(self, path: str = "/api/webhooks/1/token", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def stop(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def servers():
    started: list[LocalServer] = []

    def start(answer=lambda handler: (204, {})) -> LocalServer:
        started.append(LocalServer(answer))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def local_allowed(settings):
    """The operator allows 127.0.0.1 (where the local servers listen), by name."""
    settings.DISCORD_ALLOWED_HOSTS = ["127.0.0.1"]


# --- Redirects ------------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307])
def test_a_redirect_from_the_webhook_host_is_never_followed(servers, local_allowed, status):
    inside = servers()  # what a redirect would reach: e.g. an admin port on loopback
    webhook = servers(lambda h: (status, {"Location": inside.url("/internal/secrets")}))
    answer = http_post(webhook.url(), {"content": "hi"}, timeout=5)
    assert len(webhook.requests) == 1
    assert inside.requests == []
    assert (answer.ok, answer.retryable) == (False, False)
    assert "redirect, not followed" in answer.reason


def test_the_sender_records_a_redirect_as_a_refusal_and_does_not_retry(servers, local_allowed):
    inside = servers()
    webhook = servers(lambda h: (302, {"Location": inside.url()}))
    outcomes = []
    sender = Sender(record=lambda c, t, error, url: outcomes.append(error), sleep=lambda s: None)
    try:
        sender.deliver(Job(1, "public", webhook.url(), {"content": "hi"}))
    finally:
        sender.stop(1)
    assert inside.requests == [] and len(webhook.requests) == 1
    assert outcomes == ["HTTP 302: a redirect, not followed"]


# --- Which addresses may be reached ----------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # the cloud's metadata service
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fe80::1%eth0",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4 inside IPv6: the IPv4 address decides
        "::ffff:169.254.169.254",
        "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    ],
)
def test_local_private_link_local_and_metadata_addresses_are_blocked(address):
    assert outbound.blocked(address)


@pytest.mark.parametrize(
    "address", ["162.159.135.232", "8.8.8.8", "2606:4700::6810:84e5", "::ffff:162.159.135.232"]
)
def test_public_addresses_are_not_blocked(address):
    assert not outbound.blocked(address)


def test_a_webhook_host_whose_name_resolves_to_loopback_is_refused(servers, settings):
    settings.DISCORD_ALLOWED_HOSTS = []  # localhost is not allowed by name
    webhook = servers()
    answer = http_post(webhook.url(host="localhost"), {"content": "hi"}, timeout=5)
    assert webhook.requests == []
    assert (answer.ok, answer.retryable) == (False, False)
    assert "private or local address" in answer.reason


@pytest.mark.parametrize(
    "addresses",
    [["169.254.169.254"], ["162.159.135.232", "127.0.0.1"], ["::ffff:10.0.0.1"]],
    ids=["metadata", "public-and-loopback", "mapped-private"],
)
def test_a_name_with_any_non_public_address_is_refused(addresses, settings, monkeypatch):
    settings.DISCORD_ALLOWED_HOSTS = []
    connected = []
    # Were the check broken, the test must still reach no network: record, never connect.
    monkeypatch.setattr(
        outbound.socket, "create_connection", lambda address, *a: connected.append(address)
    )
    with pytest.raises(outbound.Refused):
        outbound.post(
            "https://discord.com/api/webhooks/1/t", b"{}", {}, 5, lookup=lambda h, p: addresses
        )
    assert connected == []


def test_the_connection_goes_to_the_address_that_was_checked(servers, settings):
    """The name is looked up once; the socket connects to that answer (no second
    lookup that a rebinding DNS could answer differently). hooks.invalid resolves
    nowhere, so the post arrives only through the checked address."""
    settings.DISCORD_ALLOWED_HOSTS = ["hooks.invalid"]
    webhook = servers()
    lookups = []

    def lookup(host, port):
        lookups.append((host, port))
        return ["127.0.0.1"]

    url = webhook.url(host="hooks.invalid")
    status, _headers, _body = outbound.post(url, b"{}", {}, 5, lookup=lookup)
    assert status == 204
    assert lookups == [("hooks.invalid", webhook.port)]
    [(method, path, headers)] = webhook.requests
    assert (method, path) == ("POST", "/api/webhooks/1/token")
    assert headers["Host"] == f"hooks.invalid:{webhook.port}"  # the name, for TLS and Discord


def test_an_allowed_host_is_not_checked(servers, local_allowed):
    webhook = servers()
    assert http_post(webhook.url(), {"content": "hi"}, timeout=5).ok
    assert len(webhook.requests) == 1


# --- One campaign's slow webhook --------------------------------------------------------


def test_a_slow_webhook_holds_up_only_its_own_campaigns_posts(servers, local_allowed):
    """Campaign 1's webhook takes its request and does not answer; campaign 2's post,
    queued after it, still reaches its (healthy) webhook while campaign 1's waits."""
    release = threading.Event()

    def hang(handler):
        release.wait(WAIT * 3)
        return 204, {}

    slow, fake = servers(hang), FakeDiscord()
    delivered = {1: threading.Event(), 2: threading.Event()}
    outcomes = []

    def record(campaign_id, target, error, url):
        outcomes.append((campaign_id, error))
        delivered[campaign_id].set()

    sender = Sender(record=record, sleep=lambda s: None, timeout=WAIT * 4)
    try:
        assert sender.submit(Job(1, "public", slow.url(), {"content": "slow"}))
        assert slow.arrived.wait(WAIT), "campaign 1's post never reached its webhook"
        assert sender.submit(Job(2, "public", fake.url(2, "token"), {"content": "fast"}))
        assert delivered[2].wait(WAIT), "campaign 2's post waited for campaign 1's webhook"
        assert not release.is_set() and outcomes == [(2, None)]  # campaign 1 still blocked
        assert fake.posts_to(2) == [{"content": "fast"}]
    finally:
        release.set()
        assert sender.wait_idle(WAIT)
        sender.stop(1)
        fake.stop()
    assert outcomes == [(2, None), (1, None)]


class Blocking:
    """An injected HTTP call: the post whose body says block waits for `release`."""

    def __init__(self):
        self.release, self.blocked = threading.Event(), threading.Event()
        self.sent: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, url, body, timeout) -> Answer:
        with self.lock:
            self.sent.append(body["n"])
        if body.get("block"):
            self.blocked.set()
            self.release.wait(WAIT * 3)
        return Answer(204)


def test_a_campaigns_posts_go_one_at_a_time_in_order_while_others_pass():
    post = Blocking()
    done = threading.Event()

    def record(campaign_id, target, error, url):
        if campaign_id == 2:
            done.set()

    sender = Sender(post=post, record=record, workers=3)
    try:
        sender.submit(Job(1, "public", "http://x/", {"n": "1a", "block": True}))
        assert post.blocked.wait(WAIT)
        sender.submit(Job(1, "public", "http://x/", {"n": "1b"}))
        sender.submit(Job(1, "public", "http://x/", {"n": "1c"}))
        sender.submit(Job(2, "public", "http://x/", {"n": "2a"}))
        assert done.wait(WAIT)
        # Free workers served campaign 2, never campaign 1's next post before its first.
        assert post.sent == ["1a", "2a"]
    finally:
        post.release.set()
        assert sender.wait_idle(WAIT)
        sender.stop(1)
    assert post.sent == ["1a", "2a", "1b", "1c"]


def test_a_stuck_campaign_cannot_fill_the_queue_every_campaign_shares():
    post = Blocking()
    sender = Sender(post=post, record=lambda *a: None, queue_size=10, campaign_queue_size=3)
    try:
        sender.submit(Job(1, "public", "http://x/", {"n": "first", "block": True}))
        assert post.blocked.wait(WAIT)
        accepted = [sender.submit(Job(1, "public", "http://x/", {"n": n})) for n in range(5)]
        assert accepted == [True, True, True, False, False]  # its own 3 waiting, no more
        assert sender.submit(Job(2, "public", "http://x/", {"n": "other"}))
    finally:
        post.release.set()
        assert sender.wait_idle(WAIT)
        sender.stop(1)


def test_a_parked_webhooks_waiting_posts_are_dropped_and_the_other_webhooks_kept():
    post = Blocking()

    def record(campaign_id, target, error, url):
        return target == "public"  # the table's webhook was parked by this failure

    def refused(url, body, timeout):
        post(url, body, timeout)
        return Answer(404, reason="HTTP 404") if body["n"].startswith("t") else Answer(204)

    sender = Sender(post=refused, record=record, workers=1)
    try:
        sender.submit(Job(1, "public", "http://x/", {"n": "t1", "block": True}))
        assert post.blocked.wait(WAIT)
        for job in [
            Job(1, "public", "http://x/", {"n": "t2"}),
            Job(1, "gm", "http://y/", {"n": "g1"}),
        ]:
            assert sender.submit(job)
        post.release.set()
        assert sender.wait_idle(WAIT)
    finally:
        post.release.set()
        sender.stop(1)
    assert post.sent == ["t1", "g1"]


# --- TLS: connected to the address, checked against the name ------------------------------


@pytest.fixture
def tls_server(tmp_path, monkeypatch):
    """A local HTTPS server whose certificate names hooks.invalid; outbound trusts it
    (and only it) for the test."""
    import datetime

    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hooks.invalid")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("hooks.invalid")]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    server = LocalServer()
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert_file, key_file)
    server.http.socket = serving.wrap_socket(server.http.socket, server_side=True)
    trusting = ssl.create_default_context
    monkeypatch.setattr(
        outbound.ssl, "create_default_context", lambda: trusting(cafile=str(cert_file))
    )
    yield server
    server.stop()


def test_https_connects_to_the_checked_address_and_checks_the_certificate_for_the_name(
    tls_server, settings
):
    settings.DISCORD_ALLOWED_HOSTS = ["hooks.invalid", "other.invalid"]
    url = f"https://hooks.invalid:{tls_server.port}/api/webhooks/1/token"
    status, _headers, _body = outbound.post(url, b"{}", {}, 5, lookup=lambda h, p: ["127.0.0.1"])
    assert status == 204 and len(tls_server.requests) == 1
    # The same address under a name the certificate does not carry: refused by TLS.
    other = url.replace("hooks.invalid", "other.invalid")
    with pytest.raises(ssl.SSLCertVerificationError):
        outbound.post(other, b"{}", {}, 5, lookup=lambda h, p: ["127.0.0.1"])
    assert len(tls_server.requests) == 1

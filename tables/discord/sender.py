"""Post to Discord off the request path: one worker thread per process, a bounded queue.

A post is queued after its event commits (tables/discord/notify.py) and sent by the
worker in order. A failure is retried with backoff (network errors, timeouts, 5xx) or
after the wait Discord asks for (429: `retry_after` in the JSON body, else the
Retry-After header); other answers (a deleted webhook's 404, a 400) are not retried.
Whatever happens, the roll is already committed and answered: the outcome only
reaches the campaign's `discord_last_error` (shown to the GM on the settings page),
and a later success on the same webhook clears it.

When the process stops, the worker gets `DISCORD_DRAIN_SECONDS` (default 2) to send
what is queued (atexit); posts still waiting then are dropped and counted in the log.
Discord is a courtesy copy: the table's event log stays the record, and nothing is
re-sent after a restart. A full queue (`DISCORD_QUEUE_SIZE`, default 500: Discord
being down for minutes during a busy session) drops the new post and says so.

The URLs are secrets: log lines and stored errors name the campaign and which
webhook ("table" or "GM"), never the URL.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

TARGET_LABELS = {"public": "Table webhook", "gm": "GM webhook"}
USER_AGENT = "DiscordBot (https://github.com/momenta-table, 1.0) Momenta Table"
ERROR_MAX = 300  # Campaign.discord_last_error's max_length


@dataclass(frozen=True)
class Job:
    campaign_id: int
    target: str  # "public" or "gm"
    url: str
    body: dict


@dataclass(frozen=True)
class Answer:
    """What one attempt got: an HTTP status (0: no answer at all) and Discord's words."""

    status: int
    retry_after: float | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def retryable(self) -> bool:
        return self.status in (0, 429) or self.status >= 500


def http_post(url: str, body: dict, timeout: float) -> Answer:
    """POST the JSON body; never raises (an unreachable host is status 0)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "User-Agent": USER_AGENT},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status)
    except urllib.error.HTTPError as error:
        return _error_answer(error.code, error.headers, _read(error))
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", None) or error
        return Answer(0, reason=f"no answer ({_scrub(str(reason), url)})")


def _read(error: urllib.error.HTTPError) -> bytes:
    try:
        return error.read(4096)
    except OSError:
        return b""


def _error_answer(status: int, headers, raw: bytes) -> Answer:
    data = {}
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        pass
    data = data if isinstance(data, dict) else {}
    retry_after = _seconds(data.get("retry_after"))
    if retry_after is None and headers is not None:
        retry_after = _seconds(headers.get("Retry-After"))
    message = str(data.get("message") or "")[:120]
    words = {404: "the webhook does not exist (deleted?); set a new one"}.get(status, message)
    return Answer(status, retry_after, f"HTTP {status}" + (f": {words}" if words else ""))


def _seconds(value) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None


def _scrub(text: str, url: str) -> str:
    return text.replace(url, "<webhook>") if url else text


def record_outcome(campaign_id: int, target: str, error: str | None) -> None:
    """Store the webhook's last error for the GM, or clear it after a success."""
    from django.utils import timezone

    from tables.models import Campaign

    label = TARGET_LABELS[target]
    rows = Campaign.objects.filter(pk=campaign_id)
    try:
        if error is None:
            # Read first: a success (nearly every post) then writes nothing.
            mine = rows.filter(discord_last_error__startswith=label)
            if mine.exists():
                mine.update(discord_last_error="", discord_last_error_at=None)
        else:
            text = f"{label}: {error}"[:ERROR_MAX]
            rows.update(discord_last_error=text, discord_last_error_at=timezone.now())
    except Exception:  # the worker must live on; the database may be down too
        log.exception("Discord outcome for campaign %s not stored", campaign_id)


class Sender:
    """The queue and its worker. Every collaborator is injectable for tests: `post`
    (the HTTP call), `sleep` (the waits between attempts) and `record` (the outcome)."""

    def __init__(
        self,
        *,
        post: Callable[[str, dict, float], Answer] = http_post,
        sleep: Callable[[float], None] = time.sleep,
        record: Callable[[int, str, str | None], None] = record_outcome,
        queue_size: int = 500,
        attempts: int = 5,
        backoff: float = 1.0,
        max_wait: float = 60.0,
        timeout: float = 5.0,
    ):
        self.post, self.sleep, self.record = post, sleep, record
        self.attempts, self.backoff, self.max_wait, self.timeout = (
            attempts,
            backoff,
            max_wait,
            timeout,
        )
        self.queue: queue.Queue[Job | None] = queue.Queue(maxsize=queue_size)
        self.pid = os.getpid()
        self.thread = threading.Thread(target=self._run, name="discord-sender", daemon=True)
        self.thread.start()

    def submit(self, job: Job) -> bool:
        """Queue a post; False (and nothing queued) when the queue is full or stopped."""
        try:
            self.queue.put_nowait(job)
        except queue.Full:
            return False
        return True

    def wait_idle(self, timeout: float) -> bool:
        """True once every queued post was handled (sent, or given up on)."""
        deadline = time.monotonic() + timeout
        with self.queue.all_tasks_done:
            while self.queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.queue.all_tasks_done.wait(left)
        return True

    def stop(self, timeout: float) -> int:
        """Let the worker send what is queued for up to `timeout` seconds, then stop it.
        Returns how many posts were left unsent (dropped)."""
        self.wait_idle(timeout)
        dropped = 0
        while True:
            try:
                self.queue.get_nowait()
            except queue.Empty:
                break
            self.queue.task_done()
            dropped += 1
        try:
            self.queue.put_nowait(None)  # wakes the worker to end
        except queue.Full:
            pass
        return dropped

    def _run(self) -> None:
        while True:
            job = self.queue.get()
            try:
                if job is None:
                    return
                self.deliver(job)
            except Exception:  # one bad post must not end the worker
                log.exception(
                    "Discord post for campaign %s failed", getattr(job, "campaign_id", "?")
                )
            finally:
                connection.close()  # the worker's own connection: none left idle between posts
                self.queue.task_done()

    def deliver(self, job: Job) -> None:
        """Send one post, retrying as Discord allows; record what came of it."""
        for attempt in range(1, self.attempts + 1):
            answer = self.post(job.url, job.body, self.timeout)
            if answer.ok:
                self.record(job.campaign_id, job.target, None)
                return
            if not answer.retryable:
                error = answer.reason or f"HTTP {answer.status}"
                break
            if attempt == self.attempts:
                error = (
                    f"{answer.reason or f'HTTP {answer.status}'} (gave up after {attempt} attempts)"
                )
                break
            wait = answer.retry_after if answer.status == 429 else None
            if wait is None:
                wait = self.backoff * 2 ** (attempt - 1)
            if wait > self.max_wait:  # a long ban would hold up every other table's posts
                error = f"{answer.reason}: asked to wait {wait:g} s"
                break
            self.sleep(wait)
        error = _scrub(error, job.url)
        log.warning(
            "Discord %s for campaign %s: %s", TARGET_LABELS[job.target], job.campaign_id, error
        )
        self.record(job.campaign_id, job.target, error)


_lock = threading.Lock()
_sender: Sender | None = None


def get_sender() -> Sender:
    """This process's sender, started on first use (after a fork, a new one)."""
    global _sender
    with _lock:
        if _sender is None or _sender.pid != os.getpid():
            _sender = Sender(
                queue_size=getattr(settings, "DISCORD_QUEUE_SIZE", 500),
                attempts=getattr(settings, "DISCORD_ATTEMPTS", 5),
                backoff=getattr(settings, "DISCORD_BACKOFF_SECONDS", 1.0),
                max_wait=getattr(settings, "DISCORD_MAX_WAIT_SECONDS", 60.0),
                timeout=getattr(settings, "DISCORD_TIMEOUT_SECONDS", 5.0),
            )
        return _sender


def set_sender(sender: Sender | None) -> Sender | None:
    """Put a sender in place (tests); returns the one it replaces."""
    global _sender
    with _lock:
        previous, _sender = _sender, sender
        return previous


@atexit.register
def _drain() -> None:
    sender = _sender
    if sender is None or sender.pid != os.getpid():
        return
    dropped = sender.stop(getattr(settings, "DISCORD_DRAIN_SECONDS", 2.0))
    if dropped:
        log.warning("Discord: %s queued post(s) dropped as the process stopped", dropped)

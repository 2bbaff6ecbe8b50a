"""Post to Discord off the request path: a small pool of workers, a queue per campaign.

A post is queued after its event commits (tables/discord/notify.py) and sent by one of
`DISCORD_WORKERS` (default 4) worker threads. Each campaign has its own queue, served by
at most one worker at a time, in order; campaigns take turns. So a campaign whose
webhook hangs (5 s timeout × 5 attempts) holds up its own posts only, never another
campaign's while a worker is free. A failure is retried with backoff (network errors,
timeouts, 5xx) or after the wait Discord asks for (429: `retry_after` in the JSON body,
else the Retry-After header); other answers (a deleted webhook's 404, a 400, a redirect,
which is never followed: tables/discord/outbound.py) are not retried.
Whatever happens, the roll is already committed and answered: the outcome only
reaches the campaign (services/discord.record_delivery: the last error the GM sees on
the settings page, and a webhook parked after `DISCORD_PARK_AFTER` failures in a row);
once the record says a webhook is parked, its queued posts are dropped.

When the process stops, the workers get `DISCORD_DRAIN_SECONDS` (default 2) to send
what is queued (atexit); posts still waiting then are dropped and counted in the log.
Discord is a courtesy copy: the table's event log stays the record, and nothing is
re-sent after a restart. A full queue (`DISCORD_QUEUE_SIZE`, default 500, over all
campaigns; `DISCORD_CAMPAIGN_QUEUE_SIZE`, default 50, for one campaign, so one stuck
webhook cannot fill the queue everyone shares) drops the new post and says so.

The URLs are secrets: log lines and stored errors name the campaign and which
webhook ("table" or "GM"), never the URL.
"""

from __future__ import annotations

import atexit
import http.client
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext as _

from tables.discord import outbound

log = logging.getLogger(__name__)

USER_AGENT = "DiscordBot (https://github.com/momenta-table, 1.0) Momenta Table"
# How log lines name the webhooks (English, like every log line; never the URL).
TARGET_LABELS = {"public": "Table webhook", "gm": "GM webhook"}


@dataclass(frozen=True)
class Job:
    campaign_id: int
    target: str  # "public" or "gm"
    url: str
    body: dict
    # What the GM later reads of its outcome (the settings page's last error) is worded
    # in it: the campaign's language, like the post (issue 28).
    language: str = settings.LANGUAGE_CODE


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
    """POST the JSON body through outbound.post; never raises (no answer is status 0)."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    try:
        status, answer_headers, raw = outbound.post(
            url, json.dumps(body).encode(), headers, timeout
        )
    except outbound.Refused as refusal:
        return Answer(400, reason=str(refusal))  # not retried: the next try is refused too
    except (OSError, http.client.HTTPException) as error:
        return Answer(0, reason=_("no answer (%(reason)s)") % {"reason": _scrub(str(error), url)})
    if 200 <= status < 300:
        return Answer(status)
    if 300 <= status < 400:
        return Answer(
            status, reason=_("HTTP %(status)s: a redirect, not followed") % {"status": status}
        )
    return _error_answer(status, answer_headers, raw)


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
    if status == 404:
        message = _("the webhook does not exist (deleted?); set a new one")
    return Answer(status, retry_after, f"HTTP {status}" + (f": {message}" if message else ""))


def _seconds(value) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None


def _scrub(text: str, url: str) -> str:
    return text.replace(url, "<webhook>") if url else text


def record_outcome(
    campaign_id: int, target: str, error: str | None, url: str | None = None, *, count=True
) -> bool:
    """Store what came of a post (services/discord.record_delivery); True once the
    webhook is parked. Never raises: the worker must live on, the database may be down."""
    from tables.services.discord import record_delivery

    try:
        return record_delivery(campaign_id, target, error, count=count, url=url)
    except Exception:
        log.exception("Discord outcome for campaign %s not stored", campaign_id)
        return False


class Sender:
    """The queues and their workers. Every collaborator is injectable for tests: `post`
    (the HTTP call), `sleep` (the waits between attempts) and `record` (the outcome,
    and the URL posted to; a true answer means the webhook is parked, so its
    queued posts are dropped)."""

    def __init__(
        self,
        *,
        post: Callable[[str, dict, float], Answer] = http_post,
        sleep: Callable[[float], None] = time.sleep,
        record: Callable[..., bool | None] = record_outcome,
        queue_size: int = 500,
        campaign_queue_size: int = 50,
        workers: int = 4,
        attempts: int = 5,
        backoff: float = 1.0,
        max_wait: float = 60.0,
        timeout: float = 5.0,
    ):
        self.post, self.sleep, self.record = post, sleep, record
        self.queue_size, self.campaign_queue_size = queue_size, campaign_queue_size
        self.attempts, self.backoff, self.max_wait, self.timeout = (
            attempts,
            backoff,
            max_wait,
            timeout,
        )
        # One lock over all the state below: submit (request threads) and the workers
        # would otherwise both see a campaign idle and serve it twice, out of order.
        self.lock = threading.Condition()
        self.pending: dict[int, deque[Job]] = {}  # each campaign's posts, oldest first
        self.ready: deque[int] = deque()  # campaigns with posts and no worker on them
        self.busy: set[int] = set()  # campaigns a worker is sending for
        self.queued = 0  # posts waiting, all campaigns
        self.unfinished = 0  # posts waiting or being sent
        self.stopping = False
        self.pid = os.getpid()
        self.threads = [
            threading.Thread(target=self._run, name=f"discord-sender-{n}", daemon=True)
            for n in range(max(1, workers))
        ]
        for thread in self.threads:
            thread.start()

    def submit(self, job: Job) -> bool:
        """Queue a post; False (and nothing queued) when a queue is full or stopped."""
        with self.lock:
            mine = self.pending.get(job.campaign_id)
            if (
                self.stopping
                or self.queued >= self.queue_size
                or (mine is not None and len(mine) >= self.campaign_queue_size)
            ):
                return False
            if mine is None:
                mine = self.pending[job.campaign_id] = deque()
                if job.campaign_id not in self.busy:
                    self.ready.append(job.campaign_id)
            mine.append(job)
            self.queued += 1
            self.unfinished += 1
            self.lock.notify_all()
        return True

    def wait_idle(self, timeout: float) -> bool:
        """True once every queued post was handled (sent, or given up on)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.unfinished:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def stop(self, timeout: float) -> int:
        """Let the workers send what is queued for up to `timeout` seconds, then stop them.
        Returns how many posts were left unsent (dropped)."""
        self.wait_idle(timeout)
        with self.lock:
            self.stopping = True
            dropped = self._drop(list(self.pending))
            self.lock.notify_all()
        return dropped

    def _drop(self, campaign_ids, target: str | None = None) -> int:
        """Drop queued posts (of one webhook, or all) of these campaigns; holds the lock."""
        dropped = 0
        for campaign_id in campaign_ids:
            jobs = self.pending.get(campaign_id, deque())
            kept = deque(j for j in jobs if target is not None and j.target != target)
            dropped += len(jobs) - len(kept)
            if kept:
                self.pending[campaign_id] = kept
            else:
                self.pending.pop(campaign_id, None)
                if campaign_id in self.ready:
                    self.ready.remove(campaign_id)
        self.queued -= dropped
        self.unfinished -= dropped
        return dropped

    def _take(self) -> Job | None:
        with self.lock:
            while not self.ready and not self.stopping:
                self.lock.wait()
            if self.stopping:
                return None
            campaign_id = self.ready.popleft()
            mine = self.pending[campaign_id]
            job = mine.popleft()
            if not mine:
                del self.pending[campaign_id]
            self.busy.add(campaign_id)
            self.queued -= 1
            return job

    def _done(self, job: Job, parked: bool) -> None:
        with self.lock:
            self.busy.discard(job.campaign_id)
            if parked:
                dropped = self._drop([job.campaign_id], job.target)
                if dropped:
                    log.warning(
                        "Discord %s for campaign %s parked: %s queued post(s) dropped",
                        TARGET_LABELS[job.target],
                        job.campaign_id,
                        dropped,
                    )
            if job.campaign_id in self.pending:
                self.ready.append(job.campaign_id)  # its next post, after the others' turns
            self.unfinished -= 1
            self.lock.notify_all()

    def _run(self) -> None:
        while True:
            job = self._take()
            if job is None:
                return
            parked = False
            try:
                with translation.override(job.language):
                    parked = bool(self.deliver(job))
            except Exception:  # one bad post must not end the worker
                log.exception("Discord post for campaign %s failed", job.campaign_id)
            finally:
                connection.close()  # the worker's own connection: none left idle between posts
                self._done(job, parked)

    def deliver(self, job: Job) -> bool:
        """Send one post, retrying as Discord allows; record what came of it.
        True when the record parked the webhook."""
        for attempt in range(1, self.attempts + 1):
            answer = self.post(job.url, job.body, self.timeout)
            if answer.ok:
                return bool(self.record(job.campaign_id, job.target, None, job.url))
            reason = answer.reason or f"HTTP {answer.status}"
            if not answer.retryable:
                error = reason
                break
            if attempt == self.attempts:
                error = _("%(reason)s (gave up after %(attempts)s attempts)") % {
                    "reason": reason,
                    "attempts": attempt,
                }
                break
            wait = answer.retry_after if answer.status == 429 else None
            if wait is None:
                wait = self.backoff * 2 ** (attempt - 1)
            if wait > self.max_wait:  # a long ban would hold up this campaign's other posts
                error = _("%(reason)s: asked to wait %(wait)s s") % {
                    "reason": reason,
                    "wait": f"{wait:g}",
                }
                break
            self.sleep(wait)
        error = _scrub(error, job.url)
        log.warning(
            "Discord %s for campaign %s: %s", TARGET_LABELS[job.target], job.campaign_id, error
        )
        return bool(self.record(job.campaign_id, job.target, error, job.url))


_lock = threading.Lock()
_sender: Sender | None = None


def get_sender() -> Sender:
    """This process's sender, started on first use (after a fork, a new one)."""
    global _sender
    with _lock:
        if _sender is None or _sender.pid != os.getpid():
            _sender = Sender(
                queue_size=getattr(settings, "DISCORD_QUEUE_SIZE", 500),
                campaign_queue_size=getattr(settings, "DISCORD_CAMPAIGN_QUEUE_SIZE", 50),
                workers=getattr(settings, "DISCORD_WORKERS", 4),
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

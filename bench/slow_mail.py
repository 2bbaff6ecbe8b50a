"""A mail backend that takes 0.25 s per message, as the audit's mail relay did (issue 34),
for bench/reset_timing.py. Each message it delivers is one line in $SLOW_MAIL_LOG, so
the bench can check that every reset it timed with an account did send its mail."""

from __future__ import annotations

import os
import time

from django.core.mail.backends.base import BaseEmailBackend

SECONDS_PER_MESSAGE = 0.25


class SlowMailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        sent = 0
        for message in email_messages:
            time.sleep(SECONDS_PER_MESSAGE)  # the relay's answer: waiting, not CPU
            with open(os.environ["SLOW_MAIL_LOG"], "a") as log:
                log.write(f"{','.join(message.to)}\n")
            sent += 1
        return sent

"""The site's own logging configuration (settings.LOGGING), writing into a buffer.

pytest's caplog listens beside the site's handler, so it sees neither the format nor
the handler's filters; these tests read what the operator's journal would get.
"""

from __future__ import annotations

import copy
import io
import json
import logging.config

import pytest

from momenta_site import log_filters
from momenta_site.channel_layer import reachability


class SiteLog:
    def __init__(self, stream: io.StringIO):
        self.stream = stream

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def records(self) -> list[dict]:
        """Each line as JSON (LOG_FORMAT=json): a line that is not JSON fails here."""
        return [json.loads(line) for line in self.text.splitlines()]

    def named(self, logger: str) -> list[dict]:
        return [r for r in self.records() if r["logger"] == logger]


def configure(settings, *, json_lines: bool, level: str = "INFO") -> SiteLog:
    stream = io.StringIO()
    config = copy.deepcopy(settings.LOGGING)
    config["formatters"]["site"]["json"] = json_lines
    config["handlers"]["console"] |= {"level": level, "stream": stream}
    config["root"]["level"] = level
    logging.config.dictConfig(config)
    return SiteLog(stream)


@pytest.fixture
def site_log(settings):
    """configure(json_lines=…, level=…) -> SiteLog; the outage state starts and ends clear."""
    log_filters.RedisOutage.away.clear()
    reachability.away = False
    yield lambda **kw: configure(settings, **kw)
    log_filters.RedisOutage.away.clear()
    reachability.away = False
    logging.config.dictConfig(settings.LOGGING)

"""Moved to tables/wording.py (words, used by services and presenters alike)."""

from tables.wording import (  # noqa: F401
    SPEND_SOURCES,
    count,
    refund_back,
    spend_line,
    spend_paid,
    spend_price,
    successes,
)

"""What every page needs: the top bar's links, and whether the reader sees rule marks."""

from django.conf import settings

from tables.models import TableEvent
from tables.policy import rule_marks as marks

GM, ALL = TableEvent.Audience.GM.value, TableEvent.Audience.ALL.value


def registration(request) -> dict:
    # The top bar's "Sign up" link, hidden while sign-up is closed (REGISTRATION_OPEN=0).
    return {"registration_open": settings.REGISTRATION_OPEN}


def rule_marks(request) -> dict:
    """`rule_marks`: whether this page draws the rules' § marks (issue 37). The role is
    the one the view's fetch checked (views/access.py); a page that fetched none reads
    as a player's."""
    membership = getattr(request, "table_membership", None)
    audience = GM if membership is not None and membership.is_gm else ALL
    return {"rule_marks": marks.shown(marks.active(), audience)}

"""The login lockout (issues 12, 26) over django-axes, its database handler.

After LOGIN_FAILURE_LIMIT wrong passwords for one username, or
LOGIN_ADDRESS_FAILURE_LIMIT from one client address whatever usernames it names
(0: no address limit), every login is refused, even with the right password,
until LOGIN_LOCKOUT_SECONDS have passed since the last failure counted. The
settings block in momenta_site/settings.py wires these callables into axes.

Axes has one limit for all its lockout parameters; the two limits are ours
(LockoutHandler). A success clears its username's failures, not its address's, or a
guesser with an account of its own could reset the address's count. Tries refused
while locked are not counted (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off).

The client address is REMOTE_ADDR, never X-Forwarded-For: behind the proxy,
`manage.py serve --forwarded-allow-ips` names the proxy, and the ASGI app puts the
proxy's X-Forwarded-For there only for connections that come from it
(momenta_site/request_log.py, TrustedProxyMiddleware). Read here, the header would let
a guesser name any address it likes. An IPv6 client counts by its /64 network (one
host is given a whole one), stored as the network's first address: axes keeps
addresses, not networks.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.db.models import Sum

USERNAME_MAX = 255  # axes' username column


def cool_off(request=None) -> timedelta:
    """AXES_COOLOFF_TIME: how long after its last failure a lockout lasts."""
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


def failure_limit(request=None, credentials=None) -> int:
    """AXES_FAILURE_LIMIT: the username's limit (the address's is LockoutHandler's)."""
    return settings.LOGIN_FAILURE_LIMIT


def login_name(username: str | None) -> str:
    """A username as failures are counted: case-folded, cut to the column's size."""
    return (username or "").casefold()[:USERNAME_MAX]


def username(request, credentials=None) -> str:
    """AXES_USERNAME_CALLABLE: the username typed, as failures are counted."""
    if credentials:
        return login_name(credentials.get("username"))
    return login_name(getattr(request, "POST", {}).get("username"))


def address_key(text: str) -> str | None:
    """An address as failures are counted by it, None if it is none: an IPv6 one as
    its /64 network's first address, an IPv4-mapped one as the IPv4 address."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(getattr(address, "ipv4_mapped", None) or address)


def client_address(request) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: the client's address, as failures are counted by it."""
    return address_key(getattr(request, "META", {}).get("REMOTE_ADDR") or "")


@dataclass(frozen=True)
class Lockout:
    code: str  # "locked_out" (the username) or "address_locked_out"
    until: datetime


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler, with a limit for each lockout parameter. Needs
    AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"], in that order."""

    def lockout(self, request, credentials=None) -> Lockout | None:
        """The first parameter at its own limit, and when its lockout ends."""
        limits = [("locked_out", settings.LOGIN_FAILURE_LIMIT)]
        if request.axes_ip_address is not None:  # not every unknown address as one
            limits.append(("address_locked_out", settings.LOGIN_ADDRESS_FAILURE_LIMIT))
        attempts = self.get_user_attempts(request, credentials)
        for (code, limit), rows in zip(limits, attempts, strict=False):
            last_seen = _locked_since(rows, limit) if limit > 0 else None
            if last_seen is not None:
                return Lockout(code, last_seen + get_cool_off(request))
        return None

    def get_failures(self, request, credentials=None) -> int:
        # Axes only compares this with AXES_FAILURE_LIMIT (is_locked, and its log line
        # after a failure): the comparison is lockout()'s, each limit its own.
        locked = self.lockout(request, credentials) is not None
        return failure_limit() if locked else 0

    def reset_user_attempts(self, request, credentials=None) -> int:
        # On a success (AXES_RESET_ON_SUCCESS): the username's failures, not the address's.
        return unlock_username(get_client_username(request, credentials))


def _locked_since(rows, limit: int) -> datetime | None:
    """When the newest rows last reached `limit` failures between them, or None: each
    row is forgotten a cool-off after its last failure, so the lockout lasts until the
    row that completes the limit, newest first, is."""
    total = 0
    newest_first = rows.order_by("-attempt_time").values_list(
        "failures_since_start", "attempt_time"
    )
    for failures, at in newest_first:
        total += failures
        if total >= limit:
            return at
    return None


def unlock_username(name: str) -> int:
    """Lift a username's lockout (a login, a password reset, manage.py unlock_login);
    how many failed logins were forgotten."""
    return _forget(username=login_name(name))


def unlock_address(address: str) -> int:
    """Lift an address's lockout (manage.py unlock_login --address): any address of an
    IPv6 /64 stands for it. ValueError if it is not an address."""
    key = address_key(address)
    if key is None:
        raise ValueError(address)
    return _forget(ip_address=key)


def _forget(**match: str) -> int:
    if not next(iter(match.values())):
        return 0  # axes' reset() with nothing to match would forget every failure
    rows = AccessAttempt.objects.filter(**match)
    failures = rows.aggregate(n=Sum("failures_since_start"))["n"] or 0
    reset(ip=match.get("ip_address"), username=match.get("username"))
    return failures

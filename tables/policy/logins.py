"""Whether a login may be tried now (issues 12, 26): a read, never a write.

After LOGIN_FAILURE_LIMIT wrong passwords for one username within
LOGIN_LOCKOUT_SECONDS, the username is locked until the window ends; after
LOGIN_ADDRESS_FAILURE_LIMIT from one client address (whatever usernames they
named), so is the address. The failures are recorded and cleared by
tables/services/logins.py.

The client address is REMOTE_ADDR, never X-Forwarded-For: behind the proxy,
`manage.py serve --forwarded-allow-ips` names the proxy, and the ASGI app puts
the proxy's X-Forwarded-For there only for connections that come from it
(momenta_site/request_log.py, TrustedProxyMiddleware). Read here, the header
would let a guesser name any address it likes. An IPv6 client counts by its /64
network: one host is given a whole one.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tables.models import LoginFailure
from tables.models.logins import USERNAME_MAX

# The clock, a module attribute so tests can move time without sleeping.
clock = timezone.now


def login_name(username: str) -> str:
    """The username as failures are counted: case-folded, cut to the column's size."""
    return username.casefold()[:USERNAME_MAX]


def client_address(request) -> str:
    """The address failures are counted by: the client's, an IPv6 one as its /64
    network; "" when there is none (no request, or one without a peer)."""
    meta = getattr(request, "META", {})
    return address_key(meta.get("REMOTE_ADDR") or "")


def address_key(text: str) -> str:
    """An address as failures are counted by it (client_address), "" if it is none."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return ""
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(getattr(address, "ipv4_mapped", None) or address)


def window() -> timedelta:
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


def _locked_until(limit: int, **match) -> datetime | None:
    now = clock()
    # Locked while `limit` failures lie within the window: until the oldest of
    # the last `limit` leaves it.
    nth_latest = (
        LoginFailure.objects.filter(at__gt=now - window(), **match)
        .order_by("-at")
        .values_list("at", flat=True)[limit - 1 : limit]
    )
    at = next(iter(nth_latest), None)
    return None if at is None else at + window()


def locked_until(username: str) -> datetime | None:
    """When this username's lockout ends, or None if it may try now (one query)."""
    return _locked_until(settings.LOGIN_FAILURE_LIMIT, username=login_name(username))


def address_locked_until(address: str) -> datetime | None:
    """When this client address's lockout ends, or None if it may try now (one query;
    none without an address or with LOGIN_ADDRESS_FAILURE_LIMIT 0)."""
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    if not address or limit <= 0:
        return None
    return _locked_until(limit, address=address)


def minutes_left(until: datetime) -> int:
    """Whole minutes until `until`, at least 1: what the refusal says."""
    return max(1, math.ceil((until - clock()).total_seconds() / 60))

"""login_required for a player's command at a table, reading the user with the membership.

AuthenticationMiddleware reads the session's user on first use of request.user, one
statement; views/access.player_at then reads the membership with its campaign, a
second. For the hot commands (a roll) one statement does both: the membership with
its campaign *and* its user. That user becomes request.user only when
django.contrib.auth.get_user would accept it as it stands (the model backend, an
active user, the session's hash current); any other case (no session, no membership,
an old password hash, a fallback secret, another backend) is left to get_user, which
decides as always (and flushes a session it refuses).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.utils.crypto import constant_time_compare

from tables.models import Membership

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
HELD = "_table_member"  # request attribute: (campaign pk, the membership read) for player_at


def session_member(request, pk: int) -> Membership | None:
    """The session user's membership at table `pk`, with its campaign and user, in one
    statement; its user is then request.user. None (and nothing set) if get_user must
    decide, or if the user is no member."""
    if hasattr(request, "_cached_user"):  # request.user was read already
        return None
    session = request.session
    backend = session.get(BACKEND_SESSION_KEY)
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
    except (KeyError, ValidationError):
        return None
    membership = (
        Membership.objects.select_related("campaign", "user")
        .filter(campaign__pk=pk, user_id=user_id)  # campaign__pk: a huge pk finds none
        .first()
    )
    if membership is None:
        return None
    user = membership.user
    # ModelBackend.get_user's test (user_can_authenticate), then get_user's session check.
    seen_hash = session.get(HASH_SESSION_KEY)
    if not (user.is_active or user.is_active is None) or not seen_hash:
        return None
    if not constant_time_compare(seen_hash, user.get_session_auth_hash()):
        return None
    request._cached_user = user  # what AuthenticationMiddleware's lazy request.user returns
    return membership


def player_login_required(view):
    """login_required for a view whose first read is player_at(request, pk)."""
    guarded = login_required(view)

    @wraps(view)
    def wrapped(request, pk: int, *args, **kwargs):
        setattr(request, HELD, (pk, session_member(request, pk)))
        return guarded(request, pk, *args, **kwargs)

    return wrapped

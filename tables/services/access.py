"""Moved to tables/policy/access.py (read-only checks, not among the writers).

Re-exported here for the many services, views and live modules that ask by
this path; new code imports tables.policy.access.
"""

from tables.policy.access import (  # noqa: F401
    ALLOWED,
    HIDDEN,
    NAMED_KINDS,
    PRIVATE_KINDS,
    WHISPER_KINDS,
    audience_of,
    can_control,
    controllable,
    default_character,
    events_seen_q,
    has_role,
    membership_of,
    private_viewer,
    private_viewers,
    require_control,
    seen_by,
    sees_event,
    still_secret,
)

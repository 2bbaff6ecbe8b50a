"""Secret rolls (TB-03): what a reveal requires."""

from __future__ import annotations

from tables.services.core import ServiceError


def require_hidden(record) -> None:
    """TB-03: only a secret roll not yet revealed can be revealed (D20Test, MomentaRoll)."""
    if not record.secret:
        raise ServiceError("That roll was never secret.")
    if record.revealed:
        raise ServiceError("That roll is already revealed.")

"""What the GM calls besides the roll itself, for a called Momenta test (issue 25).

Where players do not declare them (Campaign.players_declare_edges), Disadvantage (PM-02)
and a situational edge (PM-05) are the GM's call: the GM puts them in the call
(services/calls.call_test), and the answer is made with the Disadvantage and may take
the edge (paid for as any Advantage). A luck roll is straight (D6-11).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import CalledTest, Campaign, Membership
from tables.services.core import ServiceError
from tables.services.momenta import SITUATIONAL, RollRequest


def momenta_edges(call: CalledTest, disadvantage: bool, edge: bool) -> None:
    """The GM's Disadvantage (PM-02) and situational edge (PM-05) for the roll."""
    if call.kind == CalledTest.Kind.LUCK and (disadvantage or edge):
        raise ServiceError(_("A luck roll is straight: no Advantage or Disadvantage (D6-11)."))
    call.disadvantage, call.edge = disadvantage, edge


def called_edges(
    campaign: Campaign, membership: Membership, call: CalledTest, request: RollRequest
) -> dict:
    """The request's Disadvantage under the GM's call (PM-02, PM-05). Where the GM calls
    them, a player asks for neither beyond the call: refused, as on a plain roll."""
    gm_calls = not (campaign.players_declare_edges or membership.is_gm)
    if gm_calls and SITUATIONAL in request.advantage_sources and not call.edge:
        raise ServiceError(
            _("The GM called no edge for this roll: take Advantage otherwise, or none (PM-05).")
        )
    if gm_calls and request.disadvantage and not call.disadvantage:
        raise ServiceError(_("The GM called no Disadvantage for this roll (PM-02)."))
    return {"disadvantage": bool(call.disadvantage or request.disadvantage)}

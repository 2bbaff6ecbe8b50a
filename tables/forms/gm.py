"""The GM panel's forms as first drawn: Threat, a pool change by hand, a contest, a
custom spend. A view that answers with one of them (with its errors) passes it instead."""

from __future__ import annotations

from tables.forms.d20 import ContestForm, CustomSpendForm, ThreatForm
from tables.forms.site import PoolAdjustForm
from tables.models import Campaign


def gm_panel_forms(campaign: Campaign, pools) -> dict:
    """The panel's empty forms, by their context names; `pools`: the pools a GM may
    change by hand (tables/policy/play.py pools_for)."""
    return {
        "threat_form": ThreatForm(initial={"expected": campaign.threat}),
        "adjust_form": PoolAdjustForm(campaign=campaign, pools=pools, auto_id="adjust-%s"),
        "contest_form": ContestForm(campaign=campaign),
        "spend_form": CustomSpendForm(),
    }

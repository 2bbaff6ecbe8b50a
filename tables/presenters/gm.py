"""What the GM panel shows: Threat, pools, session and scene, contests, secret tests,
custom spends. Read-only; built here for the view and the `gm_panel_context` tag."""

from __future__ import annotations

from rules import starts
from tables.forms.gm import gm_panel_forms
from tables.models import (
    Attribute,
    Campaign,
    Contest,
    CustomSpend,
    D20Test,
    Membership,
    MomentaRoll,
    Skill,
)
from tables.policy.access import still_secret
from tables.policy.game_lines import adventure_word
from tables.policy.play import current_scene, pools_for
from tables.presenters.d20 import campaign_plays_d20


def gm_panel_context(campaign: Campaign, membership: Membership, **extra) -> dict:
    """What gm_panel.html shows; forms given in `extra` (with their errors) win."""
    campaign.refresh_from_db()
    pools = pools_for(campaign)
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "plays_d20": campaign_plays_d20(campaign),
        # GL-02, GL-07: the line's "new mission" button, "" where a mission changes nothing.
        "new_adventure": campaign_plays_d20(campaign) and adventure_word(campaign),
        "new_adventure_refills": campaign.line.refills_between_sessions,
        "new_adventure_threat": campaign.mission_sets_threat
        and starts.starts_adventures(campaign.line.key),
        **gm_panel_forms(campaign, pools),
        "custom_spends": CustomSpend.objects.filter(campaign=campaign),
        "open_contests": Contest.objects.filter(
            campaign=campaign, state__in=[Contest.State.AWAITING, Contest.State.ROLLED]
        ).select_related("opposer", "active"),
        "secret_tests": still_secret(D20Test.objects.filter(campaign=campaign)).select_related(
            "character"
        ),
        "play_session": campaign.play_sessions.filter(ended_at__isnull=True).first(),
        "scene": current_scene(campaign),
        "sheet_names": _sheet_names(campaign),
        "error": "",
        "notice": "",
    }
    context.update(extra)
    return context


def gm_live_context(campaign: Campaign, only=None) -> dict:
    """What a live push refreshes of the GM panel, for the GM audience as a whole: the
    parts without a person's typing in them (Threat heading, session and scene, open
    contests, secret tests or rolls, custom spends). Its forms stay as the GM left them.

    `only`: the keys a push draws (None: all); the others are not read at all, since a
    push draws only the parts its event changes (tables/live/gm_parts.py)."""
    plays_d20 = campaign_plays_d20(campaign)
    readers = {
        "custom_spends": lambda: CustomSpend.objects.filter(campaign=campaign) if plays_d20 else (),
        "secret_rolls": lambda: (
            still_secret(MomentaRoll.objects.filter(campaign=campaign)).select_related(
                "character", "event"
            )
            if campaign.uses_d6
            else ()
        ),
        "open_contests": lambda: Contest.objects.filter(
            campaign=campaign, state__in=[Contest.State.AWAITING, Contest.State.ROLLED]
        ).select_related("opposer", "active"),
        "secret_tests": lambda: still_secret(
            D20Test.objects.filter(campaign=campaign)
        ).select_related("character"),
        "play_session": lambda: campaign.play_sessions.filter(ended_at__isnull=True).first(),
        "scene": lambda: current_scene(campaign),
    }
    wanted = readers if only is None else [key for key in readers if key in only]
    return {
        "campaign": campaign,
        "plays_d20": plays_d20,
        **{key: readers[key]() for key in wanted},
    }


def _sheet_names(campaign: Campaign) -> dict:
    """Attribute and skill names across the campaign, for the contest form's suggestions."""
    names = {}
    for key, model in (("attributes", Attribute), ("skills", Skill)):
        rows = model.objects.filter(character__campaign=campaign)
        names[key] = sorted(set(rows.values_list("name", flat=True)))
    return names

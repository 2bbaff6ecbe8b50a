"""The 2d20 game lines' table tools: roll Challenge dice (GL-04, members who play) and
set the scene's complication range (GL-05, GMs). Each answers with its fragment and
the event's live fragments (answers.respond); the socket brings them to everyone else.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.forms.game_lines import ChallengeRollForm, NarrativeSpendForm, SceneComplicationForm
from tables.presenters.game_lines import challenge_context, narrative_context
from tables.presenters.gm import gm_panel_context
from tables.services import game_lines as services
from tables.services.core import ServiceError
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, form_errors, respond
from tables.words.said import worded

CHALLENGE = "tables/partials/challenge_dice.html"
PANEL = "tables/partials/gm_panel.html"
NARRATIVE = "tables/partials/narrative_spends.html"


@login_required
@require_POST
def challenge_roll(request, pk: int):
    """GL-04, TB-02: roll Challenge dice on the server; the card reaches every screen."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = ChallengeRollForm(request.POST)
    event, error = None, ""
    if not form.is_valid():
        error = form_errors(form)
    else:
        try:
            event = services.roll_challenge_dice(campaign.pk, request.user, **form.service_kwargs())
        except ServiceError as refusal:
            error = str(refusal)
    if not request.htmx:
        return back_to_table(
            request, campaign, error=error, notice="" if error else gettext("Rolled.")
        )
    context = challenge_context(campaign, membership, form=form if error else None, error=error)
    return respond(request, membership, CHALLENGE, {"ch": context}, [event])


@login_required
@require_POST
def scene_complication(request, pk: int):
    """GL-05: the GM sets or clears the running scene's complication range."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = SceneComplicationForm(request.POST)
    event, error, notice = None, "", ""
    if not form.is_valid():
        error = form_errors(form)
    else:
        try:
            event = services.set_scene_complication_range(campaign.pk, request.user, form.value())
            notice = gettext("Complication range set for the scene.")
        except ServiceError as refusal:
            error = str(refusal)
    if not request.htmx:
        return back_to_table(request, campaign, error=error, notice=notice)
    campaign.refresh_from_db()
    context = gm_panel_context(campaign, membership, error=error, notice=notice)
    return respond(request, membership, PANEL, {"gmp": context}, [event])


@login_required
@require_POST
def new_adventure(request, pk: int):
    """GL-02: the GM starts a new mission (adventure, quest): personal pools refill."""
    campaign, membership = campaign_for(request, pk, role="gm")
    event, error, notice = None, "", ""
    try:
        event = services.start_new_adventure(campaign.pk, request.user)
        notice = _("%(pool)s back to its starting amount.") % {"pool": campaign.line.personal_pool}
    except ServiceError as refusal:
        error = str(refusal)
    if not request.htmx:
        return back_to_table(request, campaign, error=error, notice=notice)
    campaign.refresh_from_db()
    context = gm_panel_context(campaign, membership, error=error, notice=notice)
    return respond(request, membership, PANEL, {"gmp": context}, [event])


@login_required
@require_POST
def narrative_spend(request, pk: int):
    """GL-02: spend the personal pool on a narrative use (Fallout: Luck of the Draw,
    Lucky Timing); the ledger line reaches every screen."""
    from tables.services.d20.narrative import spend_narrative

    campaign, membership = campaign_for(request, pk, role="player")
    form = NarrativeSpendForm(request.POST)
    event, error, notice = None, "", ""
    if not form.is_valid():
        error = form_errors(form)
    else:
        try:
            event = spend_narrative(campaign.pk, request.user, **form.service_kwargs())
            notice = worded(event.payload)
        except ServiceError as refusal:
            error = str(refusal)
    if not request.htmx:
        return back_to_table(request, campaign, error=error, notice=notice)
    context = narrative_context(campaign, membership, error=error, notice=notice)
    return respond(request, membership, NARRATIVE, {"ns": context}, [event])

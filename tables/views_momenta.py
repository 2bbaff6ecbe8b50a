"""Momenta play over HTTP: the composer's commands and its odds preview.

Each view fetches through tables/access.py (the fetch is the permission
check), validates a form, calls one function of services_momenta and answers
with fragments: the redrawn composer plus the new log entries and pools as
hx-swap-oob fragments, so the actor's page updates even without a socket.
Everyone else gets the same entries by live push. Refusals a person can cause
come back in the composer (status 200, so htmx swaps them in); a role that may
not act at all gets 403. Without htmx, the views redirect to the table.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from . import live
from . import services_momenta as momenta
from .access import campaign_for, character_for
from .composer_momenta import (
    assist_queue_context,
    composer_context,
    gm_tools_context,
    initial_from,
    pick_character,
    preview,
    roll_form,
)
from .forms_momenta import (
    AllocationForm,
    AssistAnswerForm,
    AssistRequestForm,
    CustomPatternForm,
    RollTemplateForm,
    TraumaForm,
    controllable_characters,
)
from .models import Campaign, Character, Membership, TableEvent
from .models_momenta import CustomPattern
from .services import ServiceError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


COMPOSER = "tables/partials/composer_momenta.html"


def _errors(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


# Fragments an answer can redraw, by the id htmx targets (HX-Target); GM panel parts
# go to GMs only, anything else gets the composer.
PANEL_PARTS = {
    "momenta-assist-queue": ("tables/partials/assist_queue.html", assist_queue_context, ()),
    "momenta-gm-tools": (
        "tables/partials/gm_momenta_tools.html",
        gm_tools_context,
        ("template_form", "pattern_form"),
    ),
}
COMPOSER_FORMS = ("character", "form", "initial", "assist_form", "trauma_form")


def _answer(
    request: HtmxHttpRequest,
    campaign: Campaign,
    membership: Membership,
    events: list[TableEvent] = (),
    *,
    error: str = "",
    notice: str = "",
    **context,
) -> HttpResponse:
    """The redrawn fragment the request targets and the new events' fragments
    (or a redirect to the table without htmx)."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif notice:
            messages.success(request, notice)
        return redirect("table", pk=campaign.pk)
    part = PANEL_PARTS.get(request.htmx.target or "")
    if part is not None and membership.is_gm:
        template, build, accepted = part
    else:
        template, build, accepted = COMPOSER, composer_context, COMPOSER_FORMS
    kwargs = {k: v for k, v in context.items() if k in accepted}
    html = render_to_string(
        template,
        build(campaign, membership, error=error, notice=notice, **kwargs),
        request=request,
    )
    audience = live.audience_for(membership)
    for event in events:
        html += live.render_event_fragments(event, audience)
    return HttpResponse(html)


def _posted_character(request, campaign: Campaign, key: str = "character") -> Character | None:
    """The character named in the request, if the viewer controls it (else 403/404).

    None when the field is missing or not a number: the form then says so.
    """
    raw = request.POST.get(key) if request.method == "POST" else request.GET.get(key)
    if raw is None or not str(raw).isdigit():
        return None
    _, _, character = character_for(request, campaign.pk, int(raw))
    return character


# --- Composer and odds -----------------------------------------------------------------


@login_required
@require_GET
def composer(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The composer redrawn for another character or attribute, keeping the choices made."""
    campaign, membership = campaign_for(request, pk, role="player")
    character = pick_character(campaign, membership, request.GET.get("character"))
    context = composer_context(
        campaign, membership, character=character, initial=initial_from(request.GET)
    )
    if not request.htmx:
        return redirect("table", pk=campaign.pk)
    return render(request, COMPOSER, context)


@login_required
@require_GET
def odds(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The odds preview of the composer's current fields (D6-12, PAT-10, PM-05..PM-11)."""
    campaign, membership = campaign_for(request, pk, role="player")
    character = _posted_character(request, campaign)
    form = roll_form(campaign, membership, character, data=request.GET)
    return render(request, "tables/partials/odds_preview.html", {"odds": preview(form)})


# --- Rolling ---------------------------------------------------------------------------


@login_required
@require_POST
def roll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Roll the composer's pool (D6, PM, RS-01, TB-02, TB-03)."""
    campaign, membership = campaign_for(request, pk, role="player")
    character = _posted_character(request, campaign)
    form = roll_form(campaign, membership, character, data=request.POST)
    if not form.is_valid():
        return _answer(request, campaign, membership, form=form, error=_errors(form))
    try:
        made = momenta.roll_momenta(
            campaign.pk,
            request.user,
            character.pk,
            **form.service_kwargs(),
            secret=form.cleaned_data.get("secret", False),
            expected_momentum=form.cleaned_data.get("expected_momentum"),
            expected_resolve=form.cleaned_data.get("expected_resolve"),
        )
    except ServiceError as error:
        # The composer is drawn again from fresh pools, with the choices kept.
        return _answer(
            request,
            campaign,
            membership,
            character=character,
            initial=initial_from(request.POST),
            error=str(error),
        )
    return _answer(
        request,
        campaign,
        membership,
        [made.event],
        character=character,
        initial=initial_from(request.POST) | {"secret": None},
    )


@login_required
@require_POST
def allocate(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """The roller confirms a pattern allocation (PAT-02..PAT-09)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AllocationForm(request.POST)
    if not form.is_valid():
        return _answer(request, campaign, membership, error=_errors(form))
    refund_to = [int(v) for v in request.POST.getlist("refund_to") if v.isdigit()]
    try:
        event = momenta.choose_allocation(
            campaign.pk, request.user, roll_pk, form.cleaned_data["allocation"], refund_to
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, error=str(error))
    return _answer(request, campaign, membership, [event])


@login_required
@require_POST
def reveal(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """The GM reveals a secret roll (TB-03)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    try:
        event = momenta.reveal_roll(campaign.pk, request.user, roll_pk)
    except ServiceError as error:
        return _answer(request, campaign, membership, error=str(error))
    return _answer(request, campaign, membership, [event])


# --- Assists and trauma ----------------------------------------------------------------


@login_required
@require_POST
def assist_request(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Ask for, or offer, an Assist (PM-08, PM-09)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AssistRequestForm(request.POST, campaign=campaign)
    if not form.is_valid():
        return _answer(request, campaign, membership, assist_form=form, error=_errors(form))
    d = form.cleaned_data
    try:
        assist = momenta.request_assist(
            campaign.pk, request.user, d["roller"], d["helper"], structured=d["structured"]
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, assist_form=form, error=str(error))
    return _answer(request, campaign, membership, [assist.event], notice="Assist asked.")


@login_required
@require_POST
def assist_answer(request: HtmxHttpRequest, pk: int, assist_pk: int) -> HttpResponse:
    """The GM accepts, declines or calls a test; the helper may withdraw (PM-08, PM-10)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AssistAnswerForm(request.POST)
    if not form.is_valid():
        return _answer(request, campaign, membership, error=_errors(form))
    try:
        assist = momenta.answer_assist(
            campaign.pk, request.user, assist_pk, form.cleaned_data["answer"]
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, error=str(error))
    return _answer(request, campaign, membership, [assist.event])


@login_required
@require_POST
def trauma(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A character suffers trauma: Momentum +1 per point (PM-03, PM-04, PM-12)."""
    campaign, membership = campaign_for(request, pk, role="player")
    character = _posted_character(request, campaign)
    form = TraumaForm(request.POST, characters=controllable_characters(campaign, membership))
    if not form.is_valid():
        return _answer(request, campaign, membership, trauma_form=form, error=_errors(form))
    try:
        event = momenta.record_trauma(
            campaign.pk,
            request.user,
            character.pk,
            form.cleaned_data["points"],
            expected=form.cleaned_data.get("expected"),
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, error=str(error))
    return _answer(request, campaign, membership, [event])


# --- GM: roll templates and custom patterns ---------------------------------------------


@login_required
@require_POST
def template_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM adds or edits a roll template (D6-04, D6-05, PAT-R2)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = RollTemplateForm(request.POST)
    if not form.is_valid():
        return _answer(request, campaign, membership, template_form=form, error=_errors(form))
    try:
        event = momenta.save_roll_template(
            campaign.pk,
            request.user,
            form.rules_data(campaign),
            template_id=form.cleaned_data.get("template_id"),
            campaign_labels=form.cleaned_data["campaign_labels"],
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, template_form=form, error=str(error))
    return _answer(request, campaign, membership, [event], notice="Roll template saved.")


@login_required
@require_POST
def template_delete(request: HtmxHttpRequest, pk: int, template_pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    try:
        event = momenta.delete_roll_template(campaign.pk, request.user, template_pk)
    except ServiceError as error:
        return _answer(request, campaign, membership, error=str(error))
    return _answer(request, campaign, membership, [event], notice="Roll template removed.")


@login_required
@require_POST
def pattern_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM adds or edits a custom pattern (PAT-01..PAT-04)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = CustomPatternForm(request.POST)
    if not form.is_valid():
        return _answer(request, campaign, membership, pattern_form=form, error=_errors(form))
    pattern_id = form.cleaned_data.get("pattern_id")
    if pattern_id is not None:
        get_object_or_404(CustomPattern, pk=pattern_id, campaign=campaign)
    try:
        event = momenta.save_custom_pattern(
            campaign.pk,
            request.user,
            form.rules_data(),
            pattern_id=pattern_id,
            active=form.cleaned_data["active"],
        )
    except ServiceError as error:
        return _answer(request, campaign, membership, pattern_form=form, error=str(error))
    return _answer(request, campaign, membership, [event], notice="Pattern saved.")

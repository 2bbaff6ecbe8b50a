"""Momenta play over HTTP: the composer's commands and its odds preview.

Each view fetches through views/access.py (the fetch is the permission
check), validates a form, turns it into plain values (a RollRequest for a
roll), calls one function of services/momenta/ and answers
with fragments: the redrawn composer plus the new log entries and pools as
hx-swap-oob fragments, so the actor's page updates even without a socket.
Everyone else gets the same entries by live push. Refusals a person can cause
come back in the composer (status 200, so htmx swaps them in); a role that may
not act at all gets 403. Without htmx, the views redirect to the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from rules.pools import MOMENTUM, cap_of
from tables.forms.momenta import (
    AllocationForm,
    AssistAnswerForm,
    AssistRequestForm,
    CustomPatternForm,
    MomentaRollForm,
    RollTemplateForm,
    TraumaForm,
    initial_from,
    roll_form,
)
from tables.models import Campaign, Character, CustomPattern, Membership, MomentaRoll, TableEvent
from tables.policy.access import controllable, seen_by
from tables.presenters.momenta import (
    assist_queue_context,
    chooser_for,
    composer_context,
    gm_tools_context,
    pick_character,
    preview,
)
from tables.services import momenta
from tables.services.core import ServiceError
from tables.views.access import campaign_for, character_for, controlled_character, posted_id
from tables.views.answers import HtmxHttpRequest, back_to_table, commands, form_errors, respond
from tables.views.calls import called_edges_of

COMPOSER = "tables/partials/composer_momenta.html"
ROLLED = "tables/partials/composer_momenta_rolled.html"
# An old page may still post a call's answer here: refused, so no roll lands uncalled.
CALL_ELSEWHERE = _("A called test is answered at its own address: reload the page and roll again.")


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
# The composer's choices that survive a roll; the per-roll ones (Advantage,
# Disadvantage, Thread, Assist, Resolve, modifiers, opposition, secret) are reset.
KEPT_AFTER_ROLL = ("attribute", "kind", "play", "template")


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
        return back_to_table(request, campaign, notice=notice, error=error)
    part = PANEL_PARTS.get(request.htmx.target or "")
    if part is not None and membership.is_gm:
        template, build, accepted = part
    else:
        template, build, accepted = COMPOSER, composer_context, COMPOSER_FORMS
    kwargs = {k: v for k, v in context.items() if k in accepted}
    context = build(campaign, membership, error=error, notice=notice, **kwargs)
    return respond(request, membership, template, context, events)


# answers.command, answered with the fragment the request targets.
_commands = commands(_answer)


def _posted_character(request, campaign: Campaign, key: str = "character") -> Character | None:
    """The character named in the request, if the viewer controls it (else 403/404).

    None when the field is missing or not a number: the form then says so.
    """
    raw = request.POST.get(key) if request.method == "POST" else request.GET.get(key)
    if raw is None or not (str(raw).isascii() and str(raw).isdigit()):
        return None
    _, _, character = character_for(request, campaign.pk, int(raw))
    return character


# --- Composer and odds -----------------------------------------------------------------


@login_required
@require_GET
def composer(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The composer redrawn for another character or attribute, keeping the choices made."""
    campaign, membership = campaign_for(request, pk, role="player")
    _posted_character(request, campaign)  # another's character: 403/404, not one's own instead
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
    characters = controllable(campaign, membership)
    # A composer answering a call: the GM's Disadvantage and edge count (PM-02, PM-05).
    edges = called_edges_of(campaign, membership, request.GET.get("call"))
    form = roll_form(
        campaign, membership, character, data=request.GET, characters=characters, called_edges=edges
    )
    return render(request, "tables/partials/odds_preview.html", {"odds": preview(form)})


# --- Rolling ---------------------------------------------------------------------------


@login_required
@require_GET
def chooser(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """The allocation chooser of one roll awaiting its patterns (PAT-02, PAT-09), for the
    person who chooses them; empty once chosen (or for anyone else). A roll's answer
    loads it from here, so a roll does not build every pending choice again."""
    campaign, membership = campaign_for(request, pk, role="player")
    rolls = MomentaRoll.objects.select_related("character", "event").filter(
        campaign=campaign, state=MomentaRoll.State.AWAITING_ALLOCATION
    )
    made = seen_by(membership, rolls).filter(pk=roll_pk).first()
    user_id = membership.user_id
    if made is None or user_id not in (made.actor_id, made.character.owner_id):
        return HttpResponse("")
    context = {"campaign": campaign, "chooser": chooser_for(made)}
    return render(request, "tables/partials/allocation_chooser.html", context)


@require_POST
@login_required
def roll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Roll the composer's pool (D6, PM, RS-01, TB-02, TB-03).

    One read of what the roll needs, under the campaign lock (services.momenta.load_roll):
    the form is checked against those rows and the service rolls from the same rows, in
    the same transaction, so nothing read before the lock decides anything. The answer
    is the event's fragments and the form's changed parts, not the whole composer: the
    odds and a pending allocation chooser load on their own (GET momenta_odds,
    momenta_chooser). Check and roll first (_try_roll, from the request's parts), then
    answer (_roll_answer).
    """
    if "call" in request.POST:  # a call's composer posts to the call (calls.answer_momenta)
        return HttpResponseBadRequest(CALL_ELSEWHERE)
    tried = _try_roll(pk, request.user, request.POST, posted_id(request))
    return _roll_answer(request, pk, tried)


@dataclass(frozen=True)
class _Tried:
    """What a roll came to: `made`, or why not (`refusal`, a service's words; else the
    form's errors); `rows` None when refused at the lock. `chosen`: what the composer
    keeps of what was posted, whatever the answer."""

    chosen: dict
    rows: momenta.RollRows | None = None
    form: MomentaRollForm | None = None
    made: MomentaRoll | None = None
    refusal: str = ""


def _try_roll(pk: int, user, posted: QueryDict, character_id: int | None) -> _Tried:
    """The form checked against the rows read under the lock and, if valid, the roll made
    from those same rows."""
    rows = form = made = None
    try:
        # Held until the roll commits: a pool move or a role change committing meanwhile
        # waits at the lock, so the form and the roll decide from the same rows.
        with transaction.atomic():
            rows = momenta.load_roll(pk, user, character_id)
            if rows.character is None and character_id is not None:
                # Not theirs to roll for: 404 or 403, as if they had opened it.
                controlled_character(rows.campaign, rows.membership, character_id)
            form = roll_form(
                rows.campaign,
                rows.membership,
                rows.character,
                data=posted,
                templates=rows.templates,
                characters=rows.characters,
                assists=rows.assists,
                targets=rows.everyone,
            )
            if form.is_valid():
                asked = momenta.RollRequest(**form.roll_values())
                made = momenta.roll_momenta(pk, user, rows.character.pk, asked, loaded=rows)
    except Campaign.DoesNotExist:
        raise Http404(gettext("No such campaign.")) from None
    except ServiceError as error:
        return _Tried(initial_from(posted), rows, refusal=str(error))
    return _Tried(initial_from(posted), rows, form, made)


def _roll_answer(request: HtmxHttpRequest, pk: int, tried: _Tried) -> HttpResponse:
    rows, form, made = tried.rows, tried.form, tried.made
    if tried.refusal:
        return _refused(request, pk, rows, tried.chosen, tried.refusal)
    if made is None:
        return _answer(request, rows.campaign, rows.membership, form=form, error=form_errors(form))
    if not request.htmx:
        return back_to_table(request, made.campaign)
    kept = {k: v for k, v in tried.chosen.items() if k in KEPT_AFTER_ROLL}
    return _rolled(request, rows, made, kept, form.board_traits, form.targets)


def _refused(
    request: HtmxHttpRequest, pk: int, rows: momenta.RollRows | None, chosen: dict, error: str
) -> HttpResponse:
    """A refused roll, rolled back: the composer drawn again from fresh pools, with the
    choices kept (`rows` None: refused at the lock, a retried submission)."""
    if rows is None:  # nothing read yet: read what to draw
        campaign, membership = campaign_for(request, pk, role="player")
        return _answer(request, campaign, membership, initial=chosen, error=error)
    rows.campaign.refresh_from_db()
    return _answer(
        request,
        rows.campaign,
        rows.membership,
        character=rows.character,
        initial=chosen,
        error=error,
    )


def _rolled(
    request: HtmxHttpRequest,
    rows: momenta.RollRows,
    made: MomentaRoll,
    kept: dict,
    board_traits=None,
    targets=None,
) -> HttpResponse:
    """The roll's answer: its event's fragments and the form's parts the roll changed,
    out of band (composer_momenta_rolled.html). What to roll and how stays in the page as
    chosen (the parts are drawn from it, `kept`); what it spent is cleared (Advantage,
    Resolve, the Assist…), so nothing is spent again unasked. The roller, its pools and
    the campaign are the rows the form was checked with and the roll changed (read under
    the lock); the Assist used is no longer offered."""
    campaign, membership = made.campaign, rows.membership
    form = roll_form(
        campaign,
        membership,
        made.character,
        initial=kept,
        templates=rows.templates,
        characters=rows.characters,
        assists=[a for a in rows.assists if a.pk != made.assist_id],
        board_traits=board_traits,  # a roll leaves the board as it was
        targets=targets,  # nor does it change who may be attacked
    )
    context = {
        "campaign": campaign,
        "form": form,
        "is_gm": membership.is_gm,
        "personal_max": cap_of(MOMENTUM),
        "odds_on_load": True,
        "awaiting": made if made.awaiting else None,
    }
    response = respond(request, membership, ROLLED, context, [made.event])
    response["HX-Reswap"] = "none"  # every part is out of band; a protocol word
    return response


@login_required
@require_POST
def allocate(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """The roller confirms a pattern allocation (PAT-02..PAT-09)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AllocationForm(request.POST)
    refund_to = [int(v) for v in request.POST.getlist("refund_to") if v.isascii() and v.isdigit()]

    def call():
        allocation = form.cleaned_data["allocation"]
        return momenta.choose_allocation(campaign.pk, request.user, roll_pk, allocation, refund_to)

    return _commands(request, campaign, membership)(call, form=form)


@login_required
@require_POST
def reveal(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """The GM reveals a secret roll (TB-03)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    run = _commands(request, campaign, membership)
    return run(lambda: momenta.reveal_roll(campaign.pk, request.user, roll_pk))


# --- Assists and trauma ----------------------------------------------------------------


@login_required
@require_POST
def assist_request(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Ask for, or offer, an Assist (PM-08, PM-09)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AssistRequestForm(request.POST, campaign=campaign)

    def call():
        d = form.cleaned_data
        return momenta.request_assist(
            campaign.pk, request.user, d["roller"], d["helper"], structured=d["structured"]
        ).event

    run = _commands(request, campaign, membership)
    return run(call, form=form, form_name="assist_form", notice=gettext("Assist asked."))


@login_required
@require_POST
def assist_answer(request: HtmxHttpRequest, pk: int, assist_pk: int) -> HttpResponse:
    """The GM accepts, declines or calls a test; the helper may withdraw (PM-08, PM-10)."""
    campaign, membership = campaign_for(request, pk, role="player")
    form = AssistAnswerForm(request.POST)

    def call():
        answer = form.cleaned_data["answer"]
        return momenta.answer_assist(campaign.pk, request.user, assist_pk, answer).event

    return _commands(request, campaign, membership)(call, form=form)


@login_required
@require_POST
def trauma(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A character suffers trauma: Momentum +1 per point (PM-03, PM-04, PM-12)."""
    campaign, membership = campaign_for(request, pk, role="player")
    character = _posted_character(request, campaign)
    form = TraumaForm(request.POST, characters=controllable(campaign, membership))
    if not form.is_valid():
        return _answer(request, campaign, membership, trauma_form=form, error=form_errors(form))
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
@require_GET
def gm_tools(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM's Momenta tools in full, forms and all: the table page draws the templates'
    and patterns' tabs without their forms and fetches this when one first shows (with
    htmx); without htmx, a page of their own. GMs only."""
    campaign, membership = campaign_for(request, pk, role="gm")
    context = gm_tools_context(campaign, membership)
    if request.htmx:
        return render(request, PANEL_PARTS["momenta-gm-tools"][0], context)
    return render(request, "tables/momenta_gm_tools.html", context)


@login_required
@require_POST
def template_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM adds or edits a roll template (D6-04, D6-05, PAT-R2)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = RollTemplateForm(request.POST)

    def call():
        return momenta.save_roll_template(
            campaign.pk,
            request.user,
            form.rules_data(campaign),
            template_id=form.cleaned_data.get("template_id"),
            campaign_labels=form.cleaned_data["campaign_labels"],
        )

    run = _commands(request, campaign, membership)
    return run(call, form=form, form_name="template_form", notice=gettext("Roll template saved."))


@login_required
@require_POST
def template_delete(request: HtmxHttpRequest, pk: int, template_pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    run = _commands(request, campaign, membership)
    call = partial(momenta.delete_roll_template, campaign.pk, request.user, template_pk)
    return run(call, notice=gettext("Roll template removed."))


@login_required
@require_POST
def pattern_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM adds or edits a custom pattern (PAT-01..PAT-04)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = CustomPatternForm(request.POST)

    def call():
        pattern_id = form.cleaned_data.get("pattern_id")
        if pattern_id is not None:
            get_object_or_404(CustomPattern, pk=pattern_id, campaign=campaign)
        return momenta.save_custom_pattern(
            campaign.pk,
            request.user,
            form.rules_data(),
            pattern_id=pattern_id,
            active=form.cleaned_data["active"],
        )

    run = _commands(request, campaign, membership)
    return run(call, form=form, form_name="pattern_form", notice=gettext("Pattern saved."))

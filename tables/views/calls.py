"""Called tests over HTTP: the GM calls and withdraws; a player's composer answers.

The panel (#called-tests, call_panel.html) is one person's: GMs get the form and every
open call, players the calls on their characters. Pushes never carry it; an event about
a call makes a page fetch its own again (live_sync.html). A player's panel fetches the
composer filled from the newest call (`call_composer`); that composer posts to the call's
own URL (answer_d20, answer_momenta): the call's terms replace whatever the form says about
them. The plain roll views refuse a posted `call`.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tables.forms.calls import CallForm
from tables.forms.d20 import D20RollForm
from tables.forms.momenta import initial_from, roll_form
from tables.models import CalledTest, Campaign, Membership
from tables.policy.access import controllable
from tables.policy.calls import open_calls
from tables.policy.game_lines import catalogue
from tables.presenters.calls import answering_character, call_view, panel_context
from tables.presenters.momenta import composer_context
from tables.services import calls as services_calls
from tables.services import d20 as services_d20
from tables.services.core import ServiceError
from tables.services.momenta import SITUATIONAL, RollRequest
from tables.views.access import campaign_for, player_at
from tables.views.answers import back_to_table, command, form_errors, respond
from tables.views.d20 import composer_of, odds_of, panel_of
from tables.words import wording
from tables.words.said import worded

PANEL = "tables/partials/call_panel.html"
D20_PLAY = "tables/partials/composer_d20.html"
MOMENTA_COMPOSER = "tables/partials/composer_momenta.html"
ODDS = "tables/partials/call_odds.html"


def _panel_answer(request, campaign, membership):
    def answer(events=(), error="", notice="", form=None):
        if not request.htmx:
            return back_to_table(request, campaign, notice=notice, error=error)
        context = panel_context(campaign, membership, form=form, error=error, notice=notice)
        return respond(request, membership, PANEL, context, events)

    return answer


@login_required
@require_GET
def called_tests(request, pk: int):
    """The viewer's panel of called tests (call_panel.html), fetched again after a push."""
    campaign, membership = campaign_for(request, pk)
    return respond(request, membership, PANEL, panel_context(campaign, membership))


@login_required
@require_POST
def call_test(request, pk: int):
    """The GM calls for a test (services.calls.call_test)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = CallForm(request.POST, campaign=campaign)
    return command(
        _panel_answer(request, campaign, membership),
        lambda: services_calls.call_test(campaign.pk, request.user, **form.service_kwargs()).event,
        form=form,
        form_name="form",
        notice=gettext("Test called."),
    )


@login_required
@require_POST
def call_cancel(request, pk: int, cid: int):
    """The GM withdraws an open call."""
    campaign, membership = campaign_for(request, pk, role="gm")
    return command(
        _panel_answer(request, campaign, membership),
        lambda: services_calls.cancel_call(campaign.pk, request.user, cid),
        notice=gettext("Call withdrawn."),
    )


def _call_for(campaign: Campaign, membership: Membership, cid) -> CalledTest:
    """An open call this viewer may answer, else 404 (a player never reads another's)."""
    call = open_calls(campaign).filter(pk=cid).first()
    characters = controllable(campaign, membership)
    if call is None or not call_view(call, membership, characters).can_answer:
        raise Http404(gettext("No such call."))
    return call


@login_required
@require_GET
def call_composer(request, pk: int, cid: int):
    """The composer filled from a call: the GM's terms, the Difficulty only if shown."""
    campaign, membership = campaign_for(request, pk, role="player")
    call = _call_for(campaign, membership, cid)
    characters = controllable(campaign, membership)
    character = answering_character(call, membership, characters)
    view = call_view(call, membership, characters)
    if not request.htmx:
        return redirect("table", pk=campaign.pk)
    if call.system == CalledTest.System.D20:
        form = D20RollForm(
            campaign=campaign,
            membership=membership,
            spends=catalogue(campaign),
            character=character,
            initial=_d20_initial(call),
        )
        context = composer_of(campaign, membership, form=form)
        context["call"] = view
        context["odds"] = _d20_call_odds(campaign, call, form)
        return respond(request, membership, D20_PLAY, {"d20": context})
    form = roll_form(
        campaign,
        membership,
        character,
        initial=_momenta_initial(call),
        characters=characters,
        called_edges=called_edges(call),
    )
    context = composer_context(campaign, membership, form=form)
    context["call"] = view
    return respond(request, membership, MOMENTA_COMPOSER, context)


def called_edges(call: CalledTest) -> tuple[bool, bool]:
    """(Disadvantage, edge) the GM called (PM-02, PM-05): the answering form takes them."""
    return call.disadvantage, call.edge


def called_edges_of(campaign: Campaign, membership: Membership, raw) -> tuple[bool, bool] | None:
    """The edges of the call a composer answers (its `call` field), if it names one;
    404 for a call the viewer may not answer."""
    if raw in (None, ""):
        return None
    cid = int(raw) if str(raw).isascii() and str(raw).isdigit() else 0
    return called_edges(_call_for(campaign, membership, cid))


def _momenta_initial(call: CalledTest) -> dict:
    # A called Disadvantage needs no initial: the form ticks it (MomentaRollForm._take_call).
    initial = {"attribute": call.attribute, "kind": call.kind}
    if call.edge:
        initial["advantage_sources"] = [SITUATIONAL]
    return initial


def _d20_initial(call: CalledTest) -> dict:
    # A hidden Difficulty is never put in the page: 0 stands in, and the answer ignores it.
    return {
        "attribute": call.attribute,
        "skill": call.skill,
        "focus": call.focus,
        "difficulty": 0 if call.hidden else call.difficulty,
        "contest": None,
    }


def _with_terms(data, call: CalledTest):
    """The composer's data with the call's terms in place of whatever was sent."""
    data = data.copy()
    for name, value in _d20_initial(call).items():
        data[name] = "" if value is None else str(value)
    for name in ("harder", "easier"):
        data[name] = "0"
    data.pop("secret", None)
    return data


def _d20_call_odds(campaign: Campaign, call: CalledTest, form: D20RollForm) -> dict:
    """T-05 for a called test: at the GM's Difficulty, or, while it is hidden, at each
    Difficulty it could be (so nothing in the page depends on the hidden one)."""
    if not call.hidden:
        return odds_of(campaign, form)
    params = form.service_kwargs() if form.is_bound and form.is_valid() else None
    if form.is_bound and params is None:
        return {"error": form_errors(form), "hidden": True}
    if params is None:
        params = {"bought_dice": 0, "assistants": [], "bonus_momentum": 0}
        params.update(attribute=call.attribute, skill=call.skill, focus=call.focus)
    character = form.chosen
    if character is None:
        return {"error": gettext("Choose a character first."), "hidden": True}
    rows = []
    try:
        for difficulty in range(services_calls.DIFFICULTY_MAX + 1):
            request = services_d20.D20TestRequest(
                attribute=call.attribute,
                skill=call.skill,
                focus=call.focus,
                difficulty=difficulty,
                bought_dice=params["bought_dice"],
                assistants=params["assistants"],
                bonus_momentum=params["bonus_momentum"],
                complication_range=call.complication_range,
            )
            _, odds = services_d20.preview_odds(
                campaign, character, request, sees_hidden=form.membership.is_gm
            )
            rows.append((difficulty, wording.percent(odds.pass_chance)))
    except ServiceError as error:
        return {"error": str(error), "hidden": True}
    return {"hidden": True, "rows": rows}


@login_required
@require_GET
def call_odds(request, pk: int):
    """The odds box of a composer answering a call (the composer's `call` field)."""
    campaign, membership = campaign_for(request, pk, role="player")
    raw = request.GET.get("call", "")
    call = _call_for(campaign, membership, int(raw) if raw.isascii() and raw.isdigit() else 0)
    form = D20RollForm(
        _with_terms(request.GET, call),
        campaign=campaign,
        membership=membership,
        spends=catalogue(campaign),
    )
    odds = _d20_call_odds(campaign, call, form)
    return HttpResponse(render_to_string(ODDS, {"odds": odds}, request=request))


@require_POST
@login_required
def answer_d20(request, pk: int, cid: int):
    """The composer filled from a 2d20 call posts here: roll the called test
    (services.calls.answer_d20_call), the GM's terms in place of the form's."""
    campaign, membership = player_at(request, pk)
    call = CalledTest.objects.filter(campaign=campaign, pk=cid).first()
    if call is None:
        raise Http404(gettext("No such call."))
    spends = catalogue(campaign)
    form = D20RollForm(
        _with_terms(request.POST, call), campaign=campaign, membership=membership, spends=spends
    )

    def refused(error: str):
        if not request.htmx:
            return back_to_table(request, campaign, error=error)
        context = composer_of(campaign, membership, form=form, error=error)
        if call.is_open:
            context["call"] = call_view(call, membership, form.characters)
        return respond(request, membership, D20_PLAY, {"d20": context})

    if not form.is_valid():
        return refused(form_errors(form))
    try:
        record, event = services_calls.answer_d20_call(
            campaign.pk,
            request.user,
            cid,
            form.cleaned_data["character"],
            services_d20.D20TestRequest(**form.service_kwargs()),
        )
    except ServiceError as error:
        call.refresh_from_db()
        return refused(str(error))
    if not request.htmx:
        return back_to_table(request, campaign, notice=worded(event.payload))
    campaign = record.campaign
    fresh = D20RollForm(
        campaign=campaign, membership=membership, spends=spends, character=record.character
    )
    panel = panel_of(campaign, membership, record, spends=spends, fresh=True)
    context = composer_of(campaign, membership, form=fresh, panel=panel)
    return respond(request, membership, D20_PLAY, {"d20": context}, [record.event, event])


@require_POST
@login_required
def answer_momenta(request, pk: int, cid: int):
    """The composer filled from a Momenta call posts here: roll the called roll
    (services.calls.answer_momenta_call), the call's attribute and kind in place of the form's."""
    campaign, membership = player_at(request, pk)
    call = CalledTest.objects.filter(campaign=campaign, pk=cid).first()
    if call is None:
        raise Http404(gettext("No such call."))
    characters = controllable(campaign, membership)
    raw = request.POST.get("character", "")
    character = next((c for c in characters if str(c.pk) == raw), None)
    if character is None:
        raise Http404(gettext("No such character."))
    data = request.POST.copy()
    data["attribute"], data["kind"] = call.attribute, call.kind
    edges = called_edges(call)
    form = roll_form(
        campaign, membership, character, data=data, characters=characters, called_edges=edges
    )

    def answer(error: str = "", events=()):
        if not request.htmx:
            return back_to_table(request, campaign, error=error)
        if error:
            kept = roll_form(
                campaign,
                membership,
                character,
                initial=_momenta_initial(call) | initial_from(data),
                characters=characters,
                called_edges=edges,
            )
            context = composer_context(campaign, membership, form=kept, error=error)
            call.refresh_from_db()
            if call.is_open:
                context["call"] = call_view(call, membership, characters)
        else:
            context = composer_context(campaign, membership, character=character)
        return respond(request, membership, MOMENTA_COMPOSER, context, events)

    if not form.is_valid():
        return answer(form_errors(form))
    asked = RollRequest(**form.roll_values())
    try:
        roll, event = services_calls.answer_momenta_call(
            campaign.pk, request.user, cid, character.pk, asked, membership=membership
        )
    except ServiceError as error:
        return answer(str(error))
    return answer(events=[roll.event, event])

"""2d20 play at the table: the composer, the odds preview and the spend panel.

Each view fetches through tables/views/access.py (the fetch is the permission
check: PermissionDenied becomes a 403), validates a form and calls one
service. The answer is a fragment (the composer or the spend panel: composer_of
and panel_of read what they show, tables/presenters/d20.py words it) followed by
the event's live fragments, so the
actor's page updates even without a socket; other browsers get the event by
live push. A refusal a person can
cause comes back as a clear message inside the fragment and changes nothing.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from rules.errors import RulesError
from tables.clause_ids import without_ids
from tables.forms.d20 import (
    D20RollForm,
    RerollForm,
    SpendForm,
    VetoForm,
    composer_form,
    panel_forms,
)
from tables.models import Campaign, D20Test, Membership
from tables.policy.access import has_role
from tables.presenters.d20 import odds_view, panel_context, play_context, visible_tests
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.core import ServiceError
from tables.views.access import campaign_for, player_at
from tables.views.answers import back_to_table, command, form_errors, respond

PLAY = "tables/partials/composer_d20.html"
PANEL = "tables/partials/spend_panel.html"
ODDS = "tables/partials/d20_odds.html"
# An old page may still post a call's answer here: refused, so no test lands uncalled.
CALL_ELSEWHERE = _("A called test is answered at its own address: reload the page and roll again.")


def _record_for(campaign: Campaign, membership: Membership, tid: int) -> D20Test:
    record = visible_tests(campaign, membership).filter(pk=tid).first()
    if record is None:
        raise Http404("No such test.")
    return record


# --- what the fragments show (the presenter draws what these read) ---------------------


def composer_of(
    campaign: Campaign,
    membership: Membership,
    *,
    form: D20RollForm | None = None,
    spends: dict | None = None,
    panel: dict | None = None,
    error: str = "",
    notice: str = "",
) -> dict:
    """composer_d20.html's `d20`: the composer `form` (else as first drawn), its odds
    for a player, the open tests and `panel`. `spends`: the catalogue, if read."""
    if form is None:
        spends = services_d20.catalogue(campaign) if spends is None else spends
        form = composer_form(campaign, membership, spends)
    plays = has_role(membership, "player")
    odds = odds_of(campaign, form) if form.chosen is not None and plays else None
    return play_context(
        campaign, membership, form=form, odds=odds, panel=panel, error=error, notice=notice
    )


def odds_of(campaign: Campaign, form: D20RollForm) -> dict:
    """T-05: exact odds of what the composer describes, or what keeps it from rolling."""
    character = form.chosen
    if character is None:
        return {"error": "Choose a character first."}
    if form.is_bound and not form.is_valid():
        return {"error": form_errors(form)}
    params = form.service_kwargs() if form.is_bound else form.initial_params()
    contest = None
    if params.get("contest_id"):
        contest = character.contests_active.filter(pk=params["contest_id"]).first()
    try:
        request = services_d20.D20TestRequest(
            attribute=params["attribute"],
            skill=params["skill"],
            focus=params["focus"],
            difficulty=params["difficulty"],
            factors=params["factors"],
            bought_dice=params["bought_dice"],
            assistants=params["assistants"],
            bonus_momentum=params["bonus_momentum"],
            complication_range=params.get("complication_range"),  # GL-05
            spend_determination=params.get("spend_determination", False),  # GL-02, GL-03
        )
        spec, odds = services_d20.preview_odds(campaign, character, request, contest=contest)
    except (ServiceError, RulesError) as error:
        return {"error": without_ids(str(error))}  # a RulesError's message names clauses
    return odds_view(spec, odds, params, character, contest, campaign.line)


def panel_of(
    campaign: Campaign,
    membership: Membership,
    record: D20Test,
    *,
    spends: dict | None = None,
    fresh: bool = False,
    error: str = "",
    notice: str = "",
) -> dict:
    """spend_panel.html's `panel` for one test and one viewer. `fresh`: the caller
    holds the campaign and the test as its own command committed them (not read again);
    `spends`: the catalogue, if the caller read it."""
    if not fresh:
        # last_seq is the panel's data-seq: a live push about this test with a later
        # seq makes the page fetch the panel again. Read before the test, so the test
        # shown is at least that new.
        campaign.refresh_from_db(fields=["group_momentum", "threat", "threat_visible", "last_seq"])
        record.refresh_from_db()
    if spends is None:
        spends = services_d20.catalogue(campaign)
    ledger = services_d20.ledger_of(record) if record.ledger else None
    holder = services_d20.holder_of(record) if record.ledger else record.character
    return panel_context(
        campaign,
        membership,
        record,
        ledger=ledger,
        holder=holder,
        spends=spends,
        forms=panel_forms(campaign, record, spends),
        error=error,
        notice=notice,
    )


# --- the composer ------------------------------------------------------------------------


def _composed(request, pk: int, data):
    """The player's table, its spend catalogue and the composer bound to `data`."""
    campaign, membership = campaign_for(request, pk, role="player")
    spends = services_d20.catalogue(campaign)
    form = D20RollForm(data, campaign=campaign, membership=membership, spends=spends)
    return campaign, membership, spends, form


@login_required
@require_GET
def d20_composer(request, pk: int):
    """The composer redrawn for another character (its attributes, skills, focuses)."""
    campaign, membership, spends, form = _composed(request, pk, request.GET)
    # Redrawn, not submitted: keep the choice of character, start the rest afresh.
    fresh = D20RollForm(
        campaign=campaign, membership=membership, spends=spends, character=form.chosen
    )
    context = composer_of(campaign, membership, form=fresh)
    return respond(request, membership, PLAY, {"d20": context})


@login_required
@require_GET
def d20_odds(request, pk: int):
    """T-05: the preview, redrawn on every change in the composer."""
    campaign, _, _, form = _composed(request, pk, request.GET)
    context = {"odds": odds_of(campaign, form)}
    return HttpResponse(render_to_string(ODDS, context, request=request))


@require_POST
@login_required
def d20_roll(request, pk: int):
    """Roll the composed test (T-R1 … MO-08, CT-01, TB-03)."""
    # The form is checked against the rows read here; the service reads the roller,
    # the sheet and the pools again under the campaign lock and rolls from those, so
    # nothing read before the lock is trusted after it. The answer is drawn from the
    # rows the command committed.
    campaign, membership = player_at(request, pk)
    if "call" in request.POST:  # a call's composer posts to the call (calls.answer_d20)
        return HttpResponseBadRequest(CALL_ELSEWHERE)
    spends = services_d20.catalogue(campaign)
    form = D20RollForm(request.POST, campaign=campaign, membership=membership, spends=spends)
    if not form.is_valid():  # its words keep their clause IDs (a ServiceError's drop them)
        return _play_refused(request, campaign, membership, form, form_errors(form))
    try:
        record = services_d20.roll_d20_test(
            campaign.pk,
            request.user,
            form.cleaned_data["character"],
            services_d20.D20TestRequest(**form.service_kwargs()),
        )
    except ServiceError as error:
        return _play_refused(request, campaign, membership, form, str(error))
    if not request.htmx:
        return back_to_table(request, campaign, notice=record.event.payload["summary"])
    campaign = record.campaign  # locked, written and committed by this command
    panel = panel_of(campaign, membership, record, spends=spends, fresh=True)
    context = composer_of(campaign, membership, form=form.after_roll(record, spends), panel=panel)
    return respond(request, membership, PLAY, {"d20": context}, [record.event])


def _play_refused(request, campaign, membership, form, error: str):
    """The composer as sent, with why it was refused; nothing changed."""
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    form = form.resent(campaign, services_d20.catalogue(campaign))
    context = composer_of(campaign, membership, form=form, error=error)
    return respond(request, membership, PLAY, {"d20": context})


# --- the spend panel ---------------------------------------------------------------------


@login_required
@require_GET
def d20_panel(request, pk: int, tid: int):
    """One test's dice, Momentum and spends; controls only for those who may use them."""
    campaign, membership = campaign_for(request, pk)
    record = _record_for(campaign, membership, tid)
    context = panel_of(campaign, membership, record)
    return respond(request, membership, PANEL, {"panel": context})


def _panel_action(request, pk: int, tid: int, call, *, role="player"):
    """Run `call(campaign, record)` -> event and answer with the refreshed spend panel."""
    campaign, membership = campaign_for(request, pk, role=role)
    record = _record_for(campaign, membership, tid)

    def answer(events=(), error="", notice=""):
        if not request.htmx:
            return back_to_table(request, campaign, notice=notice, error=error)
        context = panel_of(campaign, membership, record, error=error, notice=notice)
        return respond(request, membership, PANEL, {"panel": context}, events)

    return command(
        answer, lambda: call(campaign, record), notice=lambda e: e.payload.get("summary", "")
    )


def _on_test(request, pk: int, tid: int, service, *args, role="player"):
    """_panel_action for `service(campaign id, user, test id, *args)`."""

    def call(campaign, record):
        return service(campaign.pk, request.user, record.pk, *args)

    return _panel_action(request, pk, tid, call, role=role)


@login_required
@require_POST
def d20_reroll(request, pk: int, tid: int):
    """T-04: spend Determination to reroll chosen dice."""

    def call(campaign, record):
        form = RerollForm(request.POST, faces=record.result.get("faces", []))
        if not form.is_valid():
            raise ServiceError("Choose which of your dice to reroll.")
        return services_d20.determination_reroll(
            campaign.pk, request.user, record.pk, form.cleaned_data["dice"]
        )

    return _panel_action(request, pk, tid, call)


@login_required
@require_POST
def d20_spend(request, pk: int, tid: int):
    """MO-02 … MO-14: one use of a spend."""

    def call(campaign, record):
        form = SpendForm(
            request.POST,
            spends=services_d20.catalogue(campaign),
            group_momentum=campaign.group_momentum,
            line=campaign.line,
        )
        if not form.is_valid():
            raise ServiceError(form_errors(form))
        data = form.cleaned_data
        return services_d20.spend_momentum(
            campaign.pk,
            request.user,
            record.pk,
            data["kind"],
            from_pool=data.get("from_pool"),
            to_threat=data.get("to_threat") or 0,
            note=data.get("note") or "",
            expected_momentum=data.get("expected_momentum"),
        )

    return _panel_action(request, pk, tid, call)


@login_required
@require_POST
def d20_refund(request, pk: int, tid: int, index: int):
    """MO-11: the GM answered “you don't know”."""
    return _on_test(request, pk, tid, services_d20.refund_dont_know, index, role="gm")


@login_required
@require_POST
def d20_veto(request, pk: int, tid: int, index: int):
    """MO-12: the GM vetoes a spend."""
    form = VetoForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _on_test(request, pk, tid, services_d20.veto_spend, index, reason, role="gm")


@login_required
@require_POST
def d20_permit(request, pk: int, tid: int):
    """T-04: the GM allows Determination on this test."""
    return _on_test(request, pk, tid, services_gm.permit_determination, role="gm")


@login_required
@require_POST
def d20_resolve(request, pk: int, tid: int):
    """“Done”: save what is left, report what was lost (MO-04, MO-05, CT-R1)."""
    return _on_test(request, pk, tid, services_d20.resolve_test)

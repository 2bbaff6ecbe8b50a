"""2d20 play at the table: the composer, the odds preview and the spend panel.

Each view fetches through tables/views/access.py (the fetch is the permission
check: PermissionDenied becomes a 403), validates a form and calls one
service. The answer is a fragment (the composer or the spend panel: composer_of
and panel_of read what they show, tables/presenters/d20.py words it; a roll's, only
the composer's parts it changed, out of band) followed by the event's live
fragments, so the actor's page updates even without a socket; other browsers get the event by
live push. A refusal a person can
cause comes back as a clear message inside the fragment and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseBadRequest, QueryDict
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

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
from tables.policy.board_traits import standing_for
from tables.policy.game_lines import catalogue
from tables.presenters.d20 import odds_view, panel_context, play_context, visible_tests
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.core import ServiceError
from tables.views.access import campaign_for, character_for, posted_id
from tables.views.answers import back_to_table, command, form_errors, respond
from tables.words.said import worded

PLAY = "tables/partials/composer_d20.html"
# A roll's answer: the composer's parts it changed and the spend panel, all out of band.
ROLLED = "tables/partials/composer_d20_rolled.html"
# What a link on the character sheet names, kept when the composer is redrawn.
SHEET_CHOICES = ("attribute", "skill", "focus")
PANEL = "tables/partials/spend_panel.html"
ODDS = "tables/partials/d20_odds.html"
# An old page may still post a call's answer here: refused, so no test lands uncalled.
CALL_ELSEWHERE = _("A called test is answered at its own address: reload the page and roll again.")


def _record_for(campaign: Campaign, membership: Membership, tid: int) -> D20Test:
    record = visible_tests(campaign, membership).filter(pk=tid).first()
    if record is None:
        raise Http404(gettext("No such test."))
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
        spends = catalogue(campaign) if spends is None else spends
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
        return {"error": gettext("Choose a character first.")}
    if form.is_bound and not form.is_valid():
        return {"error": form_errors(form)}
    params = form.service_kwargs() if form.is_bound else form.initial_params()
    contest = None
    if params.get("contest_id"):
        contest = character.contests_active.filter(pk=params["contest_id"]).first()
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
        traits=params.get("traits", ()),  # MO-09b
        secret=bool(params.get("secret")),
    )
    found = services_d20.odds_or_refusal(
        campaign, character, request, contest=contest, sees_hidden=form.membership.is_gm
    )
    if isinstance(found, str):
        return {"error": found}
    return odds_view(*found, params, character, contest, campaign.line)


def panel_of(
    campaign: Campaign,
    membership: Membership,
    record: D20Test,
    *,
    spends: dict | None = None,
    fresh: bool = False,
    error: str = "",
    notice: str = "",
    board_traits: list | None = None,
) -> dict:
    """spend_panel.html's `panel` for one test and one viewer. `fresh`: the caller
    holds the campaign and the test as its own command committed them (not read again);
    `spends`: the catalogue, `board_traits` the viewer's standing traits, if read."""
    if not fresh:
        # last_seq is the panel's data-seq: a live push about this test with a later
        # seq makes the page fetch the panel again. Read before the test, so the test
        # shown is at least that new.
        campaign.refresh_from_db(fields=["group_momentum", "threat", "threat_visible", "last_seq"])
        record.refresh_from_db()
    if spends is None:
        spends = catalogue(campaign)
    ledger = services_d20.ledger_of(record) if record.ledger else None
    holder = services_d20.holder_of(record) if record.ledger else record.character
    panel = panel_context(
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
    # MO-09: a Create Trait spend may change or remove one of the board's traits.
    if board_traits is None:
        board_traits = standing_for(campaign, membership.is_gm)
    panel["board_traits"] = board_traits
    return panel


# --- the composer ------------------------------------------------------------------------


def _composed(request, pk: int, data):
    """The player's table, its spend catalogue and the composer bound to `data`."""
    campaign, membership = campaign_for(request, pk, role="player")
    spends = catalogue(campaign)
    form = D20RollForm(data, campaign=campaign, membership=membership, spends=spends)
    return campaign, membership, spends, form


@login_required
@require_GET
def d20_composer(request, pk: int):
    """The composer redrawn for another character (its attributes, skills, focuses)."""
    wanted = request.GET.get("character", "")
    if wanted.isascii() and wanted.isdigit():  # another's character: 403/404, not one's own
        character_for(request, pk, int(wanted))
    campaign, membership, spends, form = _composed(request, pk, request.GET)
    # Redrawn, not submitted: keep the choice of character and of what the sheet's links
    # name (sheet_rolls.html), start the rest afresh.
    chosen = {k: request.GET[k] for k in SHEET_CHOICES if request.GET.get(k)}
    fresh = D20RollForm(
        campaign=campaign,
        membership=membership,
        spends=spends,
        character=form.chosen,
        initial=chosen,
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
    """Roll the composed test (T-R1 … MO-08, CT-01, TB-03).

    One read of what the test needs, under the campaign lock (services.d20.load_test):
    the composer is checked against those rows and the service rolls from the same
    rows, in the same transaction, so nothing read before the lock decides anything.
    Check and roll first (_try_test, from the request's parts), then answer
    (_test_answer). The answer reads what it shows first (the test's ledger, the next
    test's odds), then draws its forms, then words them: view -> form -> service ->
    presenter. It is the spend panel and the composer's parts the roll changed, out of
    band, not the whole composer: what to roll stays in the page as chosen.
    """
    if "call" in request.POST:  # a call's composer posts to the call (calls.answer_d20)
        return HttpResponseBadRequest(CALL_ELSEWHERE)
    tried = _try_test(pk, request.user, request.POST, posted_id(request))
    return _test_answer(request, pk, tried)


@dataclass(frozen=True)
class _Tried:
    """What a test came to: `record`, or why not (`refusal`); `form` None when refused
    at the lock (a retried submission). `following`: the next test's parameters."""

    rows: services_d20.D20Rows | None = None
    form: D20RollForm | None = None
    record: D20Test | None = None
    following: dict | None = None
    refusal: str = ""


def _try_test(pk: int, user, posted: QueryDict, character_id: int | None) -> _Tried:
    """The composer checked against the rows read under the lock and, if valid, the test
    rolled from those same rows."""
    rows = form = None
    try:
        # Held until the test commits: a pool move or a role change committing meanwhile
        # waits at the lock, so the composer and the roll decide from the same rows.
        with transaction.atomic():
            rows = services_d20.load_test(pk, user, character_id)
            form = D20RollForm(
                posted,
                campaign=rows.campaign,
                membership=rows.membership,
                spends=rows.spends,
                character=rows.character,
                everyone=rows.everyone,
                contests=rows.contests,
            )
            if not form.is_valid():  # its words keep their clause IDs (a ServiceError's drop them)
                return _Tried(rows, form, refusal=form_errors(form))
            following = form.params_after_roll()
            asked = services_d20.D20TestRequest(**form.service_kwargs())
            roller = form.cleaned_data["character"]
            record = services_d20.roll_d20_test(pk, user, roller, asked, loaded=rows)
    except Campaign.DoesNotExist:
        raise Http404(gettext("No such campaign.")) from None
    except ServiceError as error:
        return _Tried(rows, form, refusal=str(error))
    return _Tried(rows, form, record, following)


def _test_answer(request, pk: int, tried: _Tried) -> HttpResponse:
    rows, form, record = tried.rows, tried.form, tried.record
    if form is None:  # refused at the lock (a retried submission): read what to draw
        campaign, membership, _spends, form = _composed(request, pk, request.POST)
        return _play_refused(request, campaign, membership, form, tried.refusal)
    if record is None:
        return _play_refused(request, rows.campaign, rows.membership, form, tried.refusal)
    if not request.htmx:
        return back_to_table(request, rows.campaign, notice=worded(record.event.payload))
    return _tested(request, rows, form, record, tried.following)


def _tested(request, rows, form, record, following: dict) -> HttpResponse:
    """The test's answer: its ledger panel, the composer's parts the roll changed (drawn
    from the composer reset: what it bought or spent cleared, the contests left, the
    pools shown, the next test's odds; composer_d20_rolled.html) and the event's
    fragments; read first, then the forms drawn, then worded. What to roll (kept by
    the reset, KEPT_AFTER_ROLL) is not drawn: the page keeps it as the person chose."""
    campaign = record.campaign
    membership = rows.membership
    spends = rows.spends
    ledger = services_d20.ledger_of(record)
    holder = services_d20.holder_of(record)
    contest = next((c for c in rows.contests if c.pk == following["contest_id"]), None)
    odds = _next_odds(record, following, contest, membership)
    reset = form.after_roll(record, spends)
    forms = panel_forms(campaign, record, spends)
    panel = panel_context(
        campaign, membership, record, ledger=ledger, holder=holder, spends=spends, forms=forms
    )
    panel["board_traits"] = form.board_traits  # MO-09: a Create Trait may change one
    context = play_context(campaign, membership, form=reset, odds=odds, panel=panel)
    response = respond(request, membership, ROLLED, {"d20": context}, [record.event])
    response["HX-Reswap"] = "none"  # every part is out of band; a protocol word
    return response


def _next_odds(record, following: dict, contest, membership) -> dict:
    """The odds of the composer reset after a roll (T-05), as this member may see them."""
    campaign = record.campaign
    character = record.character
    found = services_d20.odds_or_refusal(
        campaign,
        character,
        services_d20.D20TestRequest(**following),
        contest=contest,
        sees_hidden=membership.is_gm,
    )
    if isinstance(found, str):
        return {"error": found}
    return odds_view(*found, following, character, contest, campaign.line)


def _play_refused(request, campaign, membership, form, error: str):
    """The composer as sent, with why it was refused; nothing changed."""
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    form = form.resent(campaign, catalogue(campaign))
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

    return command(answer, lambda: call(campaign, record), notice=lambda e: worded(e.payload))


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
            raise ServiceError(gettext("Choose which of your dice to reroll."))
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
            spends=catalogue(campaign),
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
            trait_id=data.get("trait"),
            remove_trait=bool(data.get("remove_trait")),
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

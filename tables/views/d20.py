"""2d20 play at the table: the composer, the odds preview and the spend panel.

Each view fetches through tables/access.py (the fetch is the permission
check: PermissionDenied becomes a 403), validates a form and calls one
service. The answer is a fragment (the composer or the spend panel) followed
by the event's live fragments, so the actor's page updates even without a
socket; other browsers get the event by live push. A refusal a person can
cause comes back as a clear message inside the fragment and changes nothing.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from rules.errors import RulesError
from tables.forms.d20 import D20RollForm, RerollForm, SpendForm, VetoForm
from tables.models import Campaign, Character, D20Test, Membership
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.access import can_control
from tables.services.core import ServiceError
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, command, form_errors, respond

PLAY = "tables/partials/composer_d20.html"
PANEL = "tables/partials/spend_panel.html"
ODDS = "tables/partials/d20_odds.html"
OPEN_TESTS_SHOWN = 6


# --- context builders (also used by the d20_table template tags) ------------------------


def _visible_tests(campaign: Campaign, membership: Membership):
    tests = D20Test.objects.filter(campaign=campaign).select_related("character", "contest")
    if not membership.is_gm:
        tests = tests.exclude(secret=True, revealed=False)
    return tests


def play_context(
    campaign: Campaign,
    membership: Membership,
    *,
    form: D20RollForm | None = None,
    panel: dict | None = None,
    error: str = "",
    notice: str = "",
) -> dict:
    """What composer_d20.html shows: the composer, the odds, open tests and a spend panel."""
    spends = services_d20.catalogue(campaign)
    if form is None:
        form = D20RollForm(campaign=campaign, membership=membership, spends=spends)
    odds = None
    if form.chosen is not None and membership.role != Membership.Role.OBSERVER:
        odds = odds_context(campaign, form)
    characters = Character.objects.filter(campaign=campaign, owner_id=membership.user_id)
    owned = set() if membership.is_gm else set(characters.values_list("pk", flat=True))
    open_tests = [
        t
        for t in _visible_tests(campaign, membership).exclude(state=D20Test.State.RESOLVED)[
            : OPEN_TESTS_SHOWN * 3
        ]
        if _can_act(membership, t, owned)
    ][:OPEN_TESTS_SHOWN]
    return {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "can_play": membership.role != Membership.Role.OBSERVER and campaign_plays_d20(campaign),
        "form": form,
        "odds": odds,
        "open_tests": open_tests,
        "panel": panel,
        "error": error,
        "notice": notice,
    }


def campaign_plays_d20(campaign: Campaign) -> bool:
    return not campaign.uses_d6 and campaign.uses_group_economy


def _can_act(membership: Membership, record: D20Test, owned: set[int]) -> bool:
    """May this member roll on, spend or close the test? `owned`: their characters' ids."""
    holder_id = (record.ledger or {}).get("holder_character_id", record.character_id)
    if membership.is_gm:
        return True
    return membership.role == Membership.Role.PLAYER and (
        record.character_id in owned or holder_id in owned
    )


def odds_context(campaign: Campaign, form: D20RollForm) -> dict:
    """T-05: exact odds of what the composer describes, or what keeps it from rolling."""
    data = form.data if form.is_bound else None
    character = form.chosen
    if character is None:
        return {"error": "Choose a character first."}
    if data is None:
        params = _initial_params(form)
    else:
        if not form.is_valid():
            return {"error": form_errors(form)}
        params = form.service_kwargs()
    contest = None
    if params.get("contest_id"):
        contest = character.contests_active.filter(pk=params["contest_id"]).first()
    try:
        spec, odds = services_d20.preview_odds(
            campaign,
            character,
            attribute=params["attribute"],
            skill=params["skill"],
            focus=params["focus"],
            difficulty=params["difficulty"],
            factors=params["factors"],
            bought_dice=params["bought_dice"],
            assistants=params["assistants"],
            bonus_momentum=params["bonus_momentum"],
            contest=contest,
        )
    except (ServiceError, RulesError) as error:
        return {"error": str(error)}
    cost = spec["bought_dice"] * (spec["bought_dice"] + 1) // 2
    from_momentum = min(params["buy_from_momentum"], cost)
    return {
        "spec": spec,
        "pass_percent": f"{float(odds.pass_chance) * 100:.1f}",
        "expected_momentum": f"{float(odds.expected_momentum):.2f}",
        "complication_percent": f"{float(odds.complication_chance) * 100:.1f}",
        "cost": cost,
        "from_momentum": from_momentum,
        "to_threat": cost - from_momentum,
        "npc": character.is_npc,
        "contest": contest,
    }


def _initial_params(form: D20RollForm) -> dict:
    def first(name):
        choices = form.fields[name].choices
        known = [value for value, _ in choices]
        if form.initial.get(name) in known:
            return form.initial[name]  # kept from the last roll
        return choices[0][0] if choices else ""

    difficulty = form.initial.get("difficulty")
    return {
        "attribute": first("attribute"),
        "skill": first("skill"),
        "focus": first("focus"),
        "difficulty": 1 if difficulty is None else difficulty,
        "factors": [],
        "bought_dice": 0,
        "buy_from_momentum": 0,
        "assistants": [],
        "bonus_momentum": 0,
        "contest_id": form.initial.get("contest"),
    }


def panel_context(
    campaign: Campaign,
    membership: Membership,
    record: D20Test,
    *,
    error: str = "",
    notice: str = "",
    spend_form: SpendForm | None = None,
) -> dict:
    """What spend_panel.html shows for one test and one viewer."""
    # last_seq is the panel's data-seq: a live push about this test with a later seq
    # makes the page fetch the panel again. Read before the test, so the test shown
    # is at least that new.
    campaign.refresh_from_db(fields=["group_momentum", "threat", "threat_visible", "last_seq"])
    record.refresh_from_db()
    spends = services_d20.catalogue(campaign)
    ledger = services_d20.ledger_of(record) if record.ledger else None
    holder = services_d20.holder_of(record) if record.ledger else record.character
    can_spend = (
        ledger is not None
        and record.role != D20Test.Role.OPPOSER
        and record.is_open
        and ledger.passed
        and can_control(membership, holder)
    )
    kinds = []
    if ledger is not None:
        for key, kind in spends.items():
            kinds.append(
                {
                    "key": key,
                    "kind": kind,
                    "usable": ledger.can_use(kind),
                    "used": ledger.used(kind),
                }
            )
    if spend_form is None:
        spend_form = SpendForm(spends=spends, group_momentum=campaign.group_momentum)
    own_dice = record.result.get("dice", [])
    can_reroll = (
        record.state == D20Test.State.ROLLED
        and record.role != D20Test.Role.OPPOSER
        and can_control(membership, record.character)
    )
    return {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "test": record,
        "spec": record.spec,
        "result": record.result,
        "ledger": record.ledger,
        "holder": holder,
        "spends_made": (record.ledger or {}).get("spends", []),
        "kinds": kinds,
        "can_spend": can_spend,
        "can_close": record.is_open
        and record.role != D20Test.Role.OPPOSER
        and can_control(membership, holder),
        "can_reroll": can_reroll,
        "determination": record.character.determination,
        "reroll_form": RerollForm(faces=[d["face"] for d in own_dice]),
        "spend_form": spend_form,
        "show_threat": membership.is_gm or campaign.threat_visible,
        "error": error,
        "notice": notice,
    }


def _record_for(campaign: Campaign, membership: Membership, tid: int) -> D20Test:
    record = _visible_tests(campaign, membership).filter(pk=tid).first()
    if record is None:
        raise Http404("No such test.")
    return record


# --- the composer ------------------------------------------------------------------------


@login_required
@require_GET
def d20_composer(request, pk: int):
    """The composer redrawn for another character (its attributes, skills, focuses)."""
    campaign, membership = campaign_for(request, pk, role="player")
    spends = services_d20.catalogue(campaign)
    form = D20RollForm(request.GET, campaign=campaign, membership=membership, spends=spends)
    # Redrawn, not submitted: keep the choice of character, start the rest afresh.
    fresh = _form_for(campaign, membership, spends, form.chosen)
    context = play_context(campaign, membership, form=fresh)
    return respond(request, membership, PLAY, {"d20": context})


def _form_for(campaign, membership, spends, character, initial=None) -> D20RollForm:
    """An unbound composer showing `character` (and `initial` choices)."""
    return D20RollForm(
        campaign=campaign,
        membership=membership,
        spends=spends,
        character=character,
        initial=initial,
    )


# What the composer keeps after a roll: the same test can be tried again or helped.
# Bought dice, assistants, bonus Momentum, factors and secrecy start afresh, so
# nothing is bought or spent again unasked.
KEPT_AFTER_ROLL = ("attribute", "skill", "focus", "difficulty")


@login_required
@require_GET
def d20_odds(request, pk: int):
    """T-05: the preview, redrawn on every change in the composer."""
    campaign, membership = campaign_for(request, pk, role="player")
    spends = services_d20.catalogue(campaign)
    form = D20RollForm(request.GET, campaign=campaign, membership=membership, spends=spends)
    context = {"odds": odds_context(campaign, form)}
    return HttpResponse(render_to_string(ODDS, context, request=request))


@login_required
@require_POST
def d20_roll(request, pk: int):
    """Roll the composed test (T-R1 … MO-08, CT-01, TB-03)."""
    campaign, membership = campaign_for(request, pk, role="player")
    spends = services_d20.catalogue(campaign)
    form = D20RollForm(request.POST, campaign=campaign, membership=membership, spends=spends)
    if not form.is_valid():
        return _play_refused(request, campaign, membership, form, form_errors(form))
    try:
        record = services_d20.roll_d20_test(
            campaign.pk, request.user, form.cleaned_data["character"], **form.service_kwargs()
        )
    except ServiceError as error:
        return _play_refused(request, campaign, membership, form, str(error))
    if not request.htmx:
        return back_to_table(request, campaign, notice=record.event.payload["summary"])
    campaign.refresh_from_db()
    kept = {name: form.cleaned_data.get(name) for name in KEPT_AFTER_ROLL}
    fresh = _form_for(campaign, membership, spends, record.character, initial=kept)
    panel = panel_context(campaign, membership, record)
    context = play_context(campaign, membership, form=fresh, panel=panel)
    return respond(request, membership, PLAY, {"d20": context}, [record.event])


def _play_refused(request, campaign, membership, form, error: str):
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    # The group pool shown (and checked next time) is the one there is now.
    data = form.data.copy()
    data["expected_momentum"] = campaign.group_momentum
    form = D20RollForm(
        data,
        campaign=campaign,
        membership=membership,
        spends=services_d20.catalogue(campaign),
    )
    form.is_valid()
    context = play_context(campaign, membership, form=form, error=error)
    return respond(request, membership, PLAY, {"d20": context})


# --- the spend panel ---------------------------------------------------------------------


@login_required
@require_GET
def d20_panel(request, pk: int, tid: int):
    """One test's dice, Momentum and spends; controls only for those who may use them."""
    campaign, membership = campaign_for(request, pk)
    record = _record_for(campaign, membership, tid)
    context = panel_context(campaign, membership, record)
    return respond(request, membership, PANEL, {"panel": context})


def _panel_action(request, pk: int, tid: int, call, *, role="player"):
    """Run `call(campaign, record)` -> event and answer with the refreshed spend panel."""
    campaign, membership = campaign_for(request, pk, role=role)
    record = _record_for(campaign, membership, tid)

    def answer(events=(), error="", notice=""):
        if not request.htmx:
            return back_to_table(request, campaign, notice=notice, error=error)
        context = panel_context(campaign, membership, record, error=error, notice=notice)
        return respond(request, membership, PANEL, {"panel": context}, events)

    return command(
        answer, lambda: call(campaign, record), notice=lambda e: e.payload.get("summary", "")
    )


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

    def call(campaign, record):
        return services_d20.refund_dont_know(campaign.pk, request.user, record.pk, index)

    return _panel_action(request, pk, tid, call, role="gm")


@login_required
@require_POST
def d20_veto(request, pk: int, tid: int, index: int):
    """MO-12: the GM vetoes a spend."""

    def call(campaign, record):
        form = VetoForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        return services_d20.veto_spend(campaign.pk, request.user, record.pk, index, reason)

    return _panel_action(request, pk, tid, call, role="gm")


@login_required
@require_POST
def d20_permit(request, pk: int, tid: int):
    """T-04: the GM allows Determination on this test."""

    def call(campaign, record):
        return services_gm.permit_determination(campaign.pk, request.user, record.pk)

    return _panel_action(request, pk, tid, call, role="gm")


@login_required
@require_POST
def d20_resolve(request, pk: int, tid: int):
    """“Done”: save what is left, report what was lost (MO-04, MO-05, CT-R1)."""

    def call(campaign, record):
        return services_d20.resolve_test(campaign.pk, request.user, record.pk)

    return _panel_action(request, pk, tid, call)

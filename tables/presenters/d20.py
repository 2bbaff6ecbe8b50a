"""What the 2d20 composer and a test's spend panel show, for one viewer.

Read-only: nothing here changes state. The views (tables/views/d20.py) and the
`d20_play_context` template tag both build the composer here, so the table
page's first draw and a view's answer cannot drift.
"""

from __future__ import annotations

from rules.errors import RulesError
from tables.clause_ids import without_ids
from tables.errors import ServiceError
from tables.forms.d20 import D20RollForm, SpendForm, composer_form, panel_forms
from tables.models import Campaign, Character, D20Test, Membership
from tables.policy.access import can_control, controllable, has_role, seen_by
from tables.presenters.odds_chart import d20_chart, fraction
from tables.services import d20 as services_d20

OPEN_TESTS_SHOWN = 6


def campaign_plays_d20(campaign: Campaign) -> bool:
    return not campaign.uses_d6 and campaign.uses_group_economy


def visible_tests(campaign: Campaign, membership: Membership):
    """The campaign's tests this member may see (TB-03: hidden ones are GM-only)."""
    tests = D20Test.objects.filter(campaign=campaign).select_related("character", "contest")
    return seen_by(membership, tests)


def play_context(
    campaign: Campaign,
    membership: Membership,
    *,
    form: D20RollForm | None = None,
    panel: dict | None = None,
    error: str = "",
    notice: str = "",
    spends: dict | None = None,
) -> dict:
    """What composer_d20.html shows: the composer, the odds, open tests and a spend panel.
    `spends`: the catalogue, if the caller read it for this request."""
    if spends is None:
        spends = services_d20.catalogue(campaign)
    if form is None:
        form = composer_form(campaign, membership, spends)
    plays = has_role(membership, "player")
    odds = odds_context(campaign, form) if form.chosen is not None and plays else None
    return {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "can_play": plays and campaign_plays_d20(campaign),
        "form": form,
        "odds": odds,
        "open_tests": open_tests(campaign, membership, form.characters),
        "panel": panel,
        "error": error,
        "notice": notice,
    }


def open_tests(
    campaign: Campaign, membership: Membership, characters: list[Character] | None = None
) -> list[D20Test]:
    """Open tests the member may roll on, spend or close: those of a character they
    control, or whose Momentum one of theirs holds (CT-04). `characters`: those the
    member controls, if the caller has them."""
    if characters is None:
        characters = controllable(campaign, membership)
    mine = {c.pk for c in characters}
    unresolved = visible_tests(campaign, membership).exclude(state=D20Test.State.RESOLVED)
    # Each line is drawn from the test's result and ledger (d20_table.test_line): its
    # spec, the largest JSON of the row, and its contest's row are not read.
    unresolved = unresolved.defer("spec").select_related(None).select_related("character")
    return [
        t
        for t in unresolved[: OPEN_TESTS_SHOWN * 3]
        if t.character_id in mine
        or (t.ledger or {}).get("holder_character_id", t.character_id) in mine
    ][:OPEN_TESTS_SHOWN]


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
            return {"error": " ".join(str(e) for errs in form.errors.values() for e in errs)}
        params = form.service_kwargs()
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
    cost = spec["bought_dice"] * (spec["bought_dice"] + 1) // 2
    from_momentum = min(params["buy_from_momentum"], cost)
    return {
        "spec": spec,
        "pass_percent": f"{float(odds.pass_chance) * 100:.1f}",
        "expected_momentum": f"{float(odds.expected_momentum):.2f}",
        "complication_percent": f"{float(odds.complication_chance) * 100:.1f}",
        "chart": d20_chart(odds.pass_chance, odds.momentum),
        "exact": {
            "pass": fraction(odds.pass_chance),
            "expected_momentum": fraction(odds.expected_momentum),
            "complication": fraction(odds.complication_chance),
        },
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
    spends: dict | None = None,
    fresh: bool = False,
) -> dict:
    """What spend_panel.html shows for one test and one viewer. `fresh`: the caller
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
        "kinds": _spend_kinds(ledger, spends),
        **_panel_rights(membership, record, ledger, holder),
        "determination": record.character.determination,
        **panel_forms(campaign, record, spends, spend_form),
        "show_threat": membership.is_gm or campaign.threat_visible,
        "error": error,
        "notice": notice,
    }


def _spend_kinds(ledger, spends: dict) -> list[dict]:
    """Each spend of the catalogue, with whether the test's ledger allows another use."""
    if ledger is None:
        return []
    return [
        {"key": key, "kind": kind, "usable": ledger.can_use(kind), "used": ledger.used(kind)}
        for key, kind in spends.items()
    ]


def _panel_rights(membership: Membership, record: D20Test, ledger, holder) -> dict:
    """What this viewer may do with the test: spend its Momentum (whoever holds it,
    CT-04), close it, reroll their own dice (T-04)."""
    # The opposer's roll only sets the Difficulty: nothing is spent, closed or rerolled on it.
    acts = record.role != D20Test.Role.OPPOSER
    holds = can_control(membership, holder)
    return {
        "can_spend": ledger is not None and acts and record.is_open and ledger.passed and holds,
        "can_close": record.is_open and acts and holds,
        "can_reroll": record.state == D20Test.State.ROLLED
        and acts
        and can_control(membership, record.character),
    }

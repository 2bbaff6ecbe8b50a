"""What the 2d20 composer and a test's spend panel show, for one viewer.

Read-only: nothing here changes state, reads a service or builds a form. The
views (tables/views/d20.py) hand over the form, the odds, the spend catalogue and
the test's ledger; the table page's first draw goes through the same view
function (views/d20.py composer_of), so it and a view's answer cannot drift.
"""

from __future__ import annotations

from rules import game_lines
from tables.models import Campaign, Character, Contest, D20Test, Membership
from tables.policy.access import can_control, controllable, has_role, seen_by
from tables.presenters.odds_chart import d20_chart, fraction
from tables.words import wording

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
    form=None,
    odds: dict | None = None,
    panel: dict | None = None,
    error: str = "",
    notice: str = "",
) -> dict:
    """What composer_d20.html shows: the composer `form` (a D20RollForm), its `odds`,
    open tests and a spend `panel`."""
    plays = has_role(membership, "player")
    return {
        "campaign": campaign,
        "membership": membership,
        "is_gm": membership.is_gm,
        "can_play": plays and campaign_plays_d20(campaign),
        "form": form,
        "odds": odds,
        "open_tests": open_tests(campaign, membership, form.characters if form else None),
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


def odds_view(
    spec: dict,
    odds,
    params: dict,
    character: Character,
    contest: Contest | None,
    line: game_lines.GameLine = game_lines.LINES[game_lines.DEFAULT],
):
    """T-05: the exact odds (a rules SkillOdds) of the test `spec` describes, in figures
    and a chart; `params` are the composer's values (D20RollForm.service_kwargs)."""
    assistants_paid = line.assistance_cost(len(spec.get("assistants") or ()))  # GL-06
    cost = spec["bought_dice"] * (spec["bought_dice"] + 1) // 2 + assistants_paid
    from_momentum = min(params["buy_from_momentum"], cost)
    return {
        "spec": spec,
        "pass_percent": wording.percent(odds.pass_chance),
        "expected_momentum": wording.expected(odds.expected_momentum),
        "complication_percent": wording.percent(odds.complication_chance),
        "chart": d20_chart(odds.pass_chance, odds.momentum),
        "exact": {
            "pass": fraction(odds.pass_chance),
            "expected_momentum": fraction(odds.expected_momentum),
            "complication": fraction(odds.complication_chance),
        },
        "cost": cost,
        "assistants_paid": assistants_paid,
        "from_momentum": from_momentum,
        "to_threat": cost - from_momentum,
        "npc": character.is_npc,
        "contest": contest,
        "line": line,  # GL-01: the pools' names
    }


def panel_context(
    campaign: Campaign,
    membership: Membership,
    record: D20Test,
    *,
    ledger,
    holder: Character,
    spends: dict,
    forms: dict,
    error: str = "",
    notice: str = "",
) -> dict:
    """What spend_panel.html shows for one test and one viewer: `ledger` is the test's
    MomentumSpendLedger (None before any), `holder` who holds its Momentum (CT-04),
    `spends` the catalogue, `forms` the panel's forms (forms.d20.panel_forms)."""
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
        # GL-02: lines whose personal pool buys nothing after the roll offer no reroll.
        "line_rerolls": campaign.line.rerolls_after,
        "reroll_needs_leave": campaign.line.reroll_needs_leave,
        "determination": record.character.determination,
        **forms,
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

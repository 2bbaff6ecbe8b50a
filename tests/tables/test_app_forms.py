"""Every form of the app, built as its view builds it: the post the view sends is
valid, junk in every field is refused (but for forms of checkboxes only), and what a
refused form draws back is escaped."""

from __future__ import annotations

import pytest
from django import forms
from django.http import QueryDict

from tables.forms import calls, d20, discord, game_lines, login, momenta, person, site
from tables.models import Membership, PersonSettings
from tables.presenters.momenta import roll_form
from tables.services import sessions
from tables.services.d20 import catalogue
from tables.views.table import NoteForm
from tables.views.talk import TalkForm
from tests.conftest import PASSWORD
from tests.tables.d20_posts import roll_data

JUNK = "<b>&amp;\"'</b> 0 "
# Longer than any max_length the app sets: a bound CharField refuses it and draws it back.
LONG_JUNK = JUNK * 60


# --- every form of the app, built as its view builds it --------------------------------------


def _user(fx):
    return fx.getfixturevalue("player")


def _membership(fx, campaign, who):
    return Membership.objects.get(campaign=campaign, user=fx.getfixturevalue(who))


def _momenta_composer(who):
    def build(fx, data):
        campaign, hero = fx.getfixturevalue("momenta_campaign"), fx.getfixturevalue("hero")
        fx.getfixturevalue("sidekick")
        return roll_form(campaign, _membership(fx, campaign, who), hero, data)

    return build


def _d20_composer(who):
    def build(fx, data):
        campaign, kara = fx.getfixturevalue("d20_campaign"), fx.getfixturevalue("kara")
        fx.getfixturevalue("marcus")
        kwargs = dict(
            campaign=campaign,
            membership=_membership(fx, campaign, who),
            spends=catalogue(campaign),
        )
        if data is None:  # views/d20._form_for
            return d20.D20RollForm(character=kara, **kwargs)
        return d20.D20RollForm(data, **kwargs)  # views/d20._composed

    return build


def _character_sheet(campaign_fixture, gm):
    def build(fx, data):
        campaign = fx.getfixturevalue(campaign_fixture)
        who = "kara" if campaign_fixture == "d20_campaign" else "hero"
        character = fx.getfixturevalue(who)
        return site.CharacterForm(data, instance=character, campaign=campaign, gm=gm)

    return build


def _sheet_rows(campaign_fixture, index):
    def build(fx, data):
        campaign = fx.getfixturevalue(campaign_fixture)
        who = "kara" if campaign_fixture == "d20_campaign" else "hero"
        return site.sheet_formsets(campaign, fx.getfixturevalue(who), data)[index]

    return build


def _momenta(fx):
    return fx.getfixturevalue("momenta_campaign")


def _d20(fx):
    fx.getfixturevalue("kara")
    fx.getfixturevalue("marcus")
    return fx.getfixturevalue("d20_campaign")


def _hero_id(fx):
    return fx.getfixturevalue("hero").pk


# name -> (build(fx, data), valid data(fx) or None when the view has no valid post to copy)
FORMS = {
    "momenta composer, player": (
        _momenta_composer("player"),
        lambda fx: (
            {"character": _hero_id(fx), "attribute": "WITS", "kind": "action"}
            | {"play": "narrative", "expected_momentum": 0, "expected_resolve": 3}
        ),
    ),
    "momenta composer, gm": (
        _momenta_composer("gm"),
        lambda fx: (
            {"character": _hero_id(fx), "attribute": "GRIT", "kind": "attack"}
            | {"play": "structured", "opposition_pool": 2, "secret": "on", "disadvantage": "on"}
        ),
    ),
    "d20 composer, player": (
        _d20_composer("player"),
        lambda fx: roll_data(fx.getfixturevalue("kara")),
    ),
    "d20 composer, gm": (
        _d20_composer("gm"),
        lambda fx: roll_data(
            fx.getfixturevalue("kara"), difficulty=2, harder=1, bought_dice=1, secret="on"
        ),
    ),
    "call, d20": (
        lambda fx, data: calls.CallForm(data, campaign=_d20(fx)),
        lambda fx: {"character": "", "attribute": "Power", "skill": "Fight", "kind": "action"},
    ),
    "call, momenta": (
        lambda fx, data: calls.CallForm(data, campaign=_momenta(fx)),
        lambda fx: (
            {"character": str(_hero_id(fx)), "attribute": "WITS", "kind": "action"}
            | {"hidden": "on", "note": "a <door>"}
        ),
    ),
    "spend": (
        lambda fx, data: d20.SpendForm(data, spends=catalogue(_d20(fx)), group_momentum=3),
        lambda fx: {"kind": next(iter(catalogue(_d20(fx)))), "to_threat": 0},
    ),
    "reroll": (
        lambda fx, data: d20.RerollForm(data, faces=[3, 17, 20]),
        lambda fx: {"dice": ["0", "2"]},
    ),
    "veto": (lambda fx, data: d20.VetoForm(data), lambda fx: {"reason": "no & <never>"}),
    "threat": (
        lambda fx, data: d20.ThreatForm(data, initial={"expected": 0}),
        lambda fx: {"action": "add", "amount": 1, "reason": "the dune", "expected": 0},
    ),
    "threat visible": (lambda fx, data: d20.ThreatVisibleForm(data), lambda fx: {"visible": "on"}),
    "contest": (
        lambda fx, data: d20.ContestForm(data, campaign=_d20(fx)),
        lambda fx: {
            "opposer": fx.getfixturevalue("marcus").pk,
            "active": fx.getfixturevalue("kara").pk,
            "attribute": "Power",
            "skill": "Fight",
            "bought_dice": 0,
            "hindrances": 0,
        },
    ),
    "custom spend": (
        lambda fx, data: d20.CustomSpendForm(data),
        lambda fx: {"name": "Flank", "cost": 2, "repeatable": "on"},
    ),
    "discord": (
        lambda fx, data: discord.DiscordForm(data, initial={"table": "", "gm": ""}),
        lambda fx: {"table": "", "gm": ""},
    ),
    "challenge roll": (
        lambda fx, data: game_lines.ChallengeRollForm(data),
        lambda fx: {"dice": 2, "note": "cover"},
    ),
    "scene complication": (
        lambda fx, data: game_lines.SceneComplicationForm(data),
        lambda fx: {"range": 2},
    ),
    "login": (
        lambda fx, data: login.ThrottledAuthenticationForm(None, data),
        lambda fx: {"username": _user(fx).username, "password": PASSWORD},
    ),
    "allocation": (
        lambda fx, data: momenta.AllocationForm(data),
        lambda fx: {"allocation": "Extra Success:6"},
    ),
    "assist request": (
        lambda fx, data: momenta.AssistRequestForm(data, campaign=_momenta(fx)),
        lambda fx: {
            "roller": _hero_id(fx),
            "helper": fx.getfixturevalue("sidekick").pk,
            "structured": "on",
        },
    ),
    "assist answer": (
        lambda fx, data: momenta.AssistAnswerForm(data),
        lambda fx: {"answer": "agree"},
    ),
    "trauma": (
        lambda fx, data: momenta.TraumaForm(
            data, characters=[fx.getfixturevalue("hero"), fx.getfixturevalue("sidekick")]
        ),
        lambda fx: {"character": _hero_id(fx), "points": 1, "expected": 0},
    ),
    "roll template": (lambda fx, data: momenta.RollTemplateForm(data), None),
    "custom pattern": (lambda fx, data: momenta.CustomPatternForm(data), None),
    "person settings": (
        lambda fx, data: person.PersonSettingsForm(data, instance=PersonSettings.of(_user(fx))),
        lambda fx: {"animate_dice": "on"},
    ),
    "signup": (
        lambda fx, data: site.SignupForm(data),
        lambda fx: {
            "username": "newcomer",
            "password1": "x-long-Pass-9",
            "password2": "x-long-Pass-9",
        },
    ),
    "campaign": (
        lambda fx, data: site.CampaignForm(data),
        lambda fx: {"name": "Dune & <co>", "preset": "momenta"},
    ),
    "campaign settings": (
        lambda fx, data: site.CampaignSettingsForm(data, instance=_d20(fx)),
        None,
    ),
    "join": (lambda fx, data: site.JoinForm(data), lambda fx: {"role": "observer"}),
    "invite": (lambda fx, data: site.InviteForm(data), lambda fx: {"expires_in": "24", "uses": 3}),
    "character, momenta gm": (_character_sheet("momenta_campaign", gm=True), None),
    "character, momenta player": (_character_sheet("momenta_campaign", gm=False), None),
    "character, d20 gm": (_character_sheet("d20_campaign", gm=True), None),
    "character, d20 player": (_character_sheet("d20_campaign", gm=False), None),
    "sheet rows, momenta attributes": (_sheet_rows("momenta_campaign", 0), None),
    "sheet rows, momenta threads": (_sheet_rows("momenta_campaign", 1), None),
    "sheet rows, d20 skills": (_sheet_rows("d20_campaign", 1), None),
    "sheet rows, d20 traits": (_sheet_rows("d20_campaign", 2), None),
    "sheet rows, d20 assets": (_sheet_rows("d20_campaign", 3), None),
    "scene": (lambda fx, data: site.SceneForm(data), lambda fx: {"title": "Act <1>"}),
    "pool adjust": (
        lambda fx, data: site.PoolAdjustForm(
            data, campaign=_d20(fx), pools=sessions.pools_for(_d20(fx)), auto_id="adjust-%s"
        ),
        lambda fx: {"pool": "threat", "delta": 2, "reason": "ambush"},
    ),
    "note": (lambda fx, data: NoteForm(data), lambda fx: {"text": "'quoted' & <tagged>"}),
    "talk": (lambda fx, data: TalkForm(data), lambda fx: {"mode": "ic", "text": "hello"}),
}


# Forms of checkboxes only: any input is valid.
TAKES_ANY_INPUT = {"threat visible", "person settings"}


def junk_for(form) -> QueryDict:
    """Every field of `form` given the junk: wrong for numbers and choices, too long for
    text; what a bound field draws back is then full of characters to escape."""
    data = QueryDict(mutable=True)
    if isinstance(form, forms.BaseFormSet):  # keep its management form readable
        for bf in form.management_form:
            data[bf.html_name] = str(bf.value())
        rows = [*form.forms, form.empty_form]
        rows[-1].prefix = form.add_prefix(form.total_form_count())  # one more row, junk
        data[form.management_form["TOTAL_FORMS"].html_name] = str(len(rows))
    else:
        rows = [form]
    for row in rows:
        for bf in row:
            if bf.name != "DELETE":  # a row marked deleted is not validated
                data.setlist(bf.html_name, [LONG_JUNK])
    return data


def valid_for(thing, extra: dict) -> QueryDict:
    """What the unbound form shows (its initial values), with `extra` on top."""
    data = QueryDict(mutable=True)
    formset = isinstance(thing, forms.BaseFormSet)
    rows = [*thing.forms, thing.management_form] if formset else [thing]
    for form in rows:
        for bf in form:
            value = bf.value()
            if value in (None, False):
                continue
            if isinstance(value, list | tuple):
                data.setlist(bf.html_name, [str(v) for v in value])
            else:
                data[bf.html_name] = "on" if value is True else str(value)
    for name, value in extra.items():
        data.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return data


def drawn(thing) -> str:
    """The form (or formset) as a template draws it, errors included."""
    if isinstance(thing, forms.BaseFormSet):
        return str(thing.management_form) + "".join(str(form) for form in thing.forms)
    return str(thing)


@pytest.mark.parametrize("name", list(FORMS))
def test_every_app_form_takes_its_post_and_refuses_junk_escaped(name, request, db):
    build, valid = FORMS[name]
    unbound = build(request, None)
    refused = build(request, junk_for(unbound))
    assert refused.is_valid() is (name in TAKES_ANY_INPUT), name
    html = drawn(refused)
    assert "<b>" not in html and "</b>" not in html  # the junk drawn back is escaped
    if valid:
        accepted = build(request, valid_for(unbound, valid(request)))
        assert accepted.is_valid(), getattr(accepted, "errors", None)

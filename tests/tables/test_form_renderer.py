"""The Python widget drawing (momenta_site/form_renderer.py, issue 10) writes exactly
what Django's template renderer writes: the same bytes for every field of every form
the app shows (unbound, bound valid, bound with errors) and for Django's standard
widgets with awkward values; what it does not know goes to the template engine."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.http import QueryDict
from django.test import RequestFactory
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from momenta_site.form_renderer import FastWidgetRenderer
from tables.forms import calls, d20, discord, game_lines, login, momenta, person, site
from tables.forms.momenta import roll_form
from tables.models import Character, Membership, PersonSettings
from tables.policy.access import controllable
from tables.policy.game_lines import catalogue
from tables.policy.play import pools_for
from tables.views.table import NoteForm
from tables.views.talk import TalkForm
from tests.conftest import PASSWORD
from tests.tables.d20_posts import roll_data

REFERENCE = DjangoTemplates()
FAST = FastWidgetRenderer()
JUNK = "<b>&amp;\"'</b> 0 "
# Longer than any max_length the app sets: a bound CharField refuses it and draws it back.
LONG_JUNK = JUNK * 60


def test_settings_use_the_fast_renderer():
    from django.forms.renderers import get_default_renderer

    assert isinstance(get_default_renderer(), FastWidgetRenderer)


# --- drawing a whole form under one renderer -------------------------------------------------


def drawn_form(form) -> list[str]:
    """Everything a template can ask of a form's fields, in order."""
    out = [str(form)]  # the form template (engine) with each widget inside
    for bf in form:
        out += [str(bf), bf.as_hidden(), bf.as_text(), bf.as_textarea(), str(bf.errors)]
        for sub in bf:
            out += [sub.tag(), sub.tag(wrap_label=True), str(sub)]
    return out


def drawn(thing) -> list[str]:
    if isinstance(thing, forms.BaseFormSet):
        out = [str(thing.management_form), str(thing)]
        for form in [*thing.forms, thing.empty_form]:
            out += drawn_form(form)
        return out
    return drawn_form(thing)


def under(renderer, build):
    thing = build()
    # Before any field is touched: bound fields keep the renderer of their first use.
    thing.renderer = renderer
    return thing


def assert_same(build, expect_valid=None):
    reference, fast = under(REFERENCE, build), under(FAST, build)
    if expect_valid is not None:
        assert fast.is_valid() is expect_valid, getattr(fast, "errors", None)
        assert reference.is_valid() is expect_valid
    expected, got = drawn(reference), drawn(fast)
    assert len(expected) == len(got)
    for want, have in zip(expected, got, strict=True):
        assert have == want


# --- every form of the app, built as its view builds it --------------------------------------


def _user(fx):
    return fx.getfixturevalue("player")


def _membership(fx, campaign, who):
    return Membership.objects.get(campaign=campaign, user=fx.getfixturevalue(who))


def _momenta_composer(who):
    def build(fx, data):
        campaign, hero = fx.getfixturevalue("momenta_campaign"), fx.getfixturevalue("hero")
        fx.getfixturevalue("sidekick")
        membership = _membership(fx, campaign, who)
        characters = controllable(campaign, membership)
        return roll_form(campaign, membership, hero, data, characters=characters)

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
        if data is None:  # views/d20.d20_composer, D20RollForm.after_roll
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
        # With a request, as LoginView gives it: axes' backend counts by its address.
        lambda fx, data: login.ThrottledAuthenticationForm(RequestFactory().post("/login/"), data),
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
            data, campaign=_d20(fx), pools=pools_for(_d20(fx)), auto_id="adjust-%s"
        ),
        lambda fx: {"pool": "threat", "delta": 2, "reason": "ambush"},
    ),
    "note": (lambda fx, data: NoteForm(data), lambda fx: {"text": "'quoted' & <tagged>"}),
    "talk": (
        lambda fx, data: TalkForm(data, recipients=[(7, "bob")]),
        lambda fx: {"mode": "ic", "text": "hello"},
    ),
}


# Forms of checkboxes only: any input is valid.
TAKES_ANY_INPUT = {"threat visible"}


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


@pytest.mark.parametrize("name", list(FORMS))
def test_every_app_form_draws_the_same_unbound_valid_and_with_errors(name, request, db):
    build, valid = FORMS[name]
    assert_same(lambda: build(request, None))
    unbound = build(request, None)
    junk = junk_for(unbound)
    assert_same(lambda: build(request, junk), expect_valid=name in TAKES_ANY_INPUT)
    data = valid_for(unbound, valid(request) if valid else {})
    assert_same(lambda: build(request, data), expect_valid=True if valid else None)


def test_the_formsets_and_composers_cover_every_widget_template_the_app_uses(request, db):
    """The list above reaches each widget kind the drawing reproduces (so a form the
    app adds with a new kind of widget gets a case here, not silence)."""
    seen = set()
    for build, _valid in FORMS.values():
        thing = build(request, None)
        for form in [*thing.forms, thing.empty_form] if hasattr(thing, "forms") else [thing]:
            for bf in form:
                seen.add(type(bf.field.widget).__name__)
    assert {
        "TextInput",
        "NumberInput",
        "HiddenInput",
        "CheckboxInput",
        "Select",
        "RadioSelect",
        "CheckboxSelectMultiple",
        "Textarea",
        "PasswordInput",
        "URLInput",
    } <= seen


# --- Django's standard widgets with awkward values -------------------------------------------

TRICKY = "<>&\"'"
CHOICES = [
    (1, "one"),
    ("", "empty"),
    (0, 0),
    ("<a>", TRICKY),
    ("safe", mark_safe("<b>bold</b>")),
    ("G<&>", [(2, "two"), (None, "none"), (mark_safe("&amp;"), gettext_lazy("lazy"))]),
    (0, [("z", "zero-named group")]),
    (1000, 1000),
    (1.5, 2.5),
]
ATTRS = {
    "id": "id_<x>",
    "class": 'a "b" & c',
    "data-x": TRICKY,
    "data-safe": mark_safe("&amp;<i>"),
    "required": True,
    "disabled": False,
    "data-none": None,
    "data-zero": 0,
    "data-int": 1234567,
    "data-float": 1.5,
    "data-empty": "",
    "data-tuple": (1, "<"),
    "data-lazy": gettext_lazy("lazy & <wrong>"),
}
INPUTS = [
    forms.TextInput,
    forms.NumberInput,
    forms.EmailInput,
    forms.URLInput,
    forms.PasswordInput,
    forms.HiddenInput,
    forms.SearchInput,
    forms.TelInput,
    forms.ColorInput,
    forms.DateInput,
    forms.TimeInput,
    forms.DateTimeInput,
    forms.Textarea,
]
CHOICE_WIDGETS = [
    forms.Select,
    forms.SelectMultiple,
    forms.RadioSelect,
    forms.CheckboxSelectMultiple,
    forms.NullBooleanSelect,
]
VALUES = [None, "", 0, 1, 1234567, 2.5, True, False, TRICKY, mark_safe("<b>&amp;</b>"), "a\nb"]
SELECTED = [None, "", 0, 1, "1", [], ["1", "<a>", "2", "", "safe"], "None", "z", 1000, "1.5"]


def both(widget, name, value, attrs=None) -> list[str]:
    """The widget drawn by each renderer, with its options one by one."""
    drawings = []
    for renderer in (REFERENCE, FAST):
        out = [widget.render(name, value, attrs, renderer=renderer)]
        for data in widget.subwidgets(name, value, attrs):
            bound = forms.boundfield.BoundWidget(widget, data, renderer)
            out += [bound.tag(), bound.tag(wrap_label=True)]
        drawings.append(out)
    return drawings


@pytest.mark.parametrize("widget_class", INPUTS, ids=lambda w: w.__name__)
@pytest.mark.parametrize("attrs", [None, {}, ATTRS], ids=["none", "empty", "tricky"])
def test_input_widgets_draw_the_same(widget_class, attrs):
    for value in VALUES:
        for name in ["n", TRICKY]:
            reference, fast = both(widget_class(attrs=attrs), name, value, {"data-extra": value})
            assert fast == reference, (value, name)


@pytest.mark.parametrize("attrs", [None, ATTRS], ids=["none", "tricky"])
def test_checkbox_draws_the_same(attrs):
    for value in [*VALUES, "on", "false"]:
        widget = forms.CheckboxInput(attrs=attrs)
        reference, fast = both(widget, "c", value)
        assert fast == reference, value
    # check_test decides "checked", the template only draws it
    widget = forms.CheckboxInput(check_test=lambda v: v == "yes")
    assert both(widget, "c", "yes")[0] == both(widget, "c", "yes")[1]


@pytest.mark.parametrize("widget_class", CHOICE_WIDGETS, ids=lambda w: w.__name__)
@pytest.mark.parametrize("attrs", [None, ATTRS, {"id": ""}], ids=["none", "tricky", "no-id"])
@pytest.mark.parametrize("choices", [[], CHOICES], ids=["empty", "tricky"])
def test_choice_widgets_draw_the_same(widget_class, attrs, choices):
    widget = widget_class(attrs=attrs)
    if widget_class is not forms.NullBooleanSelect:
        widget.choices = choices
    for value in [*SELECTED, True, False, "unknown"]:
        if isinstance(value, list) and widget_class is forms.NullBooleanSelect:
            continue  # its format_value looks a list up in a dict: both renderers fail
        reference, fast = both(widget, "pick", value, {"required": True})
        assert fast == reference, value


def test_select_draws_blank_lines_and_groups_exactly_as_the_template():
    """A hand-written expectation besides the comparison: the shape the templates give."""
    widget = forms.Select(choices=[("a", "A"), ("G", [("b", "B")])])
    assert widget.render("s", "b", renderer=FAST) == (
        '<select name="s">\n'
        '  <option value="a">A</option>\n\n'
        '  <optgroup label="G">\n'
        '  <option value="b" selected>B</option>\n\n'
        "  </optgroup>\n"
        "</select>"
    )


def test_escaping_and_boolean_attributes_follow_attrs_html():
    widget = forms.TextInput(
        attrs={"a": TRICKY, "b": mark_safe("&amp;"), "c": True, "d": False, "e": None, "f": 0}
    )
    assert widget.render("t", TRICKY, renderer=FAST) == (
        '<input type="text" name="t" value="&lt;&gt;&amp;&quot;&#x27;"'
        ' a="&lt;&gt;&amp;&quot;&#x27;" b="&amp;" c e="None" f="0">'
    )


# --- what the drawing does not know goes to the engine ---------------------------------------


class SpyRenderer(FastWidgetRenderer):
    def __init__(self):
        self.loaded = []

    def get_template(self, template_name):
        self.loaded.append(template_name)
        return super().get_template(template_name)


def test_a_standard_widget_does_not_touch_the_engine():
    spy = SpyRenderer()
    forms.Select(choices=CHOICES).render("s", "1", {"id": "x"}, renderer=spy)
    forms.RadioSelect(choices=CHOICES).render("s", "1", {"id": "x"}, renderer=spy)
    forms.NumberInput().render("n", 3, renderer=spy)
    assert spy.loaded == []


def test_a_template_it_does_not_know_goes_to_the_engine():
    spy = SpyRenderer()
    html = forms.SplitDateTimeWidget().render("when", None, renderer=spy)
    assert spy.loaded == ["django/forms/widgets/splitdatetime.html"]
    assert html == forms.SplitDateTimeWidget().render("when", None, renderer=REFERENCE)
    context = {"label": TRICKY, "tag": "label", "attrs": {}, "use_tag": True}
    assert spy.render("django/forms/label.html", context) == REFERENCE.render(
        "django/forms/label.html", context
    )
    assert spy.loaded[-1] == "django/forms/label.html"


class CallableLabelSelect(forms.Select):
    def create_option(self, *args, **kwargs):
        option = super().create_option(*args, **kwargs)
        option["label"] = lambda: "called <label>"
        return option


class OwnOptionSelect(forms.Select):
    option_template_name = "django/forms/label.html"  # any template the drawing does not know


def test_contexts_the_drawing_does_not_cover_go_to_the_engine():
    """A callable value (the engine calls it), an attrs key named "items" (the engine's
    `attrs.items` reads it), an option template of its own: drawn by the engine."""
    cases = [
        (forms.TextInput(attrs={"data-f": lambda: "called"}), "x"),
        (forms.TextInput(attrs={"items": [("data-k", "<v>")], "b": True}), "x"),
        (CallableLabelSelect(choices=[("a", "A")]), "a"),
        (forms.Select(choices=[("a", "A")], attrs={"items": [("k", "v")]}), "a"),
    ]
    for widget, value in cases:
        spy = SpyRenderer()
        reference, fast = both(widget, "w", value)
        assert fast == reference
        assert widget.render("w", value, renderer=spy) == reference[0]
        assert spy.loaded, widget
    spy = SpyRenderer()
    widget = OwnOptionSelect(choices=[("a", "A")])
    assert widget.render("w", "a", renderer=spy) == widget.render("w", "a", renderer=REFERENCE)
    assert spy.loaded == ["django/forms/widgets/select.html"]


# --- the pages: the table and a refused roll, as the views draw them ------------------------

TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def page(client, method, url, data=None):
    response = getattr(client, method)(url, data or {}, HTTP_HX_REQUEST="true")
    return TOKEN.sub("csrf", response.content.decode())


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_table_pages_and_refused_rolls_draw_the_same(who, client_for, settings, hero, kara):
    momenta_campaign, d20_campaign = hero.campaign, kara.campaign
    client = client_for(who)
    urls = [
        ("get", reverse("table", args=[momenta_campaign.pk]), None),
        ("get", reverse("table", args=[d20_campaign.pk]), None),
        ("get", reverse("campaign_detail", args=[momenta_campaign.pk]), None),
        ("get", reverse("character_edit", args=[d20_campaign.pk, kara.pk]), None),
    ]
    if who != "observer":
        bad = {"character": hero.pk, "attribute": "WITS", "kind": "action", "play": JUNK}
        urls.append(("post", reverse("momenta_roll", args=[momenta_campaign.pk]), bad))
        bad = {"character": kara.pk, "attribute": "Power", "difficulty": JUNK}
        urls.append(("post", reverse("d20_roll", args=[d20_campaign.pk]), bad))
    drawings = {}
    for renderer in (
        "django.forms.renderers.DjangoTemplates",
        FAST.__module__ + ".FastWidgetRenderer",
    ):
        settings.FORM_RENDERER = renderer
        drawings[renderer] = [page(client, *url) for url in urls]
    reference, fast = drawings.values()
    assert fast == reference
    assert sum("<input" in html for html in fast) >= 3
    assert Character.objects.get(pk=hero.pk).momentum == hero.momentum  # refused: nothing rolled

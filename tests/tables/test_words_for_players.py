"""Words for players (issue 14): no rule clause ID (PM-05, MO-08, D6-10, TB-03 …) in the
text people read. The ID stays one hover away (a marker's title, templatetags/rule_refs)
and a refusal says its reason in plain words (ServiceError leaves the ID out)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.clause_ids import CLAUSE, without_ids
from tables.models import PersonSettings
from tables.services import d20 as services_d20
from tables.services import momenta, sessions
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
CLAUSE_ID = re.compile(rf"\b{CLAUSE}\b")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Text no one reads on the page: code, the document's and the SVG charts' hover titles.
UNSEEN = {"script", "style", "template", "title", "desc", "head"}


class VisibleText(HTMLParser):
    """The text nodes a reader sees: not in UNSEEN elements, not in `hidden` ones, not
    in a rule marker (whose ID is in its title attribute, not in its text)."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        unseen = (
            (self.stack and self.stack[-1][1])
            or tag in UNSEEN
            or "hidden" in attrs
            or "rule-ref" in (attrs.get("class") or "").split()
        )
        self.stack.append((tag, bool(unseen)))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if data.strip() and not (self.stack and self.stack[-1][1]):
            self.texts.append(data.strip())


def ids_in_sight(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return [text for text in parser.texts if CLAUSE_ID.search(text)]


def roll(campaign, actor, character, faces, **kw):
    kw.setdefault("attribute", "WITS")
    return momenta.roll_momenta(
        campaign.pk, actor, character.pk, RollRequest(**kw), rng=FixedDice(faces)
    )


@pytest.fixture
def momenta_table(momenta_campaign, gm, player, player2, hero, sidekick):
    """A Momenta log with a roll that used an accepted Assist, a Disadvantage roll, and a
    second Assist waiting on a test the GM called, asked in structured time."""
    momenta_campaign.players_declare_edges = True
    momenta_campaign.save(update_fields=["players_declare_edges"])
    sessions.start_session(momenta_campaign.pk, gm)
    assist = momenta.request_assist(momenta_campaign.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "accept")
    roll(momenta_campaign, player, hero, [5, 5, 2, 3, 1], assist_id=assist.pk)
    roll(momenta_campaign, player, hero, [6, 2, 2, 1], disadvantage=True)
    called = momenta.request_assist(
        momenta_campaign.pk, player, sidekick.pk, hero.pk, structured=True
    )
    momenta.answer_assist(momenta_campaign.pk, gm, called.pk, "call_test")
    return momenta_campaign


@pytest.fixture
def d20_table(d20_campaign, player, kara):
    """A 2d20 log with Kara's passed test, one d20 bought with Threat (MO-08)."""
    services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=1, bought_dice=1
        ),
        rng=FixedDice([2, 5, 20]),
    )
    return d20_campaign


def wants_rule_marks(user):
    """Issue 37: a player sees the § marks once they ask for them (before logging in:
    the session keeps the choice)."""
    PersonSettings.objects.update_or_create(user=user, defaults={"rule_marks": "on"})


@pytest.mark.parametrize("role", ["gm", "player"])
def test_the_momenta_table_page_shows_no_clause_id(momenta_table, client_for, hero, role, player):
    wants_rule_marks(player)  # the markers checked below, on both pages
    client = client_for(role)
    page = client.get(reverse("table", args=[momenta_table.pk])).content.decode()
    assert 'data-kind="momenta_roll"' in page and "Ash → Bo" in page  # what is checked
    if role == "gm":
        assert 'id="momenta-assist-queue"' in page and 'id="gm-panel"' in page
    assert (seen := ids_in_sight(page)) == [], seen
    assert 'title="Rule PM-08"' in page  # the ID is a hover away, not gone
    odds = client.get(
        reverse("momenta_odds", args=[momenta_table.pk]),
        {
            "character": hero.pk,
            "attribute": "WITS",
            "kind": "action",
            "play": "narrative",
            "advantage_sources": "boon",
            "expected_momentum": hero.momentum,
            "expected_resolve": hero.resolve,
        },
        **HX,
    ).content.decode()
    assert "Ash pays" in odds and (seen := ids_in_sight(odds)) == [], seen


@pytest.mark.parametrize("role", ["gm", "player"])
def test_the_d20_table_page_shows_no_clause_id(d20_table, client_for, kara, role, player):
    wants_rule_marks(player)
    client = client_for(role)
    page = client.get(reverse("table", args=[d20_table.pk])).content.decode()
    assert 'data-kind="d20_test"' in page and "Kara" in page
    if role == "gm":
        assert 'id="gm-threat-heading"' in page
    assert (seen := ids_in_sight(page)) == [], seen
    # The spend panel of Kara's test: every spend's description, the ID a hover away.
    test = d20_table.d20_tests.get()
    panel = client.get(reverse("d20_panel", args=[d20_table.pk, test.pk]), **HX)
    html = panel.content.decode()
    assert "Obtain Information" in html and 'title="Rule MO-11"' in html
    assert (seen := ids_in_sight(html)) == [], seen


def test_the_checker_sees_an_id_in_the_words_but_not_in_a_title():
    """So the page tests above can fail."""
    assert ids_in_sight('<p>costs 1 Momentum (PM-05)</p><p title="PM-05">ok</p>') == [
        "costs 1 Momentum (PM-05)"
    ]
    assert ids_in_sight('<a class="rule-ref" title="Rule PM-05">§</a>') == []
    assert ids_in_sight("<svg><title>MO-08</title></svg><p hidden>T-04</p>") == []


# --- refusals --------------------------------------------------------------------------------


def refusal(call) -> str:
    with pytest.raises(ServiceError) as caught:
        call()
    return str(caught.value)


def test_refusals_give_their_reason_without_a_clause_id(
    momenta_campaign, gm, player, player2, hero, sidekick
):
    """A service's own refusals (PM-08, RS-01, D6-11) and the rules' passed on (PM-08)."""
    sessions.start_session(momenta_campaign.pk, gm)
    pk = momenta_campaign.pk
    messages = [
        refusal(lambda: momenta.request_assist(pk, player, hero.pk, hero.pk)),
        refusal(
            lambda: roll(
                momenta_campaign,
                player,
                hero,
                [1] * 4,
                play="structured",
                resolve_spend=[(hero.pk, 1)],
            )
        ),
        refusal(
            lambda: roll(momenta_campaign, player, hero, [1] * 3, attribute="LUCK", modifiers=[1])
        ),
    ]
    assist = momenta.request_assist(pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(pk, gm, assist.pk, "call_test")
    messages.append(
        refusal(lambda: roll(momenta_campaign, player, hero, [1] * 5, assist_id=assist.pk))
    )
    assert messages == [
        "An Assist comes from another character, not the roller.",
        "Resolve is spent on narrative action rolls only.",
        "A luck roll is a straight roll of LUCK: no modifiers, Thread, Advantage, "
        "Disadvantage or Assist.",
        "The GM called a test from the helper: roll it first.",
    ]
    assert not any(CLAUSE_ID.search(m) for m in messages)


def test_a_service_error_keeps_the_words_of_a_parenthesis_and_drops_its_ids():
    assert str(ServiceError("Tell the GM (it gains Momentum, PM-03): now.")) == (
        "Tell the GM (it gains Momentum): now."
    )
    assert without_ids("one Assist per roll (PM-08 and PM-10).") == "one Assist per roll."
    assert without_ids("a pool (2d6 and 3d)") == "a pool (2d6 and 3d)"


@pytest.mark.parametrize(
    "role, fields, words",
    [
        # D6-10: the GM gives the opposition's successes or its dice.
        ("gm", {"opposition_successes": 1, "opposition_pool": 2}, "not both"),
        # D6-11: LUCK is rolled for luck, never for an attack.
        ("player", {"attribute": "LUCK", "kind": "attack"}, "luck rolls only"),
    ],
)
def test_a_composer_refusal_keeps_its_clause_id_out_of_sight(
    momenta_table, client_for, hero, role, fields, words
):
    data = {
        "character": hero.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "expected_momentum": hero.momentum,
        "expected_resolve": hero.resolve,
        **fields,
    }
    page = client_for(role).post(reverse("momenta_roll", args=[momenta_table.pk]), data, **HX)
    html = page.content.decode()
    assert words in html and 'class="error composer-error"' in html  # refused, and said why
    assert (seen := ids_in_sight(html)) == [], seen

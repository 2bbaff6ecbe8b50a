"""GL-01, names everywhere (issue 25): every page and fragment of a 2d20 table says the
pools by its game line's names: no "Threat" on a Conan table (Doom), no "Momentum" on a
Fallout one (Action Points). A name several lines share is forbidden only on the lines
that call the pool something else (other lines' names minus this line's)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules import game_lines
from rules.dice import FixedDice
from tables.models import Campaign, Character
from tables.services import calls, sessions
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.services.core import ServiceError
from tests.tables.d20_posts import roll_data
from tests.tables.test_words_for_players import VisibleText

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def names(line) -> set[str]:
    return {line.group_pool, line.gm_pool, line.personal_pool}


def forbidden(key: str) -> set[str]:
    """The pool names of the other lines that this line does not use."""
    others = set().union(*(names(line) for k, line in game_lines.LINES.items() if k != key))
    return others - names(game_lines.LINES[key])


def words_in_sight(html: str, words: set[str]) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    pattern = re.compile("|".join(rf"\b{re.escape(w)}\b" for w in sorted(words)))
    return [text for text in parser.texts if pattern.search(text)]


def _pages(campaign, client_for, kara, marcus, role):
    """Every page and fragment the role sees at a table with one open test each (a player's
    with a bought die, the GM's NPC's with a die bought with the GM pool)."""
    client = client_for(role)
    pk = campaign.pk
    test = campaign.d20_tests.filter(character=kara).get()
    pages = {
        "table": client.get(reverse("table", args=[pk])),
        "composer": client.get(reverse("d20_composer", args=[pk]), **HX),
        "odds": client.get(
            reverse("d20_odds", args=[pk]),
            roll_data(kara, bought_dice=2, buy_from_momentum=1),
            **HX,
        ),
        "panel": client.get(reverse("d20_panel", args=[pk, test.pk]), **HX),
        "log": client.get(reverse("table_log", args=[pk]), **HX),
        "campaign page": client.get(reverse("campaign_detail", args=[pk])),
    }
    lena_test = campaign.d20_tests.filter(character__name="Lena").order_by("pk").first()
    pages["lena panel"] = client.get(reverse("d20_panel", args=[pk, lena_test.pk]), **HX)
    ledger = reverse("pool_ledger", args=[pk])
    pages["group ledger"] = client.get(ledger + "?pool=group_momentum", **HX)
    pages["personal ledger"] = client.get(ledger + f"?pool=determination&character={kara.pk}", **HX)
    if role == "gm":
        npc_test = campaign.d20_tests.filter(character=marcus).order_by("pk").first()
        pages["npc odds"] = client.get(
            reverse("d20_odds", args=[pk]), roll_data(marcus, bought_dice=1), **HX
        )
        pages["npc panel"] = client.get(reverse("d20_panel", args=[pk, npc_test.pk]), **HX)
        pages["gm panel"] = client.get(reverse("gm_panel", args=[pk]), **HX)
        pages["gm ledger"] = client.get(ledger + "?pool=threat", **HX)
    return pages


@pytest.fixture
def line_table(d20_campaign, gm, player, player2, kara, marcus):
    """A table of line `key` whose log has each thing a 2d20 test does: dice bought with
    both pools, a reroll (where the line has one), spends paid from the roll, the group
    pool and the GM pool, a veto, "you don't know", an NPC's test closed into the GM pool,
    the GM's own change of it; and two open tests (Kara's, and Lena's without a reroll)."""
    marcus.attributes.create(name="Power", value=8)
    marcus.skills.create(name="Communicate", value=4)
    lena = Character.objects.create(
        campaign=d20_campaign, owner=player2, name="Lena", determination=1
    )
    lena.attributes.create(name="Power", value=9)
    lena.skills.create(name="Communicate", value=5)

    def roll(who, character, faces, **kw):
        return services_d20.roll_d20_test(
            d20_campaign.pk,
            who,
            character.pk,
            services_d20.D20TestRequest(
                attribute="Power", skill="Communicate", difficulty=1, bought_dice=1, **kw
            ),
            rng=FixedDice(faces),
        )

    def make(key):
        Campaign.objects.filter(pk=d20_campaign.pk).update(
            game_line=key, threat=3, group_momentum=4
        )
        d20_campaign.refresh_from_db()
        pk = d20_campaign.pk
        kara_test = roll(player, kara, [2, 5, 20], buy_from_momentum=1)
        if d20_campaign.line.rerolls_after:
            if d20_campaign.line.reroll_needs_leave:
                services_gm.permit_determination(pk, gm, kara_test.pk)
            services_d20.determination_reroll(pk, player, kara_test.pk, [2], rng=FixedDice([1]))
        npc_test = roll(gm, marcus, [1, 3, 19])
        services_d20.spend_momentum(pk, gm, npc_test.pk, "obtain_information", from_pool=0)
        services_d20.resolve_test(pk, gm, npc_test.pk)
        lena_test = roll(player2, lena, [1, 1, 20])
        services_d20.spend_momentum(pk, player2, lena_test.pk, "obtain_information", from_pool=1)
        services_d20.spend_momentum(
            pk, player2, lena_test.pk, "create_trait", from_pool=0, to_threat=1
        )
        services_d20.refund_dont_know(pk, gm, lena_test.pk, 0)
        services_d20.veto_spend(pk, gm, lena_test.pk, 1, reason="not here")
        services_gm.add_threat(pk, gm, 2, "the storm")
        services_gm.spend_threat(pk, gm, 1, "reinforcements")
        # The GM's hand on each pool (PM-13), a called test and a contest (CT-01).
        sessions.adjust_pool(pk, gm, "threat", 1, "a hunch")
        sessions.adjust_pool(pk, gm, "group_momentum", -1, "a slip")
        sessions.adjust_pool(pk, gm, "determination", 1, "a fine speech", character_id=kara.pk)
        calls.call_test(
            pk, gm, character_id=kara.pk, attribute="Power", skill="Communicate", difficulty=2
        )
        services_d20.contest_opposer_roll(
            pk, gm, marcus.pk, lena.pk, attribute="Power", skill="Communicate", bought_dice=1,
            rng=FixedDice([1, 20, 20]),
        )  # fmt: skip
        d20_campaign.refresh_from_db()
        return d20_campaign

    return make


@pytest.mark.parametrize("role", ["gm", "player"])
@pytest.mark.parametrize("key", list(game_lines.LINES))
def test_gl_01_every_page_of_a_line_says_only_its_own_pool_names(
    line_table, client_for, kara, marcus, key, role
):
    campaign = line_table(key)
    line = campaign.line
    seen = {}
    for name, response in _pages(campaign, client_for, kara, marcus, role).items():
        assert response.status_code == 200, name
        html = response.content.decode()
        if found := words_in_sight(html, forbidden(key)):
            seen[name] = found
    assert seen == {}, f"{key}: {seen}"
    # What was checked carries this line's names (so the pages were the pools' pages).
    page = client_for(role).get(reverse("table", args=[campaign.pk])).content.decode()
    assert line.group_pool in page and line.personal_pool in page


def test_gl_01_the_checker_finds_another_lines_name_and_only_whole_words():
    assert forbidden("conan") >= {"Threat", "Determination", "Luck", "Action Points"}
    assert "Momentum" not in forbidden("conan") and "Momentum" in forbidden("fallout")
    assert "Fortune" not in forbidden("achtung")
    assert words_in_sight("<p>Add Threat</p><p>Threatening</p>", {"Threat"}) == ["Add Threat"]
    assert words_in_sight('<p title="Threat">ok</p><script>Threat</script>', {"Threat"}) == []


@pytest.mark.parametrize(
    "key, words", [("conan", "Fortune buys no reroll"), ("fallout", "Luck needs no leave")]
)
def test_t_04_gl_02_the_gm_gives_no_leave_for_a_reroll_the_line_has_not(
    line_table, client_for, gm, kara, key, words
):
    """The panel offers no "Allow" there (GL-02), and a posted one is refused."""
    campaign = line_table(key)
    test = campaign.d20_tests.filter(character=kara).get()
    with pytest.raises(ServiceError, match=words):
        services_gm.permit_determination(campaign.pk, gm, test.pk)
    test.refresh_from_db()
    assert not test.determination_permitted
    response = client_for("gm").post(reverse("d20_permit", args=[campaign.pk, test.pk]), **HX)
    assert words in response.content.decode()
    test.refresh_from_db()
    assert not test.determination_permitted

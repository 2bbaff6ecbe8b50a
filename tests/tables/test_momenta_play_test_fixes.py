"""Issue 11, the table as players see it: odds that can trigger (PAT-04), zero-dice
cards (D6-07), a readable chooser for big rolls (PAT-09), cards in words, unique ids
on the page, and a vetoed spend's card that says what the ledger says (MO-12)."""

from __future__ import annotations

import re
from collections import Counter
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from rules.odds import pattern_trigger_chance
from tables.models import Campaign, MomentaRoll, PoolChange
from tables.services import campaigns, momenta, sessions
from tables.services import d20 as services_d20

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dice(d6_faces):
    """dice([5, 5, 1, 2]): the next Momenta roll shows these faces."""
    return d6_faces


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm):
    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


def url(name, campaign, *args):
    return reverse(name, args=[campaign.pk, *args])


def roll_data(character, **extra):
    data = {
        "character": character.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "template": "",
        "modifiers": "",
        "thread": "",
        "assist": "",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
    }
    data.update(extra)
    return data


def visible_text(html: str) -> str:
    """What a person reads: tags (and their attributes) dropped, entities decoded."""
    text = unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html)))
    return re.sub(r" ([,.:)])", r"\1", text)


def pattern_line(html: str, label: str) -> str:
    """The preview's line for one pattern kind ('a Double'), as read."""
    block = html.split('class="odds-patterns"')[1].split("</ul>")[0]
    for item in block.split("<li>")[1:]:
        if item.startswith(label + ":"):
            return visible_text(item)
    raise AssertionError(f"no line for {label}")


# --- The odds preview: what can trigger (PAT-04) ---------------------------------------------


def test_pat_04_preview_shows_a_double_can_trigger_one_time_in_eighteen_on_2d6(
    table, client_for, hero
):
    """PAT-04: 2d6 hold a Double 1/6 of the time, but Extra Success triggers only with
    a success, so as 5,5 or 6,6: 1/18. Both are shown, each with its label."""
    html = (
        client_for("player")
        .get(url("momenta_odds", table), roll_data(hero, modifiers="-2"), **HX)
        .content.decode()
    )
    assert "<strong>2d</strong>" in html
    line = pattern_line(html, "a Double")
    assert re.search(r"can trigger 6% 1/18 · in the dice 17% 1/6 · Extra Success", line), line


def test_pat_04_preview_trigger_chance_counts_the_opposition(table, client_for, hero):
    """PAT-04 with D6-10: the successes a pattern needs are those left after the
    opposition's; the preview's figure is the exact one."""
    client = client_for("gm")
    plain = client.get(url("momenta_odds", table), roll_data(hero), **HX).content.decode()
    opposed = client.get(
        url("momenta_odds", table), roll_data(hero, opposition_pool=2), **HX
    ).content.decode()
    expected = pattern_trigger_chance(4, "double", opposition_pool=2)
    assert expected != pattern_trigger_chance(4, "double")
    fraction = f"{expected.numerator}/{expected.denominator}"
    assert f"can trigger {round(expected * 100)}% {fraction}" in pattern_line(opposed, "a Double")
    assert fraction not in pattern_line(plain, "a Double")


def test_the_composer_fields_keep_the_odds_box_when_they_refresh_it(table, client_for):
    """Issue 11: the fields say how the odds are swapped; inherited from the form, the
    first answer (outerHTML) replaced #momenta-odds and the next ones found no target."""
    html = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    fields = re.search(r'<div class="mc-fields"[^>]*>', html).group(0)
    assert 'hx-target="#momenta-odds"' in fields and 'hx-swap="innerHTML"' in fields
    assert re.search(r'<div id="momenta-odds"[^>]*>', html)  # the target, inside the form


# --- Zero dice (D6-07) ------------------------------------------------------------------------


def test_d6_07_a_zero_dice_card_marks_only_the_kept_die(table, client_for, hero, dice):
    """D6-07: 2d6 keep the lowest: the 6 beside a 3 is discarded, not a success."""
    dice([6, 3])
    response = client_for("player").post(
        url("momenta_roll", table), roll_data(hero, modifiers="-4"), **HX
    )
    html = response.content.decode()
    card = html.split('data-kind="momenta_roll"')[1]
    assert "0 successes" in card
    assert 'class="die die--hit"' not in card
    assert (
        '<span class="die die--dropped" title="discarded: only the lowest die counts">6</span>'
        in card
    )
    assert '<span class="die" title="no success">3</span>' in card


def test_d6_07_a_zero_dice_success_and_a_zero_dice_opposition(table, client_for, hero, dice):
    """D6-07: a kept 5 is a success; an opposition pool of 0 keeps its lowest too."""
    dice([6, 5, 2, 6])  # Ash's 2d6 keep 5; the opposition's 2d6 keep 2
    response = client_for("gm").post(
        url("momenta_roll", table), roll_data(hero, modifiers="-4", opposition_pool=0), **HX
    )
    card = response.content.decode().split('data-kind="momenta_roll"')[1]
    dice_rolled, opposition = card.split('aria-label="Opposition dice"')
    assert dice_rolled.count("die--hit") == 1 and dice_rolled.count("die--dropped") == 1
    assert '<span class="die die--hit" title="success">5</span>' in dice_rolled
    assert '<span class="die die--dropped"' in opposition.split("</span></span>")[0]
    assert '<span class="die die--hit"' not in opposition.split("</span></span>")[0]


# --- The chooser of a big roll (PAT-09) -----------------------------------------------------


def test_pat_09_a_14_die_chooser_lists_each_result_once_best_first(table, client_for, hero, dice):
    """PAT-09: 14 dice, Extra Success and Effortless in play: 64 legal allocations, but
    only 4 results; one line each, the best pre-selected, the other ways folded."""
    faces = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6]  # 2 successes: Success
    dice(faces)
    client = client_for("player")
    data = roll_data(hero, modifiers="+10", **{f"resolve_{hero.pk}": 1})
    assert client.post(url("momenta_roll", table), data, **HX).status_code == 200
    made = MomentaRoll.objects.get()
    assert made.awaiting and len(momenta.result_of(made).allocations) == 64
    html = client.get(url("momenta_chooser", table, made.pk), **HX).content.decode()
    options = html.split('class="chooser-options"')[1].split("</fieldset>")[0]
    # What is in view: the lines outside any fold.
    open_part = re.sub(r"<details.*?</details>", "", options, flags=re.S)
    lines = re.findall(r'<label class="alloc[^"]*">(.*?)</label>', open_part, flags=re.S)
    results = [visible_text(line).split("→", 1)[1].strip() for line in lines]
    assert len(lines) == 4 and len(set(results)) == 4, results
    assert results[0] == "Success with a Bonus, 1 Resolve back (best)"
    assert "checked" in lines[0] and all("checked" not in line for line in lines[1:])
    # The other ways are folded under their result, each drawn once (up to 60 in
    # all); those past that are counted, and give a result already listed.
    keys = re.findall(r'name="allocation" value="([^"]*)"', options)
    assert len(keys) == len(set(keys)) == 60
    counted = sum(int(n) for n in re.findall(r"…and (\d+) more\.", options))
    assert len(keys) + counted == 64
    folds = re.findall(r"(\d+) other ways? to the same result", options)
    assert sum(int(n) for n in folds) == 64 - 4


def test_pat_09_a_folded_allocation_is_accepted(table, client_for, hero, dice):
    """A way folded under its result is still a legal choice (PAT-02)."""
    dice([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6])
    client = client_for("player")
    client.post(url("momenta_roll", table), roll_data(hero, modifiers="+10"), **HX)
    made = MomentaRoll.objects.get()
    html = client.get(url("momenta_chooser", table, made.pk), **HX).content.decode()
    folded = html.split('class="alloc-same"')[1]
    key = re.search(r'name="allocation" value="([^"]*)"', folded).group(1)
    response = client.post(url("momenta_allocate", table, made.pk), {"allocation": key}, **HX)
    assert response.status_code == 200
    made.refresh_from_db()
    assert not made.awaiting
    assert "|".join(f"{n}:{f}" for n, f in made.card["applied"]["allocation"]) == key


# --- Cards in words, unique ids ---------------------------------------------------------------


def test_a_pool_adjusted_card_names_the_pool_not_its_field(table, client_for, gm, hero):
    """The GM's hand change reads "Ash's Resolve", never "pool: resolve" (PM-13)."""
    sessions.adjust_pool(table.pk, gm, "resolve", -1, "spent", character_id=hero.pk)
    page = visible_text(
        client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    )
    entry = page.split("Pool adjusted", 1)[1][:200]
    assert "Ash's Resolve" in entry, entry
    assert "pool:" not in page and "character id" not in page
    assert not re.search(r"\b(group_momentum|resolve|momentum)\b(?=:)", page)


def test_a_group_pool_adjusted_card_names_the_pool(d20_campaign, client_for, gm):
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "bonus")
    html = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    page = visible_text(html)
    assert "group_momentum" not in page and "pool:" not in page
    assert "Group Momentum" in page.split("Pool adjusted", 1)[1][:200]


def test_a_settings_changed_card_names_the_settings(table, client_for, gm):
    """A ruling changed reads as the settings page names it, with old and new values."""
    campaigns.update_campaign_settings(
        table.pk, gm, {"extra_success_stacks": False, "advantage_dice": 2}
    )
    page = visible_text(
        client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    )
    entry = page.split("Settings changed", 1)[1][:300]
    assert "PAT-R1: repeated Extra Success upgrades one step each: on → off" in entry, entry
    assert "PM-R1: dice added by Advantage: 1 → 2" in entry
    assert "extra_success_stacks" not in page and "advantage_dice" not in page


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids[value] += 1


def duplicate_ids(html: str) -> list[str]:
    reader = _Ids()
    reader.feed(html)
    return sorted(i for i, n in reader.ids.items() if n > 1)


@pytest.mark.parametrize("role", ["gm", "player", "observer"])
def test_no_two_elements_share_an_id_on_the_momenta_table(table, client_for, hero, dice, role):
    """The roll form, the Trauma form, the Assist form and the GM panel each have a
    character field; their ids (and every other) must be unique on the page."""
    dice([5, 5, 1, 2])
    client_for("player").post(url("momenta_roll", table), roll_data(hero), **HX)
    html = client_for(role).get(reverse("table", args=[table.pk])).content.decode()
    assert duplicate_ids(html) == []


@pytest.mark.parametrize("role", ["gm", "player"])
def test_no_two_elements_share_an_id_on_the_2d20_table(
    d20_campaign, kara, marcus, client_for, role
):
    html = client_for(role).get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert 'id="d20-composer"' in html
    assert duplicate_ids(html) == []


def test_no_two_elements_share_an_id_in_the_composer_answer(table, client_for):
    """The composer redrawn on its own (another character) has unique ids too."""
    html = client_for("gm").get(url("momenta_composer", table), **HX).content.decode()
    assert 'id="momenta-roll"' in html
    assert duplicate_ids(html) == []


# --- MO-12: a veto into a full group pool ---------------------------------------------------


@pytest.fixture
def kara_test(d20_campaign, player, kara):
    """Kara's passed test: 2 and 5 with her Persuasion focus → 4 successes, 1 Momentum."""
    return services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=3
        ),
        rng=FixedDice([2, 5]),
    )


def test_mo_11_mo_12_a_veto_refunded_into_a_full_group_pool_gives_the_test_its_points(
    client_for, d20_campaign, kara_test, gm
):
    """MO-12 as MO-11, with MO-06: the spend's 2 pool points go back to a pool that
    filled up meanwhile: nothing is lost, the 2 are the test's Momentum to spend again,
    and the card says so."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=2)
    args = [d20_campaign.pk, kara_test.pk]
    spent = client_for("player").post(
        reverse("d20_spend", args=args),
        {"kind": "create_trait", "from_pool": 2, "to_threat": 0, "expected_momentum": 2},
        **HX,
    )
    assert spent.status_code == 200
    kara_test.refresh_from_db()
    spend = kara_test.ledger["spends"][0]
    assert spend["from_pool"] == 2, spend
    left = kara_test.ledger["roll_momentum"]
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 6, "a windfall")
    lines = PoolChange.objects.filter(pool="group_momentum").count()
    response = client_for("gm").post(
        reverse("d20_veto", args=args + [0]), {"reason": "Not now"}, **HX
    )
    assert PoolChange.objects.filter(pool="group_momentum").count() == lines  # no +0, 2 lost
    d20_campaign.refresh_from_db()
    kara_test.refresh_from_db()
    assert d20_campaign.group_momentum == 6
    assert kara_test.ledger["roll_momentum"] == left + 2
    card = unescape(response.content.decode()).split('data-kind="d20_veto"')[1]
    summary = visible_text(card.split('class="log-summary"')[1].split("</p>")[0])
    assert "lost" not in summary
    assert "2 back to the test's Momentum to spend again: the group pool is full" in summary
    assert "Not now" in summary


def test_no_two_elements_share_an_id_on_the_2d20_table_with_a_contest_to_answer(
    d20_campaign, kara, marcus, client_for, gm
):
    """The composer's contest choice is drawn only when a contest awaits the player; its
    part (answered out of band after a roll) must not take the select's id."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate"
    )
    html = client_for("player").get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert 'name="contest"' in html
    assert duplicate_ids(html) == []

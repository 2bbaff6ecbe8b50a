"""Momenta play over HTTP, as htmx sends it (HX-Request: true): fragments in, fragments out.

Production dice come from the system CSPRNG (TB-02); here the services' source
is swapped for FixedDice so each test knows its faces.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.live import render as live
from tables.models import (
    AssistRequest,
    Character,
    Membership,
    MomentaRoll,
    PersonSettings,
    PoolChange,
    RollTemplate,
    TableEvent,
    Trait,
)
from tables.presenters.table import ALL
from tables.services import campaigns, momenta, sessions
from tests.html_forms import drawn_fields, form_fields

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# The GM panel's Momenta parts: htmx names the element it will swap.
GM_TOOLS = HX | {"HTTP_HX_TARGET": "momenta-gm-tools"}
QUEUE = HX | {"HTTP_HX_TARGET": "momenta-assist-queue"}


@pytest.fixture
def dice(d6_faces):
    """dice([5, 5, 1, 2]): the next rolls show these faces."""
    return d6_faces


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm):
    # Players declare Disadvantage and trauma here; who may is test_play_momenta_consent's.
    momenta_campaign.players_declare_edges = True
    momenta_campaign.save(update_fields=["players_declare_edges"])
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


def state(campaign):
    return (
        TableEvent.objects.filter(campaign=campaign).count(),
        PoolChange.objects.count(),
        MomentaRoll.objects.count(),
        list(Character.objects.order_by("pk").values_list("momentum", "resolve")),
    )


# --- The page and the composer ----------------------------------------------------------


def test_the_table_page_draws_the_momenta_composer_with_its_odds(table, client_for):
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="composer"' in page and "Roll the dice" in page
    assert f'hx-get="/campaigns/{table.pk}/momenta/odds/"' in page
    assert 'hx-trigger="change, input delay:150ms"' in page
    # D6-12: GRIT 3d (the first attribute): 30% / 44% / 22% / 4%, with exact fractions.
    for text in ("30%", "8/27", "44%", "4/9", "22%", "2/9", "4%", "1/27"):
        assert text in page
    # The player may roll only their own character: the select offers Ash, never Bo.
    form = page.split('id="momenta-roll"')[1]
    character_select = form.split('name="character"')[1].split("</select>")[0]
    offered = re.findall(r"<option[^>]*>([^<]*)</option>", character_select)
    assert [name.strip() for name in offered] == ["Ash"]


def test_choosing_another_character_or_attribute_redraws_the_composer(table, client_for):
    """The character and attribute selects sit in the one element that asks for the
    composer again on a change, with the whole form: the choices made are kept."""
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    form = page.split('id="momenta-roll"')[1].split("</form>")[0]
    redraw = re.search(r'<div class="mc-row mc-row--pair"([^>]*)>(.*?)</div>', form, re.S)
    assert redraw is not None
    attrs, inside = redraw.groups()
    assert f'hx-get="{url("momenta_composer", table)}"' in attrs
    for attr in ('hx-trigger="change"', 'hx-target="#composer"', 'hx-swap="outerHTML"'):
        assert attr in attrs
    assert 'hx-include="closest form"' in attrs
    assert 'name="character"' in inside and 'name="attribute"' in inside


def test_observers_see_no_composer_controls(table, client_for):
    page = client_for("observer").get(reverse("table", args=[table.pk])).content.decode()
    assert "Observers watch the table" in page and "Roll the dice" not in page


def wants_rule_marks(user):
    """Issue 37: the player asks for the rules' § marks (off for players by default)."""
    PersonSettings.objects.create(user=user, rule_marks="on")


def test_the_composer_redraws_for_a_luck_roll(table, client_for, hero, player):
    wants_rule_marks(player)
    response = client_for("player").get(
        url("momenta_composer", table), {"character": hero.pk, "attribute": "LUCK"}, **HX
    )
    html = response.content.decode()
    # The rule's ID sits in a marker's title, out of the words (issue 14).
    assert response.status_code == 200 and 'Luck roll<a class="rule-ref"' in html
    assert 'title="Rule D6-11"' in html
    assert 'name="modifiers"' not in html and "<strong>2d</strong>" in html


def test_the_gm_composer_has_opposition_and_secret_fields(table, client_for):
    page = client_for("gm").get(reverse("table", args=[table.pk])).content.decode()
    assert 'name="opposition_pool"' in page and 'name="secret"' in page
    player_page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert 'name="opposition_pool"' not in player_page and 'name="secret"' not in player_page


# --- Odds preview ------------------------------------------------------------------------------


def test_odds_preview_shows_bands_patterns_and_who_pays(table, client_for, hero, player):
    wants_rule_marks(player)
    response = client_for("player").get(
        url("momenta_odds", table), roll_data(hero, advantage_sources="boon"), **HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>5d</strong>" in html  # WITS 4 + Advantage
    assert "13%" in html and "32/243" in html  # band 0 of 5d6 (D6-12)
    assert "a Double" in html and "Extra Success" in html  # PAT-10
    # The clause sits behind a marker (issue 14); the words say who pays what.
    assert (
        'costs 1 Momentum<a class="rule-ref" href="/rules/#PM-05" target="_blank" '
        'rel="noopener" aria-label="Rule PM-05"'
    ) in html
    assert "§</a>: Ash pays, 3 → 2" in html


def band_fractions(html):
    """The band rows of the odds table, as drawn: ['8/27', '4/9', ...]."""
    table_html = html.split('class="odds-table"')[1].split("</table>")[0]
    return re.findall(r'<td class="odds-frac">([^<]*)</td>', table_html)


def brute_force_bands(pool, opposition_dice=0, opposition_successes=0):
    """D6-01 / D6-02 / D6-10 by counting every face combination: band chances as 'n/d'."""
    from fractions import Fraction
    from itertools import product

    counts = [0, 0, 0, 0]
    outcomes = list(product(range(1, 7), repeat=pool + opposition_dice))
    for faces in outcomes:
        own = sum(f >= 5 for f in faces[:pool])
        against = sum(f >= 5 for f in faces[pool:]) + opposition_successes
        counts[min(max(0, own - against), 3)] += 1
    return [f"{(f := Fraction(c, len(outcomes))).numerator}/{f.denominator}" for c in counts]


@pytest.mark.parametrize(
    "opposition,expected_label,brute",
    [
        ({"opposition_pool": 2}, "against an opposition roll of 2d", {"opposition_dice": 2}),
        ({"opposition_successes": 1}, "against 1 opposition success", {"opposition_successes": 1}),
    ],
    ids=["pool", "successes"],
)
def test_d6_10_odds_preview_subtracts_the_opposition(
    table, client_for, hero, opposition, expected_label, brute
):
    """D6-10: the preview's bands count the opposition's successes off Ash's WITS 4d."""
    html = (
        client_for("gm")
        .get(url("momenta_odds", table), roll_data(hero, **opposition), **HX)
        .content.decode()
    )
    assert expected_label in html and "<strong>4d</strong>" in html
    expected = brute_force_bands(4, **brute)
    assert expected != brute_force_bands(4)  # so a preview ignoring it fails
    assert band_fractions(html) == expected


def test_odds_preview_says_why_a_roll_cannot_be_made(table, client_for, hero):
    html = (
        client_for("player")
        .get(url("momenta_odds", table), roll_data(hero, modifiers="lots"), **HX)
        .content.decode()
    )
    assert "Write dice modifiers like +1 or -2" in html


# --- Rolling --------------------------------------------------------------------------------


def test_a_roll_answers_with_the_forms_changed_parts_the_card_and_the_pools(
    table, client_for, hero, dice
):
    """A roll's answer is small (issue 38): the form's parts the roll changed, out of
    band, the event's fragments, and a chooser that loads itself; not the composer, nor
    the form's choices of what to roll, which stay in the page as chosen."""
    dice([5, 5, 2, 3, 1])
    client = client_for("player")
    response = client.post(
        url("momenta_roll", table), roll_data(hero, advantage_sources="boon"), **HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none" and "HX-Retarget" not in response
    assert 'id="momenta-roll"' not in html and 'id="composer"' not in html
    assert 'class="odds-table"' not in html
    for part in ("roller", "numbers", "advantage", "assist-choice", "odds"):
        assert re.search(rf'id="momenta-{part}"[^>]*hx-swap-oob="true"', html), part
    drawn = drawn_fields(html)
    assert not {"character", "attribute", "kind", "play", "template", "target"} & set(drawn)
    assert f'hx-get="{url("momenta_odds", table)}" hx-trigger="load"' in html  # odds on demand
    # A refusal shown before this roll goes: its messages are emptied.
    assert '<div id="composer-messages" hx-swap-oob="true"></div>' in html
    assert 'hx-swap-oob="afterbegin:#roll-log"' in html and 'data-kind="momenta_roll"' in html
    assert html.count('class="die die--hit"') >= 2  # the two 5s, marked
    assert "Advantage from a Boon, 1 Momentum paid by Ash." in html
    assert f'id="character-{hero.pk}" data-character-id="{hero.pk}" hx-swap-oob="true"' in html
    # The allocation chooser loads on its own: every legal allocation, the best
    # pre-selected (PAT-09).
    made = MomentaRoll.objects.get()
    chooser_url = url("momenta_chooser", table, made.pk)
    assert 'hx-swap-oob="beforeend:#momenta-choosers"' in html
    assert f'hx-get="{chooser_url}" hx-trigger="load"' in html and 'name="allocation"' not in html
    chooser = client.get(chooser_url, **HX).content.decode()
    assert 'value="Extra Success:5" checked' in chooser and 'value=""' in chooser
    # Only the roller chooses; once chosen, the chooser is gone.
    assert client_for("player2").get(chooser_url, **HX).content == b""
    client.post(url("momenta_allocate", table, made.pk), {"allocation": ""}, **HX)
    assert client.get(chooser_url, **HX).content == b""
    hero.refresh_from_db()
    assert hero.momentum == 2


def test_the_redrawn_composer_carries_the_new_pools(table, client_for, hero, dice):
    """After a roll the form shows the pools as they are now, so the next roll is not stale."""
    dice([1, 2, 3, 4, 1, 2, 3])
    client = client_for("player")
    html = client.post(
        url("momenta_roll", table), roll_data(hero, advantage_sources="boon"), **HX
    ).content.decode()
    assert 'name="expected_momentum" value="2"' in html
    data = roll_data(hero, expected_momentum=2, attribute="GRIT", disadvantage="on")
    html = client.post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html and 'name="expected_momentum" value="3"' in html
    assert MomentaRoll.objects.count() == 2


def test_choosing_patterns_applies_them(table, client_for, hero, dice):
    dice([5, 5, 2, 3])
    client_for("player").post(url("momenta_roll", table), roll_data(hero), **HX)
    made = MomentaRoll.objects.get()
    response = client_for("player").post(
        url("momenta_allocate", table, made.pk), {"allocation": "Extra Success:5"}, **HX
    )
    html = response.content.decode()
    assert 'data-kind="momenta_patterns"' in html and "Success with a Bonus" in html
    assert 'id="chooser-' not in html
    assert MomentaRoll.objects.get().state == MomentaRoll.State.RESOLVED


def test_effortless_gives_resolve_back_to_the_chosen_ally(
    table, client_for, gm, hero, sidekick, player2, dice
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    dice([2, 2, 2, 5, 1])
    data = roll_data(hero, assist=assist.pk, **{f"resolve_{sidekick.pk}": 1})
    client_for("player").post(url("momenta_roll", table), data, **HX)
    made = MomentaRoll.objects.get()
    html = client_for("player").get(url("momenta_chooser", table, made.pk), **HX).content.decode()
    assert "Effortless: spent Resolve goes back to" in html
    client_for("player").post(
        url("momenta_allocate", table, made.pk),
        {"allocation": "Effortless:2", "refund_to": sidekick.pk},
        **HX,
    )
    sidekick.refresh_from_db()
    assert (sidekick.momentum, sidekick.resolve) == (2, 2)


def test_an_illegal_allocation_is_refused_with_a_message(table, client_for, hero, dice):
    dice([5, 5, 2, 3])
    client = client_for("player")
    client.post(url("momenta_roll", table), roll_data(hero), **HX)
    made = MomentaRoll.objects.get()
    before = state(table)
    html = client.post(
        url("momenta_allocate", table, made.pk),
        {"allocation": "Extra Success:5|Extra Success:5"},
        **HX,
    ).content.decode()
    assert "each die may serve only one pattern" in html and 'role="alert"' in html
    html = client.post(
        url("momenta_allocate", table, made.pk), {"allocation": "nonsense"}, **HX
    ).content.decode()
    assert "Choose one of the listed allocations." in html
    assert state(table) == before


def test_spending_resolve_that_is_not_there_changes_nothing(table, client_for, hero):
    before = state(table)
    response = client_for("player").post(
        url("momenta_roll", table), roll_data(hero, **{f"resolve_{hero.pk}": 5}), **HX
    )
    assert response.status_code == 200
    assert "Ash has 3 Resolve and cannot spend 5" in response.content.decode()
    assert state(table) == before


def test_an_assist_from_a_helper_without_momentum_changes_nothing(
    table, client_for, gm, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    sessions.adjust_pool(table.pk, gm, "momentum", -3, "test", character_id=sidekick.pk)
    before = state(table)
    html = (
        client_for("player")
        .post(url("momenta_roll", table), roll_data(hero, assist=assist.pk), **HX)
        .content.decode()
    )
    assert "Bo has no Momentum to lend." in html
    assert state(table) == before


def test_a_stale_form_gets_a_clear_message(table, client_for, gm, hero):
    data = roll_data(hero, advantage_sources="boon", modifiers="+1")  # drawn while Ash had 3
    sessions.adjust_pool(table.pk, gm, "momentum", -3, "test", character_id=hero.pk)
    before = state(table)
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert "Ash&#x27;s Momentum is now 0 (your page showed 3): not enough" in html
    assert 'name="expected_momentum" value="0"' in html  # redrawn with the new value
    fields = form_fields(html, "momenta-roll")  # with the choices made kept
    assert fields["advantage_sources"] == ["boon"] and fields["modifiers"] == ["+1"]
    assert state(table) == before


# --- What a roll decides from is read under the campaign lock ----------------------------


@pytest.fixture
def meanwhile(monkeypatch):
    """meanwhile(command): `command` commits after the page was drawn, as the POST
    arrives, just before the roll takes the campaign lock and reads what it needs."""

    def load(command):
        load_roll = momenta.load_roll

        def late(*args, **kwargs):
            command()
            return load_roll(*args, **kwargs)

        monkeypatch.setattr(momenta, "load_roll", late)

    return load


def test_a_pool_move_committed_after_the_page_read_is_what_the_roll_pays_from(
    table, client_for, gm, hero, dice, meanwhile
):
    """The GM's trauma lands between the form's read and the lock (Momentum 3 -> 4): the
    roll pays its Advantage from 4, and the form reset shows what is left."""
    dice([1, 2, 3, 4, 5, 6] * 4)
    meanwhile(lambda: momenta.record_trauma(table.pk, gm, hero.pk, 1))
    data = roll_data(hero, advantage_sources="boon")  # drawn while Ash had 3
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html
    assert MomentaRoll.objects.get().card["paid"] == 1
    hero.refresh_from_db()
    assert hero.momentum == 3
    assert 'name="expected_momentum" value="3"' in html


def test_a_player_removed_after_the_page_read_cannot_roll(
    table, client_for, gm, player, hero, meanwhile
):
    seat = Membership.objects.get(campaign=table, user=player)
    meanwhile(lambda: campaigns.remove_member(table.pk, gm, seat.pk))
    before = state(table)
    response = client_for("player").post(url("momenta_roll", table), roll_data(hero), **HX)
    assert response.status_code == 403
    assert MomentaRoll.objects.count() == 0 and state(table)[1:] == before[1:]


def test_a_thread_struck_off_after_the_page_read_adds_no_dice(table, client_for, hero, meanwhile):
    """D6-06: the Thread must be the roller's when the dice are rolled, not only when
    the form was drawn; the roll is refused and changes nothing."""
    thread = hero.traits.create(kind=Trait.Kind.THREAD, text="Owes the Guild")
    meanwhile(lambda: Trait.objects.filter(pk=thread.pk).delete())
    before = state(table)
    data = roll_data(hero, thread=thread.pk)
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert "That Thread is not one of Ash&#x27;s." in html
    assert state(table) == before


def test_bad_form_input_is_shown_in_the_composer(table, client_for, hero):
    before = state(table)
    html = (
        client_for("player")
        .post(url("momenta_roll", table), roll_data(hero, attribute="CHARM"), **HX)
        .content.decode()
    )
    assert "Select a valid choice" in html and state(table) == before


def test_d6_11_a_luck_roll_from_the_composer_is_made_and_logged(table, client_for, hero, dice):
    """LUCK hides the Roll kind (a luck roll is neither action nor attack) but keeps Play:
    Extra Success applies to luck rolls in narrative play (PAT-07). What the composer
    sends is enough to roll."""
    client = client_for("player")
    composer = client.get(
        url("momenta_composer", table), {"character": hero.pk, "attribute": "LUCK"}, **HX
    ).content.decode()
    sent = form_fields(composer, "momenta-roll")
    assert sent["attribute"] == ["LUCK"] and sent["play"] == ["narrative"]
    assert "kind" not in sent and "modifiers" not in sent and "advantage_sources" not in sent
    assert not any(name.startswith("resolve_") for name in sent)  # RS-01: action rolls only
    dice([5, 5])
    response = client.post(url("momenta_roll", table), sent, **HX)
    html = response.content.decode()
    assert response.status_code == 200 and 'role="alert"' not in html
    assert "This field is required" not in html
    made = MomentaRoll.objects.get()
    assert made.spec["kind"] == "luck" and made.spec["play"] == "narrative"
    assert made.result["pool"] == 2
    assert made.event.kind == "momenta_roll" and 'data-kind="momenta_roll"' in html
    assert "LUCK luck roll" in html


def test_d6_11_a_luck_roll_keeps_the_play_mode_chosen(table, client_for, hero, dice):
    dice([1, 2])
    data = {"character": hero.pk, "attribute": "LUCK", "play": "structured"}
    data |= {"expected_momentum": hero.momentum, "expected_resolve": hero.resolve}
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html
    made = MomentaRoll.objects.get()
    assert (made.spec["kind"], made.spec["play"]) == ("luck", "structured")


def test_after_a_roll_the_composer_keeps_what_to_roll_but_not_what_it_spends(
    table, client_for, gm, hero, sidekick, player2, dice
):
    """Advantage, Disadvantage, the Assist, Resolve, modifiers, Thread, opposition and
    secrecy are per roll: the next roll must not spend again unasked. Character,
    attribute, roll kind, play mode and template stay."""
    template = RollTemplate.objects.get(campaign=table, name="Attack (damage)")
    dice([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4])
    data = roll_data(
        hero,
        attribute="GRIT",
        kind="attack",
        play="structured",
        template=template.pk,
        modifiers="+1",
        advantage_sources=["boon", "situational"],
        disadvantage="on",
    )
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html and MomentaRoll.objects.count() == 1
    # What to roll is not drawn again: the page keeps the person's choices.
    kept = drawn_fields(html)
    assert not {"character", "attribute", "kind", "play", "template"} & set(kept)
    # What it spent is drawn again, cleared.
    assert 'name="advantage_sources"' in html and 'name="disadvantage"' in html
    assert "advantage_sources" not in kept and "disadvantage" not in kept
    assert kept["modifiers"] == [""]
    # A narrative action roll with an Assist, a Thread and Resolve: reset too.
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    thread = hero.traits.create(kind="thread", text="Owes the Guild")
    hero.refresh_from_db()
    data = roll_data(hero, thread=thread.pk, assist=assist.pk, **{f"resolve_{hero.pk}": 1})
    html = client_for("player").post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html and MomentaRoll.objects.count() == 2
    kept = drawn_fields(html)
    assert kept["thread"] == [""] and kept["assist"] == [""]
    assert kept[f"resolve_{hero.pk}"] == ["0"]


def test_after_a_gm_roll_the_opposition_and_secrecy_are_reset(table, client_for, hero, dice):
    dice([1, 2, 3, 4, 5, 6, 1])
    data = roll_data(hero, opposition_pool=2, secret="on", play="structured")
    html = client_for("gm").post(url("momenta_roll", table), data, **HX).content.decode()
    assert 'role="alert"' not in html and MomentaRoll.objects.get().secret
    kept = drawn_fields(html)
    assert "character" not in kept and "play" not in kept  # left as chosen
    assert kept["opposition_pool"] == [""] and kept["opposition_successes"] == [""]
    assert 'name="secret"' in html and "secret" not in kept


def test_the_composer_shows_the_viewers_own_character_first(
    table, client_for, gm, player, hero, sidekick
):
    """A player's own PC; a GM's first NPC (else the first character)."""
    own = Character.objects.create(campaign=table, owner=player, name="Aaron")
    npc = Character.objects.create(campaign=table, owner=gm, name="Zed", is_npc=True)
    page = client_for("gm").get(reverse("table", args=[table.pk])).content.decode()
    assert form_fields(page, "momenta-roll")["character"] == [str(npc.pk)]
    page = client_for("player2").get(reverse("table", args=[table.pk])).content.decode()
    assert form_fields(page, "momenta-roll")["character"] == [str(sidekick.pk)]
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    assert form_fields(page, "momenta-roll")["character"] == [str(own.pk)]
    npc.delete()
    page = client_for("gm").get(reverse("table", args=[table.pk])).content.decode()
    assert form_fields(page, "momenta-roll")["character"] == [str(own.pk)]


def test_the_advanced_options_fold_and_open_when_a_roll_is_refused(table, client_for, hero):
    """Phones see the essentials first (static/tables/folds.js opens the fold on wide
    screens); a refused roll comes back with the fold open, its choices in view."""
    page = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    form = page.split('id="momenta-roll"')[1].split("</form>")[0]
    fold = form.split('<details class="composer-more" data-fold>')[1].split("</details>")[0]
    assert "<summary>More options:" in fold
    assert 'name="modifiers"' in fold and 'name="advantage_sources"' in fold
    essentials = form.split('<details class="composer-more"')[0]
    assert 'name="character"' in essentials and 'name="attribute"' in essentials
    assert 'name="kind"' in essentials and 'name="play"' in essentials
    assert "mc-roll" in form.split("</details>")[-1]  # the Roll button is not folded
    html = (
        client_for("player")
        .post(url("momenta_roll", table), roll_data(hero, modifiers="lots"), **HX)
        .content.decode()
    )
    assert '<details class="composer-more" data-fold open data-fold-open>' in html


# --- Who may do what ---------------------------------------------------------------------------


def test_rolling_someone_elses_character_is_forbidden(table, client_for, hero):
    before = state(table)
    response = client_for("player2").post(url("momenta_roll", table), roll_data(hero), **HX)
    assert response.status_code == 403 and state(table) == before


def test_refusals_of_anothers_character_are_in_the_readers_language(table, client_for, hero, dice):
    """The 403 page shows the refusal as it is (templates/403.html): worded for the
    reader, here a German one, never the English msgid."""
    german = {"HTTP_ACCEPT_LANGUAGE": "de", **HX}
    other = client_for("player2")
    response = other.post(url("momenta_roll", table), roll_data(hero), **german)
    assert response.status_code == 403
    assert "Dieser Charakter gehört nicht dir." in response.content.decode()
    dice([5, 5, 2, 3, 1])
    client_for("player").post(url("momenta_roll", table), roll_data(hero), **HX)
    made = MomentaRoll.objects.get()
    response = other.post(url("momenta_allocate", table, made.pk), {"allocation": ""}, **german)
    assert response.status_code == 403
    assert "Nur die würfelnde Person wählt die Muster." in response.content.decode()


@pytest.mark.parametrize("role", ["observer", "outsider"])
def test_observers_and_outsiders_cannot_roll(table, client_for, hero, role):
    before = state(table)
    response = client_for(role).post(url("momenta_roll", table), roll_data(hero), **HX)
    assert response.status_code == 403 and state(table) == before


def test_anonymous_visitors_are_sent_to_log_in(table, client_for, hero):
    response = client_for("anonymous").post(url("momenta_roll", table), roll_data(hero), **HX)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert client_for("anonymous").get(url("momenta_odds", table)).status_code == 302


def test_a_player_cannot_set_the_opposition(table, client_for, hero):
    """The GM-only fields are not part of a player's form: they are ignored."""
    client_for("player").post(
        url("momenta_roll", table), roll_data(hero, opposition_successes=3, secret="on"), **HX
    )
    made = MomentaRoll.objects.get()
    assert made.spec["opposition_successes"] is None and made.secret is False


def test_without_htmx_the_roll_redirects_to_the_table(table, client_for, hero):
    response = client_for("player").post(url("momenta_roll", table), roll_data(hero))
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert MomentaRoll.objects.count() == 1


# --- Secret rolls (TB-03) -------------------------------------------------------------------


def test_tb_03_a_secret_roll_is_shown_to_players_only_once_revealed(
    table, client_for, gm, hero, dice
):
    dice([1, 2, 3, 4])
    gm_client = client_for("gm")
    html = gm_client.post(
        url("momenta_roll", table), roll_data(hero, secret="on"), **HX
    ).content.decode()
    assert "Reveal to the table" in html
    made = MomentaRoll.objects.get()
    table_url = reverse("table", args=[table.pk])
    player_page = client_for("player").get(table_url).content.decode()
    assert f'id="event-{made.event.seq}"' not in player_page
    assert f'id="event-{made.event.seq}"' in gm_client.get(table_url).content.decode()
    assert client_for("player").post(url("momenta_reveal", table, made.pk), **HX).status_code == 403
    html = gm_client.post(url("momenta_reveal", table, made.pk), **HX).content.decode()
    assert 'data-kind="roll_revealed"' in html
    player_page = client_for("player").get(table_url).content.decode()
    assert "now shown to everyone" in player_page and "Setback" in player_page


def test_tb_03_a_revealed_roll_loses_its_secret_badge_on_every_card(
    table, client_for, gm, hero, dice
):
    """Issue 25: once the GM reveals a secret roll, the players' card of it (and the GM's
    card of the reveal) no longer says "secret"; before it, the GM's card does."""
    dice([1, 2, 3, 4])
    gm_client = client_for("gm")
    html = gm_client.post(url("momenta_roll", table), roll_data(hero, secret="on"), **HX)
    assert 'badge--gm">secret</span>' in html.content.decode()
    made = MomentaRoll.objects.get()
    gm_client.post(url("momenta_reveal", table, made.pk), **HX)
    revealed = TableEvent.objects.get(kind="roll_revealed")
    table_url = reverse("table", args=[table.pk])
    for who in ("player", "gm"):
        page = client_for(who).get(table_url).content.decode()
        card = re.search(rf'<li [^>]*id="event-{revealed.seq}".*?</li>', page, re.S).group(0)
        assert hero.name in card and 'badge--gm">secret</span>' not in card, who
    push = live.render_event_fragments(revealed, ALL)
    assert hero.name in push and 'badge--gm">secret</span>' not in push


# --- Assists and trauma -----------------------------------------------------------------------


def test_an_assist_asked_accepted_and_used_over_http(table, client_for, hero, sidekick, dice):
    html = (
        client_for("player2")
        .post(
            url("momenta_assist_request", table), {"roller": hero.pk, "helper": sidekick.pk}, **HX
        )
        .content.decode()
    )
    assert 'data-kind="assist_requested"' in html and "Bo would Assist Ash" in html
    assist = AssistRequest.objects.get()
    gm_page = client_for("gm").get(reverse("table", args=[table.pk])).content.decode()
    assert url("momenta_assist_answer", table, assist.pk) in gm_page
    html = (
        client_for("gm")
        .post(url("momenta_assist_answer", table, assist.pk), {"answer": "accept"}, **QUEUE)
        .content.decode()
    )
    assert html.lstrip().startswith('<section class="gm-section" id="momenta-assist-queue"')
    assert "Bo → Ash: Accepted" in html
    assert "The GM accepts Bo&#x27;s Assist to Ash." in html
    assert (
        client_for("player")
        .post(url("momenta_assist_answer", table, assist.pk), {"answer": "accept"}, **HX)
        .status_code
        == 403
    )
    dice([1, 2, 3, 4, 6])
    html = (
        client_for("player")
        .post(url("momenta_roll", table), roll_data(hero, assist=assist.pk), **HX)
        .content.decode()
    )
    assert "Advantage from Bo&#x27;s Assist, paid by Bo." in html


def test_trauma_over_http_logs_what_the_cap_swallowed(table, client_for, hero):
    html = (
        client_for("gm")
        .post(url("momenta_trauma", table), {"character": hero.pk, "points": 5}, **HX)
        .content.decode()
    )
    assert 'data-kind="trauma"' in html and "(2 lost)" in html
    assert (
        client_for("player2")
        .post(url("momenta_trauma", table), {"character": hero.pk, "points": 1}, **HX)
        .status_code
        == 403
    )


# --- GM tools ------------------------------------------------------------------------------


def test_the_gm_saves_a_roll_template_and_bad_input_is_explained(table, client_for):
    data = {
        "name": "Sneak",
        "band_0": "Seen",
        "band_1": "Noticed",
        "band_2": "Unseen",
        "band_3": "Ghost",
        "damage": "1 2",
        "harm": "damage",
        "overflow_damage": 0,
        "rounding": "down",
    }
    client = client_for("gm")
    html = client.post(url("momenta_template_save", table), data, **GM_TOOLS).content.decode()
    assert "Harm per band: give 4 whole numbers" in html
    html = client.post(
        url("momenta_template_save", table), data | {"damage": ""}, **GM_TOOLS
    ).content.decode()
    assert html.lstrip().startswith('<div id="momenta-gm-tools"')
    assert "Roll template saved." in html and "Sneak" in html
    assert (
        client_for("player").post(url("momenta_template_save", table), data, **GM_TOOLS).status_code
        == 403
    )


def test_the_gm_adds_a_custom_pattern(table, client_for):
    data = {
        "name": "Lucky Streak",
        "kind": "quad",
        "effect": "text",
        "amount": 1,
        "roll_kinds": ["action", "luck"],
        "play": ["narrative"],
        "min_effective_successes": 1,
        "description": "Find a clue",
        "active": "on",
    }
    html = (
        client_for("gm").post(url("momenta_pattern_save", table), data, **GM_TOOLS).content.decode()
    )
    assert "Pattern saved." in html and 'data-kind="custom_pattern_saved"' in html
    html = (
        client_for("gm")
        .post(url("momenta_pattern_save", table), data | {"name": "Solid Hit"}, **GM_TOOLS)
        .content.decode()
    )
    assert "every character has" in html


def test_the_gm_panel_holds_the_momenta_tools_and_the_assist_queue(
    table, client_for, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    table_url = reverse("table", args=[table.pk])
    gm_page = client_for("gm").get(table_url).content.decode()
    assert 'id="momenta-gm-tools"' in gm_page and "Attack (strain)" in gm_page
    assert 'id="momenta-assist-queue"' in gm_page and f'id="assist-{assist.pk}"' in gm_page
    player_page = client_for("player").get(table_url).content.decode()
    assert 'id="momenta-gm-tools"' not in player_page
    assert 'id="momenta-assist-queue"' not in player_page
    # The helper's player sees the Assist in the composer and may withdraw it.
    helper_page = client_for("player2").get(table_url).content.decode()
    assert f'id="assist-{assist.pk}"' in helper_page and "Withdraw" in helper_page


def test_tb_03_the_gm_panel_lists_secret_rolls_to_reveal(table, client_for, gm, hero, dice):
    dice([1, 2, 3, 4])
    client = client_for("gm")
    client.post(url("momenta_roll", table), roll_data(hero, secret="on"), **HX)
    made = MomentaRoll.objects.get()
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="momenta-secret-rolls"' in page
    html = client.post(url("momenta_reveal", table, made.pk), **GM_TOOLS).content.decode()
    assert html.lstrip().startswith('<div id="momenta-gm-tools"')
    assert 'id="momenta-secret-rolls"' not in html and 'data-kind="roll_revealed"' in html


# --- No state change on a GET -----------------------------------------------------------------


def writes_during(calls) -> list[str]:
    """The SQL of every write (or row lock) the calls made."""
    with CaptureQueriesContext(connection) as queries:
        for call in calls:
            assert call().status_code == 200
    verbs = ("INSERT", "UPDATE", "DELETE")
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(verbs) or "FOR UPDATE" in q["sql"].upper()
    ]


@pytest.mark.parametrize("role", ["gm", "player"])
def test_drawing_the_table_and_the_composer_writes_nothing(table, client_for, hero, role):
    """A GET changes nothing, even for a d6 campaign without roll templates (made
    outside the services): the composer used to seed them, under a lock."""
    RollTemplate.objects.filter(campaign=table).delete()
    client = client_for(role)
    calls = [
        lambda: client.get(reverse("table", args=[table.pk])),
        lambda: client.get(url("momenta_composer", table), {"character": hero.pk}, **HX),
        lambda: client.get(url("momenta_odds", table), roll_data(hero), **HX),
    ]
    assert writes_during(calls) == []
    assert not RollTemplate.objects.filter(campaign=table).exists()


# --- Roll cards: stored as data, worded when drawn --------------------------------------------


def log_entry(html: str, seq: int) -> str:
    """Log entry #seq of a page, up to the next entry."""
    start = html.index(f'id="event-{seq}"')
    end = html.find('<li class="log-entry', start)
    return html[start : end if end > 0 else len(html)]


def test_a_roll_card_is_stored_as_data_and_drawn_in_words(table, client_for, hero, dice):
    """D6-06, PM-05, D6-10: the payload holds numbers and names; the log words them."""
    dice([5, 5, 2, 3, 1, 1, 6, 2])  # WITS 4 +1 modifier +1 Advantage = 6d, then 2d opposing
    client = client_for("gm")
    data = roll_data(hero, advantage_sources="boon", modifiers="+1", opposition_pool=2)
    client.post(url("momenta_roll", table), data, **HX)
    made = MomentaRoll.objects.get()
    payload = made.event.payload
    assert payload["advantage_sources"] == ["boon"] and payload["modifiers"] == [1]
    assert "pool_parts" not in payload and "momentum_notes" not in payload
    entry = log_entry(
        client.get(reverse("table", args=[table.pk])).content.decode(), made.event.seq
    )
    assert "Pool <strong>6d</strong>: WITS 4d, +1d modifier, +1d Advantage" in entry
    assert "Advantage sources: a Boon" in entry
    assert "Advantage from a Boon, 1 Momentum paid by Ash." in entry
    assert "Opposed by a 2d pool" in entry and "WITS action roll, narrative play" in entry


# A roll card as stored before cards held data: its words are in the payload.
OLD_CARD = {
    "system": "momenta",
    "character": "Ash",
    "attribute": "WITS",
    "kind": "action",
    "kind_label": "action roll",
    "play": "narrative",
    "template": "Narrative action",
    "harm": "damage",
    "pool": 4,
    "pool_parts": ["WITS 4d", "+1d Old Advantage"],
    "zero_dice": False,
    "advantage": True,
    "disadvantage": False,
    "advantage_sources": ["a Boon"],
    "advantage_source": "a Boon",
    "paid": 1,
    "paid_by": "Ash",
    "momentum_notes": ["Advantage from a Boon, 1 Momentum paid by Ash (as worded then)."],
    "resolve_spent": [],
    "faces": [5, 5, 2, 1],
    "kept": [5, 5, 2, 1],
    "successes": 2,
    "opposition": "Opposed by 1 old success",
    "opposition_faces": [],
    "opposition_successes": 1,
    "effective_successes": 1,
    "band": 1,
    "outcome": "Success at a Cost",
    "overflow": 0,
    "overflow_effect": None,
    "damage": None,
    "secret": False,
    "state": "resolved",
    "applied": {
        "allocation": [["Extra Success", 5]],
        "triggered": ["Double 5 (Extra Success)"],
        "band": 2,
        "outcome": "Success",
        "upgrade_steps": 1,
        "damage": None,
        "damage_bonus": 0,
        "refunds": [],
        "texts": [],
    },
    "summary": "Ash: Success at a Cost",
}


def test_a_roll_card_stored_in_words_still_replays(table, client_for, player, hero, dice):
    """Events are stored and replayed: an old card shows the words it was stored with."""
    dice([1, 2, 3, 4])
    made = momenta.roll_momenta(table.pk, player, hero.pk, momenta.RollRequest(attribute="WITS"))
    old = dict(OLD_CARD, roll_id=made.pk, character_id=hero.pk)
    TableEvent.objects.filter(pk=made.event.pk).update(payload=old)
    MomentaRoll.objects.filter(pk=made.pk).update(card=old)
    html = client_for("player").get(reverse("table", args=[table.pk])).content.decode()
    entry = log_entry(html, made.event.seq)
    assert "Pool <strong>4d</strong>: WITS 4d, +1d Old Advantage" in entry
    assert "Advantage sources: a Boon" in entry
    assert "paid by Ash (as worded then)." in entry
    assert "Opposed by 1 old success" in entry
    assert "Patterns: Double 5 (Extra Success)" in entry

"""The scene board over HTTP (issue 23, MO-09b): the page, the commands' answers, the log,
and the quick reference. A hidden trait is never in a player's page or answer."""

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Campaign, SceneTrait, TableEvent
from tables.services import d20 as services_d20
from tables.services import scene_board

pytestmark = pytest.mark.django_db

SECRET = "Ambush in the alley"


def board_post(client, campaign, **data):
    return client.post(reverse("board_command", args=[campaign.pk]), data, HTTP_HX_REQUEST="true")


def page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def board_of(html: str) -> str:
    """The page's #scene-board section."""
    return html.split('id="scene-board"', 1)[1].split("</section>", 1)[0]


def test_mo_09b_the_board_is_on_everyones_table_page_and_hidden_entries_on_the_gms_only(
    client_for, d20_campaign, gm
):
    scene_board.add_trait(d20_campaign.pk, gm, "Heavy rain")
    scene_board.add_trait(d20_campaign.pk, gm, SECRET, hidden=True)
    for who in ("player", "observer"):
        html = page(client_for(who), d20_campaign)
        assert 'id="scene-board"' in html and "Heavy rain" in html
        assert SECRET not in html
        log = client_for(who).get(reverse("table_log", args=[d20_campaign.pk]))
        assert SECRET not in log.content.decode()
    html = page(client_for("gm"), d20_campaign)
    assert SECRET in html and "hidden from players" in html


def test_mo_09b_a_players_answer_never_carries_a_hidden_trait(client_for, d20_campaign, gm):
    Campaign.objects.filter(pk=d20_campaign.pk).update(players_note_traits=True)
    scene_board.add_trait(d20_campaign.pk, gm, SECRET, hidden=True)
    response = board_post(client_for("player"), d20_campaign, action="add", text="My Thread")
    html = response.content.decode()
    assert response.status_code == 200 and "My Thread" in html
    assert SECRET not in html


def test_mo_09b_gm_adds_hides_and_reveals_through_the_board(client_for, d20_campaign):
    gm = client_for("gm")
    html = board_post(gm, d20_campaign, action="add", text="Fog", hidden="1").content.decode()
    trait = SceneTrait.objects.get()
    assert trait.hidden and "Fog" in html
    assert SECRET not in html
    assert "Fog" not in page(client_for("player"), d20_campaign)
    board_post(gm, d20_campaign, action="reveal", trait=trait.pk)
    assert "Fog" in board_of(page(client_for("player"), d20_campaign))
    board_post(gm, d20_campaign, action="hide", trait=trait.pk)
    # Seen while it was public (the reveal's log card), gone from the board now.
    assert "Fog" not in board_of(page(client_for("player"), d20_campaign))


@pytest.mark.parametrize(
    "data, message",
    [
        ({"action": "add", "text": ""}, "Write the trait"),
        ({"action": "add", "text": "x" * 201}, "at most 200 characters"),
        ({"action": "edit", "trait": "999999", "text": "Rain"}, "not on this table"),
        ({"action": "remove", "trait": "nonsense"}, "Choose a trait"),
    ],
)
def test_mo_09b_bad_board_input_gets_a_message_in_the_page_and_changes_nothing(
    client_for, d20_campaign, data, message
):
    seq = Campaign.objects.get(pk=d20_campaign.pk).last_seq
    response = board_post(client_for("gm"), d20_campaign, **data)
    html = response.content.decode()
    assert 'role="alert"' in html and message in html
    assert Campaign.objects.get(pk=d20_campaign.pk).last_seq == seq


def test_mo_09b_a_player_removing_a_gm_trait_gets_a_message_and_changes_nothing(
    client_for, d20_campaign, gm
):
    trait_id = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    seq = Campaign.objects.get(pk=d20_campaign.pk).last_seq
    html = board_post(client_for("player"), d20_campaign, action="remove", trait=trait_id)
    assert "Only the GM" in html.content.decode()
    assert Campaign.objects.get(pk=d20_campaign.pk).last_seq == seq
    assert SceneTrait.objects.get().removed_at is None


def test_mo_09b_observers_and_outsiders_are_refused(client_for, d20_campaign):
    assert (
        board_post(client_for("observer"), d20_campaign, action="add", text="x").status_code == 403
    )
    assert board_post(client_for("outsider"), d20_campaign, action="add", text="x").status_code in (
        403,
        404,
    )
    assert not TableEvent.objects.filter(kind="board_trait").exists()


def test_mo_09b_gm_ends_the_scene_keeping_a_trait_in_one_step(client_for, d20_campaign, gm):
    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.add_trait(d20_campaign.pk, gm, "Rain")
    client_for("gm").post(
        reverse("gm_scene_end", args=[d20_campaign.pk]),
        {"keep_trait": [fog]},
        HTTP_HX_REQUEST="true",
    )
    standing = SceneTrait.objects.filter(removed_at__isnull=True)
    assert list(standing.values_list("text", flat=True)) == ["Fog"]


def test_mo_09_the_spend_panel_creates_a_trait_and_names_the_standing_ones(
    client_for, d20_campaign, gm, player, kara
):
    scene_board.add_trait(d20_campaign.pk, gm, "Fog")
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
        rng=FixedDice([1, 1]),
    )
    response = client_for("player").post(
        reverse("d20_spend", args=[d20_campaign.pk, test.pk]),
        {"kind": "create_trait", "note": "Distracted guards", "to_threat": 0},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Distracted guards" in html
    assert list(SceneTrait.objects.values_list("text", flat=True)) == ["Fog", "Distracted guards"]
    # The redrawn panel offers the standing traits to change or remove.
    fog = SceneTrait.objects.get(text="Fog")
    assert f'<option value="{fog.pk}">Fog</option>' in html
    too_long = client_for("player").post(
        reverse("d20_spend", args=[d20_campaign.pk, test.pk]),
        {"kind": "create_trait", "note": "x" * 201, "to_threat": 0},
        HTTP_HX_REQUEST="true",
    )
    assert 'role="alert"' in too_long.content.decode()
    assert SceneTrait.objects.count() == 2


def test_quick_reference_lists_the_lines_spends_with_costs(client_for, d20_campaign):
    Campaign.objects.filter(pk=d20_campaign.pk).update(game_line="conan")
    html = client_for("player").get(reverse("scene_reference", args=[d20_campaign.pk]))
    html = html.content.decode()
    assert "Create Trait" in html and "2 Momentum" in html and "Doom" in html
    assert "MO-09" not in html  # players read words, not clause IDs


def test_mo_09b_the_composer_lists_the_traits_and_the_odds_follow_the_marks(
    client_for, d20_campaign, gm, kara
):
    from tests.tables.d20_posts import roll_data

    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.add_trait(d20_campaign.pk, gm, SECRET, hidden=True)
    html = page(client_for("player"), d20_campaign)
    composer = html.split('id="d20-composer"', 1)[1].split("</form>", 1)[0]
    assert f'name="hinders" value="{fog}"' in composer and SECRET not in composer
    odds = client_for("player").get(
        reverse("d20_odds", args=[d20_campaign.pk]), roll_data(kara, hinders=[fog])
    )
    assert "Difficulty <strong>2</strong>" in odds.content.decode()


def test_mo_09b_rolling_on_a_trait_removed_meanwhile_gets_a_message_and_spends_nothing(
    client_for, d20_campaign, gm, kara
):
    from tests.tables.d20_posts import roll_data

    fog = scene_board.add_trait(d20_campaign.pk, gm, "Fog").payload["trait_id"]
    scene_board.remove_trait(d20_campaign.pk, gm, fog)
    seq = Campaign.objects.get(pk=d20_campaign.pk).last_seq
    response = client_for("player").post(
        reverse("d20_roll", args=[d20_campaign.pk]),
        roll_data(kara, hinders=[fog]),
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert 'role="alert"' in html and "“Fog” was removed from the board meanwhile." in html
    assert Campaign.objects.get(pk=d20_campaign.pk).last_seq == seq


def test_mo_09b_the_momenta_composer_lists_the_traits_and_its_odds_count_a_die_each(
    client_for, momenta_campaign, gm, hero
):
    from tests.tables.test_play_momenta_views import roll_data as momenta_roll

    fog = scene_board.add_trait(momenta_campaign.pk, gm, "Fog").payload["trait_id"]
    html = page(client_for("player"), momenta_campaign)
    assert f'name="helps" value="{fog}"' in html
    odds = client_for("player").get(
        reverse("momenta_odds", args=[momenta_campaign.pk]),
        momenta_roll(hero, helps=[fog]),
        HTTP_HX_REQUEST="true",
    )
    assert "<strong>5d</strong>" in odds.content.decode()  # WITS 4 + Fog


def test_mo_09b_the_gm_records_a_rolls_complication_on_the_board(
    client_for, d20_campaign, gm, player, kara
):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1),
        rng=FixedDice([1, 20]),  # a 20: one complication
    )
    card = f'id="event-{test.event.seq}"'
    gm_log = page(client_for("gm"), d20_campaign).split(card, 1)[1].split("</li>", 1)[0]
    assert 'name="kind" value="complication"' in gm_log
    player_log = page(client_for("player"), d20_campaign).split(card, 1)[1].split("</li>", 1)[0]
    assert "board-complication" not in player_log
    board_post(client_for("gm"), d20_campaign, action="add", kind="complication", text="Alarm")
    trait = SceneTrait.objects.get()
    assert (trait.kind, trait.text) == ("complication", "Alarm")
    assert "Complication" in board_of(page(client_for("player"), d20_campaign))


def test_mo_09b_only_the_gms_composer_offers_to_settle_a_test_by_a_trait(
    client_for, d20_campaign, gm, kara
):
    from tests.tables.d20_posts import roll_data

    gate = scene_board.add_trait(d20_campaign.pk, gm, "The gate is open").payload["trait_id"]
    assert "makes it unnecessary" in page(client_for("gm"), d20_campaign)
    assert "makes it unnecessary" not in page(client_for("player"), d20_campaign)
    data = roll_data(kara, action="impossible", settle_trait=gate)
    refused = board_post(client_for("player"), d20_campaign, **data)
    assert "Only the GM" in refused.content.decode() or refused.status_code == 403
    answer = board_post(client_for("gm"), d20_campaign, **data).content.decode()
    assert "Kara&#x27;s Power + Communicate is impossible: “The gate is open”" in answer


@pytest.mark.parametrize("character", ["²", "3x", "", "99999999999999999999"])
def test_a_verdict_for_a_character_that_is_no_id_is_refused_in_the_board(
    client_for, d20_campaign, gm, kara, character
):
    """A superscript two passes str.isdigit() but not int(): it answered 500 (issue 34)."""
    from tests.tables.d20_posts import roll_data

    gate = scene_board.add_trait(d20_campaign.pk, gm, "The gate is open").payload["trait_id"]
    data = roll_data(kara, action="impossible", settle_trait=gate) | {"character": character}
    before = TableEvent.objects.count()
    answer = board_post(client_for("gm"), d20_campaign, **data)
    assert answer.status_code == 200
    assert "That character is not in this campaign." in answer.content.decode()
    assert TableEvent.objects.count() == before


def test_mo_10_a_scene_asset_is_on_the_board_with_its_owner_until_vetoed(
    client_for, d20_campaign, gm, player, kara
):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=0),
        rng=FixedDice([1, 1]),
    )
    services_d20.spend_momentum(d20_campaign.pk, player, test.pk, "create_asset", note="Ally")
    board = board_of(page(client_for("observer"), d20_campaign))
    assert 'Ally <span class="muted">(Kara, Quality 0, this scene)' in board
    assert 'Signet ring <span class="muted">(Kara, Quality 1, permanent)' in board
    services_d20.veto_spend(d20_campaign.pk, gm, test.pk, 0)
    assert "Ally" not in board_of(page(client_for("observer"), d20_campaign))


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_quick_reference_words_the_standard_spends_and_keeps_the_gms_own(
    client_for, d20_campaign, language
):
    """Issue 35: the 2d20 spends' names and descriptions are the reader's catalogue's; a
    spend the GM made (MO-14) reads as the GM typed it."""
    from django.utils import translation

    d20_campaign.custom_spends.create(name="Call the cavalry", cost=3)
    url = reverse("scene_reference", args=[d20_campaign.pk])
    html = client_for("player").get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        names = [translation.gettext(n) for n in ("Create Trait", "Obtain Information")]
        asset = translation.gettext("A Quality 0 asset that lasts to the end of the scene (MO-10).")
    for name in names:
        assert name in html
    assert "Create Trait" not in html and "Obtain Information" not in html
    assert asset.replace(" (MO-10)", "") in html.replace("&#x27;", "'")
    assert "Call the cavalry" in html

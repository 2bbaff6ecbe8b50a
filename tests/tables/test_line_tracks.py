"""A new character's sheet starts with its line's harm tracks (SC-02, ruling SC-R21), so
a hit lands without the GM setting tracks by hand first (issue: harm in two clicks).
Sources: STA 1st edition core rulebook, Combat, "Stress"; Conan core rulebook, Damage;
Fallout core rulebook, Character creation; the seeds' Momenta harm and Strain."""

import pytest

from rules.dice import FixedDice
from tables.models import HarmTrack, TableEvent
from tables.services import d20 as services_d20
from tables.services import harm
from tables.services.characters import Sheet, SheetRows, save_character


def new_character(campaign, actor, name, attributes=(), skills=()):
    rows = (
        SheetRows("attributes", tuple((None, {"name": n, "value": v}) for n, v in attributes)),
        SheetRows("skills", tuple((None, {"name": n, "value": v}) for n, v in skills)),
    )
    return save_character(campaign.pk, actor, Sheet(fields={"name": name}, rows=rows))


def tracks(character):
    return {t.track: (t.taken, t.maximum) for t in HarmTrack.objects.filter(character=character)}


def on_line(campaign, line):
    campaign.game_line = line
    campaign.save(update_fields=["game_line"])
    return campaign


def test_sc_02_a_momenta_character_starts_with_harm_and_strain(momenta_campaign, player):
    character = new_character(momenta_campaign, player, "Wren", attributes=[("GRIT", 3)])
    assert tracks(character) == {"harm": (0, 10), "strain": (0, 10)}


def test_sc_02_an_sta1_character_s_stress_is_fitness_plus_security(d20_campaign, player):
    sta1 = on_line(d20_campaign, "sta1")
    character = new_character(
        sta1,
        player,
        "T'Vel",
        attributes=[("Fitness", 8), ("Control", 10)],
        skills=[("Security", 4)],
    )
    assert tracks(character) == {"stress": (0, 12), "injuries": (0, 1)}
    created = TableEvent.objects.filter(kind="character_created").latest("seq")
    assert created.payload["tracks"] == [
        {"track": "stress", "maximum": 12},
        {"track": "injuries", "maximum": 1},
    ]


@pytest.mark.parametrize(
    "line, attributes, skills, expected",
    [
        (
            "conan",
            [("Brawn", 10), ("Willpower", 9)],
            [("Resistance", 2), ("Discipline", 1)],
            {"vigor": (0, 12), "wounds": (0, 5), "resolve": (0, 10), "trauma": (0, 5)},
        ),
        ("fallout", [("END", 6), ("LCK", 5)], [], {"hp": (0, 11), "injuries": (0, 5)}),
        # SC-R21: no Security on the sheet, so the line's default for the GM to set.
        ("sta1", [("Fitness", 8)], [], {"stress": (0, 10), "injuries": (0, 1)}),
        ("dune", [], [], {"defeats": (0, 1)}),
    ],
)
def test_sc_02_each_line_s_tracks_from_the_book(
    d20_campaign, gm, line, attributes, skills, expected
):
    campaign = on_line(d20_campaign, line)
    character = new_character(campaign, gm, "Foe", attributes=attributes, skills=skills)
    assert tracks(character) == expected


def test_sc_02_an_edit_keeps_the_gm_s_track_sizes(d20_campaign, gm, player):
    sta1 = on_line(d20_campaign, "sta1")
    character = new_character(sta1, player, "Rem", [("Fitness", 8)], [("Security", 2)])
    harm.set_track(sta1.pk, gm, character.pk, "stress", 14)
    rows = (
        SheetRows(
            "attributes", ((character.attributes.get().pk, {"name": "Fitness", "value": 11}),)
        ),
    )
    save_character(sta1.pk, player, Sheet(fields={"name": "Rem"}, rows=rows), character.pk)
    assert tracks(character)["stress"] == (0, 14)


def test_sc_02_a_hit_lands_on_a_new_character_without_setting_tracks(
    d20_campaign, gm, player, kara
):
    """The hit that used to answer "Set Dorran's Stress on the sheet first." lands."""
    sta1 = on_line(d20_campaign, "sta1")
    target = new_character(sta1, gm, "Dorran", [("Fitness", 7)], [("Security", 2)])
    request = services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1)
    test = services_d20.roll_d20_test(sta1.pk, player, kara.pk, request, rng=FixedDice([3, 15]))
    event = harm.apply_d20_hit(sta1.pk, gm, test.pk, target.pk, track="stress", total=4)
    assert [(m["track"], m["after"]) for m in event.payload["moves"]] == [("stress", 4)]
    assert tracks(target)["stress"] == (4, 9)

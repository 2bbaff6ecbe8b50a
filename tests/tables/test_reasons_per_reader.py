"""Issue 35: what the code writes about a change (a ledger line's reason, an event's
summary) is stored as its message id and values and worded for each reader when drawn;
what a person typed stays as typed, and rows written before keep their English."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rules.dice import FixedDice
from tables.models import Campaign, Character, PoolChange
from tables.services import conflicts, momenta, sessions
from tables.services import d20 as services_d20
from tables.words.said import worded

pytestmark = pytest.mark.django_db


def test_pm_03_a_trauma_points_reason_reads_in_each_readers_language(momenta_campaign, gm, hero):
    momenta.record_trauma(momenta_campaign.pk, gm, hero.pk, 2)
    line = PoolChange.objects.get(character=hero, pool="momentum")
    assert line.reason == "Suffered 2 trauma points (PM-03)"  # the English logs keep
    with translation.override("de"):
        assert line.reason_text == "2 Traumapunkte erlitten (PM-03)"
    with translation.override("es"):
        assert line.reason_text == "2 puntos de trauma sufridos (PM-03)"


def test_a_reason_a_person_typed_and_an_older_line_show_as_stored(momenta_campaign, gm, hero):
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 1, "A gift", character_id=hero.pk)
    typed = PoolChange.objects.get(character=hero)
    assert typed.reason_words is None
    PoolChange.objects.filter(pk=typed.pk).update(reason="Saved Kara's unspent Momentum")
    older = PoolChange.objects.get(pk=typed.pk)
    with translation.override("fr"):
        assert older.reason_text == "Saved Kara's unspent Momentum"


def test_mo_04_the_saved_momentums_line_and_card_read_in_the_readers_language(
    d20_campaign, player, kara, client_for
):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1),
        rng=FixedDice([2, 5]),
    )
    services_d20.resolve_test(d20_campaign.pk, player, test.pk)
    line = PoolChange.objects.get(pool="group_momentum")
    assert line.reason == "Kara: Saved Kara's unspent Momentum (MO-04)"
    with translation.override("de"):
        assert line.reason_text == "Kara: Nicht ausgegebenes Momentum von Kara gespart (MO-04)"
    page = client_for("player").get(reverse("table", args=[d20_campaign.pk]),
                                    HTTP_ACCEPT_LANGUAGE="es").content.decode()  # fmt: skip
    with translation.override("es"):  # the catalogue's words, not a copy of them
        saved = _("%(n)s saved to %(where)s") % {"n": 1, "where": _("the group pool")}
        said_es = _("%(who)s's %(pool)s is resolved: %(summary)s.") % {
            "who": "Kara", "pool": _("Momentum"), "summary": saved
        }  # fmt: skip
    assert "Inercia" in said_es and said_es in page
    assert "saved to the group pool" not in page


def test_sc_01_a_conflicts_start_reads_in_the_readers_language(momenta_campaign, gm, hero):
    sessions.start_session(momenta_campaign.pk, gm)
    sessions.start_scene(momenta_campaign.pk, gm, "Docks")
    event = conflicts.turns.start_conflict(momenta_campaign.pk, gm, [hero.pk])
    assert event.payload["summary"] == "The GM starts a conflict: Ash. Round 1 begins."
    with translation.override("fr"):
        assert "Ash" in worded(event.payload)
        assert "Round 1 begins" not in worded(event.payload)


def _words(language: str, english: str) -> str:
    with translation.override(language):
        said = translation.gettext(english)
    assert said != english, (language, english)
    return said


def test_gl_02_gl_07_a_conan_session_starts_reasons_read_in_each_readers_language(
    d20_campaign, gm, kara
):
    """GL-07 (Modiphius forum answer, Conan's session start) and GL-02's refill: each
    ledger line is worded when drawn, the line's pool names too."""
    d20_campaign.game_line, d20_campaign.group_momentum = "conan", 4
    d20_campaign.save()
    with translation.override("es"):  # the writer's language is nobody else's
        sessions.start_session(d20_campaign.pk, gm)
    reasons = {c.pool: c for c in PoolChange.objects.all()}
    doom, fortune = reasons["threat"], reasons["determination"]
    assert doom.reason.startswith("New session: Doom set to the player characters' Fortune")
    assert fortune.reason.startswith("New session: Fortune set to 3")
    with translation.override("de"):
        for line in (doom, fortune, reasons["group_momentum"]):
            assert line.reason_text.startswith(_words("de", "New session")), line.reason_text
        assert _words("de", "Doom") in doom.reason_text
        assert _words("de", "Fortune") in fortune.reason_text


def test_sc_01_keep_the_initiatives_payment_reads_in_each_readers_language(
    d20_campaign, gm, player, player2, kara, marcus
):
    lena = Character.objects.create(campaign=d20_campaign, owner=player2, name="Lena")
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=4, threat=4)
    conflicts.turns.start_conflict(d20_campaign.pk, gm, [kara.pk, lena.pk, marcus.pk])
    conflicts.turns.choose_next(d20_campaign.pk, player, kara.pk)
    conflicts.turns.end_turn(d20_campaign.pk, player, kara.pk)
    with translation.override("es"):
        conflicts.paid.keep_initiative(d20_campaign.pk, player2, lena.pk)
    line = PoolChange.objects.get(pool="group_momentum")
    assert line.reason == "Keep the Initiative: Lena acts next"
    msgid = "Keep the Initiative: %(who)s acts next"
    with translation.override("fr"):
        assert line.reason_text == _words("fr", msgid) % {"who": "Lena"}

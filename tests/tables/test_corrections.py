"""Issue 15, corrections: the GM voids a mistaken roll or spend.

The void reverses the target's pool changes with new ledger lines (history kept),
marks the target, and refuses whole, changing nothing, whatever it cannot do exactly.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from rules.dice import FixedDice
from tables.exports.dump import dumps, export_campaign
from tables.exports.load import import_campaign
from tables.live import render as live
from tables.models import Character, PoolChange, TableEvent
from tables.services import corrections, momenta, sessions
from tables.services import gm as services_gm
from tables.services.core import ServiceError
from tables.services.momenta import RollRequest

pytestmark = pytest.mark.django_db


def momentum(character) -> int:
    return Character.objects.get(pk=character.pk).momentum


def state(campaign):
    """Everything a refused void must leave alone."""
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "voided_by")),
        PoolChange.objects.filter(campaign=campaign).count(),
        list(Character.objects.filter(campaign=campaign).values_list("momentum", "resolve")),
    )


@pytest.fixture
def paid_roll(momenta_campaign, gm, player, hero):
    """Ash (Momentum 3 after the session starts) pays 1 for a Boon's Advantage (PM-05)."""
    sessions.start_session(momenta_campaign.pk, gm)
    request = RollRequest(attribute="WITS", advantage_sources=["boon"])
    made = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, request, rng=FixedDice([5, 5, 2, 3, 1])
    )
    assert momentum(hero) == 2
    return made.event


def test_a_void_gives_back_what_the_roll_spent_in_new_ledger_lines(
    momenta_campaign, gm, hero, paid_roll
):
    before = list(PoolChange.objects.filter(campaign=momenta_campaign).values_list("pk", "delta"))
    void = corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "  Wrong   attribute ")
    assert momentum(hero) == 3
    assert void.kind == "voided" and void.audience == "all"
    assert void.payload["target_seq"] == paid_roll.seq and void.payload["reason"] == (
        "Wrong attribute"
    )
    lines = list(void.changes.values_list("character__name", "pool", "delta", "after", "reason"))
    assert lines == [("Ash", "momentum", 1, 3, "Voided by gm: Wrong attribute")]
    # Nothing deleted: the roll's own line is still there, and the target says who voided it.
    after = list(PoolChange.objects.filter(campaign=momenta_campaign).values_list("pk", "delta"))
    assert set(before) <= set(after)
    paid_roll.refresh_from_db()
    assert paid_roll.voided_by == void


def test_a_co_gm_may_void_too(momenta_campaign, cogm, hero, paid_roll):
    corrections.void_event(momenta_campaign.pk, cogm, paid_roll.seq, "Misclick")
    assert momentum(hero) == 3


@pytest.mark.parametrize(
    "role, error", [("player", PermissionDenied), ("observer", PermissionDenied)]
)
def test_only_gms_void(request, momenta_campaign, paid_roll, role, error):
    before = state(momenta_campaign)
    with pytest.raises(error):
        corrections.void_event(momenta_campaign.pk, request.getfixturevalue(role), 2, "Mine")
    assert state(momenta_campaign) == before


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_void_needs_a_reason(momenta_campaign, gm, paid_roll, reason):
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="reason"):
        corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, reason)
    assert state(momenta_campaign) == before


def test_voiding_twice_is_refused_and_a_void_is_not_voidable(momenta_campaign, gm, hero, paid_roll):
    void = corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "Misclick")
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="already voided"):
        corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "Again")
    with pytest.raises(ServiceError, match="not a roll or a spend"):
        corrections.void_event(momenta_campaign.pk, gm, void.seq, "Undo the undo")
    assert state(momenta_campaign) == before and momentum(hero) == 3


def test_only_rolls_and_spends_and_only_this_campaigns_events(momenta_campaign, gm, paid_roll):
    note = sessions.post_note(momenta_campaign.pk, gm, "Rain")
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="not a roll or a spend"):
        corrections.void_event(momenta_campaign.pk, gm, note.seq, "Dry")
    with pytest.raises(ServiceError, match="no such event"):
        corrections.void_event(momenta_campaign.pk, gm, 999, "Nothing")
    assert state(momenta_campaign) == before


def test_a_reversal_the_cap_would_cut_is_refused_whole(momenta_campaign, gm, hero, paid_roll):
    """PM-04: Momentum caps at 6; giving back 1 at 6 would lose it, so nothing changes."""
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 4, "Boost", character_id=hero.pk)
    assert momentum(hero) == 6
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="cannot be voided.*Nothing was changed"):
        corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "Misclick")
    assert state(momenta_campaign) == before


def test_a_gain_already_spent_cannot_be_taken_back(momenta_campaign, gm, hero, paid_roll):
    gift = sessions.adjust_pool(
        momenta_campaign.pk, gm, "momentum", 2, "Gift", character_id=hero.pk
    )
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", -4, "Spent", character_id=hero.pk)
    assert momentum(hero) == 0
    before = state(momenta_campaign)
    with pytest.raises(ServiceError, match="Not enough"):
        corrections.void_event(momenta_campaign.pk, gm, gift.seq, "Too generous")
    assert state(momenta_campaign) == before


def test_tb_03_a_secret_events_void_is_as_secret_and_reverses_hidden_threat(d20_campaign, gm):
    """TB-03 / MO-13: hidden Threat added is GM-only; so is its void, and Threat goes back."""
    added = services_gm.add_threat(d20_campaign.pk, gm, 2, "Ambush")
    assert added.audience == "gm"
    void = corrections.void_event(d20_campaign.pk, gm, added.seq, "Wrong scene")
    assert void.audience == "gm"
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 0
    players_page = live.log_entries(
        TableEvent.objects.filter(campaign=d20_campaign, audience="all"), d20_campaign, "all"
    )
    assert all(e.kind != "voided" for e in players_page)


def test_the_voided_card_is_struck_through_on_the_page_and_in_the_push(
    client_for, momenta_campaign, gm, paid_roll
):
    void = corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "Wrong attribute")
    page = client_for("player").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert "log-entry--voided" in page and "Voided by gm: Wrong attribute" in page
    assert "Void…" not in page  # players get no void control
    gm_page = client_for("gm").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert gm_page.count("Void…") >= 1
    pushed = live.render_event_fragments(void, "all")
    # The target's card again, in place, struck through (push/voided.html).
    card = re.search(rf'<li [^>]*id="event-{paid_roll.seq}"[^>]*>', pushed).group(0)
    assert 'hx-swap-oob="true"' in card and "log-entry--voided" in card
    assert "Voided by gm: Wrong attribute" in pushed


@pytest.mark.parametrize("role", ["player", "observer", "outsider"])
def test_void_over_http_is_for_gms_only(client_for, momenta_campaign, hero, paid_roll, role):
    before = state(momenta_campaign)
    url = reverse("gm_void", args=[momenta_campaign.pk, paid_roll.seq])
    response = client_for(role).post(url, {"reason": "Mine"}, HTTP_HX_REQUEST="true")
    assert response.status_code in (403, 404)
    assert state(momenta_campaign) == before


def test_void_over_http_for_the_gm(client_for, momenta_campaign, hero, paid_roll):
    url = reverse("gm_void", args=[momenta_campaign.pk, paid_roll.seq])
    response = client_for("gm").post(url, {"reason": ""}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Give a reason" in response.content.decode()
    assert momentum(hero) == 2
    response = client_for("gm").post(url, {"reason": "Misclick"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "log-entry--voided" in response.content.decode()
    assert momentum(hero) == 3


def test_an_exported_void_is_still_void_after_import(momenta_campaign, gm, paid_roll):
    """The export leaves voided_by out (it points forward in the log); the import links it
    again from the void's payload, so the copy's card is struck through too."""
    void = corrections.void_event(momenta_campaign.pk, gm, paid_roll.seq, "Misclick")
    copy = import_campaign(dumps(export_campaign(momenta_campaign)))
    events = TableEvent.objects.filter(campaign=copy)
    assert events.get(seq=paid_roll.seq).voided_by == events.get(seq=void.seq)
    assert events.exclude(voided_by=None).count() == 1

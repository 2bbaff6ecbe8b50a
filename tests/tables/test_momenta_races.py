"""Momenta commands pressed at once: the campaign lock serialises them, and each reads
what it decides from after the lock, so the second sees what the first committed.

Real threads against the real database, so transaction=True. On SQLite an IMMEDIATE
transaction serialises writers even without the row lock; on PostgreSQL (CI's second
stage) only the lock does, and these fail without it. Pools are guarded twice (the
lock and change_pool's conditional update); these races touch rows only the lock
guards: a roll's state and a campaign's templates.
"""

import threading

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import MomentaRoll, RollTemplate, TableEvent
from tables.services import momenta
from tables.services.momenta import RollRequest, allocation, loader
from tables.services.roll_templates import DEFAULT_TEMPLATES
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def meet_inside(monkeypatch, module, name: str) -> None:
    """Two commands meet at `module.name`, past the point the lock guards: without the
    lock both get there before either commits (a sure race, not a lucky one); with it
    the second waits at the lock, so the first waits here in vain, for a second."""
    barrier = threading.Barrier(2)
    real = getattr(module, name)

    def meet(*args, **kwargs):
        try:
            barrier.wait(timeout=1)
        except threading.BrokenBarrierError:
            pass  # alone here: the other command is waiting at the lock
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, meet)


def roll(campaign, actor, character, faces):
    request = RollRequest(attribute="WITS")
    return lambda: momenta.roll_momenta(
        campaign.pk, actor, character.pk, request, rng=FixedDice(faces)
    )


def test_a_double_click_on_the_patterns_applies_them_once(
    momenta_campaign, player, hero, monkeypatch
):
    """PAT-02: two allocations of one roll at once: one applies, the other is refused
    (the roll is read after the lock, already resolved); one patterns event."""
    made = roll(momenta_campaign, player, hero, [5, 5, 2, 3])()
    meet_inside(monkeypatch, allocation, "result_of")  # just past the "awaiting?" check
    choose = lambda: momenta.choose_allocation(momenta_campaign.pk, player, made.pk, None)  # noqa: E731

    assert sorted(race(choose, choose)) == ["ok", "refused"]
    assert MomentaRoll.objects.get(pk=made.pk).state == MomentaRoll.State.RESOLVED
    assert TableEvent.objects.filter(kind="momenta_patterns").count() == 1


def test_two_first_rolls_at_once_seed_the_templates_once(
    momenta_campaign, gm, player, hero, monkeypatch
):
    """D6-04: a campaign made outside the services (no templates) gets the defaults on
    its first roll, under the lock: two first rolls at once both roll, one seeds."""
    RollTemplate.objects.filter(campaign=momenta_campaign).delete()
    meet_inside(monkeypatch, loader, "templates_of")  # just before the templates are read

    results = race(
        roll(momenta_campaign, gm, hero, [1, 2, 3, 4]),
        roll(momenta_campaign, player, hero, [1, 2, 3, 4]),
    )

    assert results == ["ok", "ok"]
    assert RollTemplate.objects.filter(campaign=momenta_campaign).count() == len(DEFAULT_TEMPLATES)
    assert MomentaRoll.objects.count() == 2


def test_two_first_rolls_posted_at_once_seed_the_templates_once(
    momenta_campaign, client_for, hero, d6_faces, monkeypatch
):
    """D6-04 through the composer: the roll view reads what it checks its form against
    under the lock, so of two first rolls posted at once the second reads the templates
    the first seeded: both roll, the defaults are made once."""
    RollTemplate.objects.filter(campaign=momenta_campaign).delete()
    d6_faces([1, 2, 3, 4] * 2)
    meet_inside(monkeypatch, loader, "templates_of")  # just past the lock
    url = reverse("momenta_roll", args=[momenta_campaign.pk])
    data = {"character": hero.pk, "attribute": "WITS", "kind": "action", "play": "narrative"}

    def post(client):
        def send():
            answer = client.post(url, data, HTTP_HX_REQUEST="true")
            assert answer.status_code == 200 and 'role="alert"' not in answer.content.decode()

        return send

    assert race(post(client_for("gm")), post(client_for("player"))) == ["ok", "ok"]
    assert RollTemplate.objects.filter(campaign=momenta_campaign).count() == len(DEFAULT_TEMPLATES)
    assert MomentaRoll.objects.count() == 2

"""A retry never applies a command twice (issue 27): each submission carries an
Idempotency-Key; the second submission with a key that landed is refused under the
campaign lock with a clear message, and the page can ask whether a key landed."""

import threading
import uuid

import pytest
from django.urls import reverse

from rules.dice import FixedDice
from tables.models import Campaign, MomentaRoll, PoolChange, TableEvent
from tables.services import d20 as services_d20
from tables.services import idempotency, momenta, sessions
from tables.services.momenta import RollRequest, rolls
from tests.races import race

HX = {"HTTP_HX_REQUEST": "true"}


def keyed(key=None):
    return HX | {"HTTP_IDEMPOTENCY_KEY": str(key or uuid.uuid4())}


def momenta_roll_data(character):
    return {
        "character": character.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
    }


def counts(campaign):
    return (
        TableEvent.objects.filter(campaign=campaign).count(),
        PoolChange.objects.count(),
        MomentaRoll.objects.count(),
    )


@pytest.fixture
def table(momenta_campaign, hero, gm):
    sessions.start_session(momenta_campaign.pk, gm)
    return momenta_campaign


@pytest.mark.django_db
def test_a_retried_roll_is_refused_and_says_it_was_already_done(table, client_for, hero, d6_faces):
    d6_faces([5, 5, 2, 3, 1] * 4)
    client, key = client_for("player"), uuid.uuid4()
    url = reverse("momenta_roll", args=[table.pk])
    first = client.post(url, momenta_roll_data(hero), **keyed(key))
    assert first.status_code == 200
    made = TableEvent.objects.get(kind="momenta_roll")
    assert made.idempotency_key == key
    before = counts(table)

    again = client.post(url, momenta_roll_data(hero), **keyed(key))

    assert again.status_code == 200
    assert f"That was already done (entry #{made.seq} in the log)" in again.content.decode()
    assert counts(table) == before
    # A new submission (a new key) is a new roll.
    assert client.post(url, momenta_roll_data(hero), **keyed()).status_code == 200
    assert MomentaRoll.objects.count() == 2


@pytest.mark.django_db
def test_a_retried_2d20_test_is_rolled_once(d20_campaign, client_for, kara, d20_faces):
    from tests.tables.d20_posts import roll_data

    d20_faces([2, 5, 3, 4])
    client, key = client_for("player"), uuid.uuid4()
    url = reverse("d20_roll", args=[d20_campaign.pk])
    client.post(url, roll_data(kara), **keyed(key))
    again = client.post(url, roll_data(kara), **keyed(key))
    made = TableEvent.objects.get(kind="d20_test")
    assert f"entry #{made.seq} in the log" in again.content.decode()
    assert TableEvent.objects.filter(kind="d20_test").count() == 1


@pytest.mark.django_db
def test_a_retried_talk_message_is_posted_once(table, client_for):
    client, key = client_for("player"), uuid.uuid4()
    url = reverse("table_talk", args=[table.pk])
    for _ in range(2):
        client.post(url, {"mode": "ooc", "text": "Snacks?"}, **keyed(key))
    assert TableEvent.objects.filter(kind="talk").count() == 1


@pytest.mark.django_db
def test_a_retried_spend_is_paid_once(d20_campaign, client_for, player, kara):
    test = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(
            attribute="Power", skill="Communicate", focus="Persuasion", difficulty=3
        ),
        rng=FixedDice([2, 5]),
    )
    # Enough in the group pool for a second Question: only the key stops it.
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=3)
    url = reverse("d20_spend", args=[d20_campaign.pk, test.pk])
    key = uuid.uuid4()
    data = {"kind": "obtain_information", "note": "Who sent him?", "to_threat": 0}
    for _ in range(2):
        assert client_for("player").post(url, data, **keyed(key)).status_code == 200
    assert TableEvent.objects.filter(kind="d20_spend").count() == 1
    test.refresh_from_db()
    assert test.ledger["roll_momentum"] == 0  # the 1 Momentum of the roll, paid once
    assert Campaign.objects.get(pk=d20_campaign.pk).group_momentum == 3


@pytest.mark.django_db
def test_a_malformed_key_is_refused_and_changes_nothing(table, client_for, hero):
    before = counts(table)
    url = reverse("momenta_roll", args=[table.pk])
    response = client_for("player").post(
        url, momenta_roll_data(hero), **HX, HTTP_IDEMPOTENCY_KEY="not-a-uuid"
    )
    assert response.status_code == 400
    assert counts(table) == before


@pytest.mark.django_db
def test_a_refused_command_stores_no_key_so_its_retry_can_land(table, client_for):
    client, key = client_for("player"), uuid.uuid4()
    url = reverse("table_talk", args=[table.pk])
    client.post(url, {"mode": "ooc", "text": ""}, **keyed(key))  # refused: empty
    client.post(url, {"mode": "ooc", "text": "Now with words"}, **keyed(key))
    assert TableEvent.objects.get(kind="talk").payload["text"] == "Now with words"


@pytest.mark.django_db
def test_the_page_can_ask_whether_its_own_submission_landed(table, client_for):
    key = uuid.uuid4()
    landed = reverse("table_landed", args=[table.pk])
    player = client_for("player")
    assert player.get(landed, {"key": key}).json() == {"seq": None}
    player.post(reverse("table_talk", args=[table.pk]), {"mode": "ooc", "text": "Hi"}, **keyed(key))
    seq = TableEvent.objects.get(kind="talk").seq
    assert player.get(landed, {"key": key}).json() == {"seq": seq}
    # Another member's key is not theirs to ask about; outsiders ask nothing.
    assert client_for("player2").get(landed, {"key": key}).json() == {"seq": None}
    assert client_for("outsider").get(landed, {"key": key}).status_code == 403
    assert player.get(landed, {"key": "nope"}).status_code == 400


@pytest.mark.django_db(transaction=True)
def test_two_submissions_with_one_key_at_once_roll_once(
    momenta_campaign, player, hero, monkeypatch
):
    """Both reach the roll before either commits unless the key is checked under the
    lock: they meet past the check (a sure race), the second waits at the lock in vain."""
    barrier = threading.Barrier(2)
    real = rolls.plan_roll

    def meet(*args, **kwargs):
        try:
            barrier.wait(timeout=1)
        except threading.BrokenBarrierError:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(rolls, "plan_roll", meet)
    key = uuid.uuid4()

    def submit():
        with idempotency.submitted(key):
            momenta.roll_momenta(
                momenta_campaign.pk,
                player,
                hero.pk,
                RollRequest(attribute="WITS"),
                rng=FixedDice([1, 2, 3, 4]),
            )

    assert sorted(race(submit, submit)) == ["ok", "refused"]
    assert MomentaRoll.objects.count() == 1
    assert TableEvent.objects.filter(idempotency_key=key).count() == 1


@pytest.mark.django_db
def test_a_key_costs_a_command_one_query(momenta_campaign, player):
    """The repeat check rides the command's transaction: one (indexed) query more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.services import talk

    def queries(key):
        with CaptureQueriesContext(connection) as seen, idempotency.submitted(key):
            talk.post_talk(momenta_campaign.pk, player, talk.OUT_OF_CHARACTER, "Hi")
        return len(seen)

    queries(None)  # the first command of a campaign may read what later ones keep
    assert queries(uuid.uuid4()) == queries(None) + 1

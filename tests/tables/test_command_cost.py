"""What one command costs in SQL statements (issue 10, "A cheap command").

A roll reads each row once (the session's user, the membership with its campaign, the
member's characters, the roller's sheet, the campaign's templates and patterns),
locks the campaign once, writes the roll, the pools, the event and its ledger
lines, and answers with the form reset and the event's fragments. Counted over
HTTP as the page sends it (htmx), session and user included, inside the test's
transaction (the service's atomic is a savepoint pair here; in production it is
BEGIN on SQLite and nothing counted on PostgreSQL). Before: about 60, then 18/21.
"""

import pytest
from django.urls import reverse

import rules.d20
from rules.dice import FixedDice
from tables.live import render as live
from tables.models import D20Test, MomentaRoll, TableEvent
from tables.services import d20 as services_d20
from tables.services import momenta, sessions, talk

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "composer"}
# View reads 6 (the session's user (login_required; the session comes from the cache),
# the membership with its campaign, characters, the sheet's
# attributes and traits in one (services/sheets.py), templates, Assists) + savepoint 2
# + lock, patterns 2 (the roller's pools are not read again: the locked campaign's
# last_seq is the one read with the membership, so nothing committed since) + writes 6
# (pool, roll, seq, event, ledger, roll's event). The event's fragments read nothing:
# the answer renders them from the rows the command holds (live.Known). Before: 18.
MOMENTA_ROLL_MAX = 16


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm, monkeypatch):
    sessions.start_session(momenta_campaign.pk, gm)
    faces = FixedDice([5, 5, 2, 3, 1, 4, 6] * 10)
    monkeypatch.setattr(momenta, "system_random", lambda: faces)
    return momenta_campaign


def roll_data(character, **extra):
    """The fields composer_momenta_form.html posts."""
    character.refresh_from_db()
    return {
        "character": character.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "template": "",
        "modifiers": "+1",
        "thread": "",
        "assist": "",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
        **extra,
    }


def roll(client, campaign, data):
    response = client.post(reverse("momenta_roll", args=[campaign.pk]), data, **HX)
    assert response.status_code == 200
    assert 'role="alert"' not in response.content.decode()
    return response


def test_a_momenta_roll_with_advantage_and_a_thread_is_cheap(
    table, client_for, hero, django_assert_max_num_queries
):
    thread = hero.traits.create(kind="thread", text="Owes the Guild")
    client = client_for("player")
    data = roll_data(hero, advantage_sources="boon", thread=thread.pk)
    with django_assert_max_num_queries(MOMENTA_ROLL_MAX):
        roll(client, table, data)
    made = MomentaRoll.objects.get()
    assert made.card["thread"] == "Owes the Guild" and made.card["paid"] == 1
    hero.refresh_from_db()
    assert hero.momentum == 2


def test_a_momenta_roll_with_an_assist_and_resolve_is_cheap(
    table, client_for, gm, player2, hero, sidekick, django_assert_max_num_queries
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    client = client_for("player")
    data = roll_data(hero, assist=assist.pk, **{f"resolve_{hero.pk}": 1})
    # The Assist is read again under the lock (its state decides, PM-08), then used;
    # the Resolve spent is one more write.
    with django_assert_max_num_queries(MOMENTA_ROLL_MAX + 3):
        roll(client, table, data)
    made = MomentaRoll.objects.get()
    assert made.card["assisted"] and made.card["resolve_spent"][0]["amount"] == 1
    sidekick.refresh_from_db()
    hero.refresh_from_db()
    assert (sidekick.momentum, hero.resolve) == (2, 2)


def test_the_answer_draws_the_roll_as_the_database_has_it(
    table, client_for, gm, player2, hero, sidekick
):
    """The answer's fragments come from the command's own rows and are cached for the
    sockets: they must equal a render from the database, for the roller and for an
    ally whose pools the command changed (held or not)."""
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    client = client_for("player")
    for data in (
        roll_data(hero, advantage_sources="boon"),
        roll_data(hero, assist=assist.pk, **{f"resolve_{hero.pk}": 1}),
    ):
        live.clear_cache()
        answer = roll(client, table, data).content.decode()
        made = MomentaRoll.objects.latest("pk")
        live.clear_cache()
        from_database = live.render_event_fragments(made.event, live.ALL)
        assert from_database and answer.endswith(from_database)


# --- a 2d20 test ----------------------------------------------------------------------

# View reads 6 (the user, the membership with its campaign, spends, characters, the
# sheet in one, contests) + savepoint 2 + the lock 1 (the roller is current, as above)
# + a bought die 1 (Threat's update: its value is the locked row's) + writes 5 (test,
# seq, event, ledger, the test's event) + the answer's open tests 1 (the fresh form
# keeps the contests read, less the one answered). Before: 21 (48 before that).
D20_ROLL_MAX = 16


@pytest.fixture
def d20_dice(monkeypatch):
    faces = FixedDice([2, 5, 3, 4, 6, 7] * 10)
    monkeypatch.setattr(rules.d20, "_rng", lambda rng: faces if rng is None else rng)


def d20_data(character, **extra):
    return {
        "character": character.pk,
        "attribute": "Power",
        "skill": "Communicate",
        "focus": "Persuasion",
        "difficulty": 1,
        "harder": 0,
        "easier": 0,
        "bought_dice": 1,
        "buy_from_momentum": 0,
        "bonus_momentum": 0,
        **extra,
    }


def d20_roll(client, campaign, data):
    response = client.post(reverse("d20_roll", args=[campaign.pk]), data, **HX)
    assert response.status_code == 200
    assert 'role="alert"' not in response.content.decode()
    return response


def test_a_2d20_test_with_a_bought_die_is_cheap(
    d20_campaign, client_for, kara, d20_dice, django_assert_max_num_queries
):
    client = client_for("player")
    with django_assert_max_num_queries(D20_ROLL_MAX):
        d20_roll(client, d20_campaign, d20_data(kara))
    made = D20Test.objects.get()
    assert made.spec["paid"]["to_threat"] == 1 and made.result["dice"]
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 1


def test_the_2d20_answer_draws_the_test_as_the_database_has_it(
    d20_campaign, client_for, kara, d20_dice
):
    d20_campaign.group_momentum = 3
    d20_campaign.save(update_fields=["group_momentum"])
    client = client_for("player")
    for data in (
        d20_data(kara, buy_from_momentum=1, expected_momentum=3),  # every pool shown moves
        d20_data(kara, bought_dice=0),
    ):
        live.clear_cache()
        answer = d20_roll(client, d20_campaign, data).content.decode()
        made = D20Test.objects.latest("pk")
        live.clear_cache()
        from_database = live.render_event_fragments(made.event, live.ALL)
        assert from_database and answer.endswith(from_database)


# --- what the fewer reads must not lose --------------------------------------------------


def test_a_command_committed_after_the_page_read_the_roller_is_read_under_the_lock(
    table, client_for, gm, hero, monkeypatch
):
    """The roller read before the lock is kept only if no command committed since
    (core.character_under_lock): here the GM's trauma for the roller lands between the view's
    read and the lock (Momentum 3 -> 4), and the roll pays its Advantage from 4."""
    read = momenta.roll_sheet

    def read_then_another_command(campaign, character, seen_seq=None):
        sheet = read(campaign, character, seen_seq=seen_seq)
        momenta.record_trauma(table.pk, gm, hero.pk, 1)
        return sheet

    monkeypatch.setattr(momenta, "roll_sheet", read_then_another_command)
    client = client_for("player")
    roll(client, table, roll_data(hero, advantage_sources="boon"))
    made = MomentaRoll.objects.get()
    assert made.card["paid"] == 1
    hero.refresh_from_db()
    assert hero.momentum == 3


def test_the_reset_composer_no_longer_offers_the_contest_just_answered(
    d20_campaign, client_for, gm, kara, marcus, d20_dice
):
    """CT-01: the fresh form keeps the contests the roll read, less the one it answered
    (now rolled, so no longer Kara's to roll)."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate"
    )
    client = client_for("player")
    data = d20_data(kara, bought_dice=0, contest=contest.pk)
    answer = d20_roll(client, d20_campaign, data).content.decode()
    assert D20Test.objects.latest("pk").contest_id == contest.pk
    composer = answer.split('id="d20-composer"', 1)[1].split("</form>", 1)[0]
    assert "Against Marcus" not in composer


# --- a message (table talk): the cheapest command that appends an event ----------------

# The user 1 + the membership with its campaign 1 + savepoint 2 + the lock 1 + writes 2 (seq,
# event). The answer's fragments read nothing: they are drawn from the locked campaign
# (live.Known). Before: 10 (the user, the campaign and the membership, each read again
# under the lock, and the campaign once more for the fragments).
TALK_MAX = 7


@pytest.mark.parametrize("mode", [talk.OUT_OF_CHARACTER, talk.TO_GM])
def test_a_message_reads_each_row_once_and_is_drawn_as_the_database_has_it(
    table, client_for, django_assert_max_num_queries, mode
):
    client = client_for("player")
    live.clear_cache()
    with django_assert_max_num_queries(TALK_MAX):
        response = client.post(
            reverse("table_talk", args=[table.pk]), {"mode": mode, "text": "Back in five."}, **HX
        )
    assert response.status_code == 200
    event = TableEvent.objects.latest("seq")
    assert event.payload["text"] == "Back in five."
    live.clear_cache()
    from_database = live.render_event_fragments(event, live.ALL)
    assert from_database and response.content.decode().endswith(from_database)


def test_an_observer_still_cannot_post(table, client_for, observer):
    before = TableEvent.objects.count()
    response = client_for("observer").post(
        reverse("table_talk", args=[table.pk]), {"mode": talk.IN_CHARACTER, "text": "Hi"}, **HX
    )
    assert response.status_code == 403 and TableEvent.objects.count() == before

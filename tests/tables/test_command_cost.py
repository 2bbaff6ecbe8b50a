"""What a command answers, and that its cost does not grow with the table (issue 10, 22).

A roll's answer is the composer reset plus the new event's live fragments, drawn from
the database after commit: the same fragments any other page of that audience gets.
Statement counts appear here only as a guard against N+1 reads: a roll on a table
with many characters and a long log costs no more statements than on a small one
(counted over HTTP as the page sends it, htmx, session and user included).
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules.d20
from rules.dice import FixedDice
from tables.live import render as live
from tables.models import Campaign, Character, D20Test, MomentaRoll, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import d20 as services_d20
from tables.services import momenta, sessions, talk

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "composer"}
MOMENTA_FACES = [5, 5, 2, 3, 1, 4, 6] * 10


def statements(call) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def shown(html: str, pool: str, where: str = 'id="pools"') -> str | None:
    """The value a pool widget shows inside the element opened by `where`, else None."""
    part = html.split(where, 1)[1].split("</section>" if "pools" in where else "</article>")[0]
    found = re.search(rf'data-pool="{pool}">.*?"pool-value">(\d+)<', part, re.S)
    return found.group(1) if found else None


def grow(campaign, gm, *owners, characters=6, messages=20):
    """More characters (each with a sheet; the roller's player owns some) and a longer
    log than the first roll saw."""
    for n in range(characters):
        owner = owners[n % len(owners)]
        extra = Character.objects.create(campaign=campaign, owner=owner, name=f"Extra {n}")
        extra.attributes.create(name="WITS", value=2)
        extra.traits.create(kind="thread", text=f"Thread {n}")
    for n in range(messages):
        talk.post_talk(campaign.pk, gm, talk.OUT_OF_CHARACTER, f"Aside {n}")


@pytest.fixture
def table(momenta_campaign, hero, sidekick, gm, monkeypatch):
    sessions.start_session(momenta_campaign.pk, gm)
    same_dice(monkeypatch)
    return momenta_campaign


def same_dice(monkeypatch):
    """From now on the rolls show the same faces, from the first."""
    faces = FixedDice(list(MOMENTA_FACES))
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: faces)


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


def test_a_momenta_roll_with_advantage_and_a_thread_pays_and_answers(table, client_for, hero):
    thread = hero.traits.create(kind="thread", text="Owes the Guild")
    answer = roll(
        client_for("player"), table, roll_data(hero, advantage_sources="boon", thread=thread.pk)
    )
    made = MomentaRoll.objects.get()
    assert made.card["thread"] == "Owes the Guild" and made.card["paid"] == 1
    hero.refresh_from_db()
    assert hero.momentum == 2
    html = answer.content.decode()
    # The answer carries the roll's card and the roller's card as committed.
    assert f'id="event-{made.event.seq}"' in html
    assert shown(html, "momentum", f'id="character-{hero.pk}"') == "2"


def test_a_momenta_roll_costs_no_more_statements_on_a_bigger_table(
    table, client_for, gm, player, player2, hero, monkeypatch
):
    """No N+1: more characters (with sheets and threads) and a longer log add no reads."""
    client = client_for("player")
    roll(client, table, roll_data(hero))  # warm: the first roll of a process reads more

    def same_roll():
        Character.objects.filter(pk=hero.pk).update(momentum=1, resolve=3)
        same_dice(monkeypatch)
        data = roll_data(hero, advantage_sources="boon")
        return statements(lambda: roll(client, table, data))

    small = same_roll()
    grow(table, gm, player, player2)
    assert same_roll() <= small


def test_a_momenta_roll_with_an_assist_and_resolve_pays_both(
    table, client_for, gm, player2, hero, sidekick
):
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    data = roll_data(hero, assist=assist.pk, **{f"resolve_{hero.pk}": 1})
    roll(client_for("player"), table, data)
    made = MomentaRoll.objects.get()
    assert made.card["assisted"] and made.card["resolve_spent"][0]["amount"] == 1
    sidekick.refresh_from_db()
    hero.refresh_from_db()
    assert (sidekick.momentum, hero.resolve) == (2, 2)


def test_the_answer_draws_the_roll_as_the_database_has_it(
    table, client_for, gm, player2, hero, sidekick
):
    """The answer's fragments are the event as committed: they equal a render read from
    the database afterwards (what the players' sockets get), for the roller's pools
    and for an ally's whose pools the command changed."""
    assist = momenta.request_assist(table.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(table.pk, gm, assist.pk, "accept")
    client = client_for("player")
    for data in (
        roll_data(hero, advantage_sources="boon"),
        roll_data(hero, assist=assist.pk, **{f"resolve_{hero.pk}": 1}),
    ):
        answer = roll(client, table, data).content.decode()
        made = MomentaRoll.objects.latest("pk")
        from_database = live.render_event_fragments(made.event, ALL)
        assert from_database and answer.endswith(from_database)


# --- a 2d20 test ----------------------------------------------------------------------


@pytest.fixture
def d20_dice(monkeypatch):
    same_d20_dice(monkeypatch)


def same_d20_dice(monkeypatch):
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


def test_a_2d20_test_with_a_bought_die_pays_threat_and_answers_with_it(
    d20_campaign, client_for, gm, kara, d20_dice
):
    answer = d20_roll(client_for("player"), d20_campaign, d20_data(kara)).content.decode()
    made = D20Test.objects.get()
    assert made.spec["paid"]["to_threat"] == 1 and made.result["dice"]
    d20_campaign.refresh_from_db()
    assert d20_campaign.threat == 1
    assert f'id="event-{made.event.seq}"' in answer and 'id="pools"' in answer
    # The GM's copy of the same event shows the Threat it now holds (MO-13: players don't).
    gm_copy = live.render_event_fragments(made.event, GM)
    assert shown(gm_copy, "threat") == "1" and shown(answer, "threat") is None


def test_a_2d20_test_costs_no_more_statements_on_a_bigger_table(
    d20_campaign, client_for, gm, player, player2, kara, monkeypatch
):
    client = client_for("player")
    d20_roll(client, d20_campaign, d20_data(kara))  # warm

    def same_test():
        Campaign.objects.filter(pk=d20_campaign.pk).update(threat=0)
        same_d20_dice(monkeypatch)
        return statements(lambda: d20_roll(client, d20_campaign, d20_data(kara)))

    small = same_test()
    grow(d20_campaign, gm, player, player2)
    assert same_test() <= small


def test_open_tasks_on_resolved_test_cards_are_read_once_and_never_by_a_roll(
    d20_campaign, client_for, gm, player, kara, monkeypatch
):
    """Issue 37: a resolved test's card offers the running scene's open tasks, read
    once per render however many cards ask; a roll's answer (an open test) reads none."""
    from tables.services import extended_tasks

    client = client_for("player")
    d20_roll(client, d20_campaign, d20_data(kara))  # warm

    def roll():
        Campaign.objects.filter(pk=d20_campaign.pk).update(threat=0)
        same_d20_dice(monkeypatch)
        return statements(lambda: d20_roll(client, d20_campaign, d20_data(kara)))

    def resolve_all():
        for test in D20Test.objects.exclude(state=D20Test.State.RESOLVED):
            services_d20.resolve_test(d20_campaign.pk, player, test.pk)

    def table_page():
        return statements(lambda: client.get(reverse("table", args=[d20_campaign.pk])))

    sessions.start_scene(d20_campaign.pk, gm, "Bridge")
    without_tasks = roll()
    for name in ("Scan", "Hack"):
        extended_tasks.create_task(d20_campaign.pk, gm, name, work=9)
    assert roll() == without_tasks
    resolve_all()
    few = table_page()
    for _ in range(4):
        roll()
    resolve_all()
    page = client.get(reverse("table", args=[d20_campaign.pk])).content.decode()
    assert page.count("Count toward Hack") == 7  # every resolved card offers it
    assert table_page() == few


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
        answer = d20_roll(client, d20_campaign, data).content.decode()
        made = D20Test.objects.latest("pk")
        from_database = live.render_event_fragments(made.event, ALL)
        assert from_database and answer.endswith(from_database)


# --- what the fewer reads must not lose --------------------------------------------------


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
    # The answer draws the contest choice again, out of band (issue 38): none left.
    part = answer.split('<div id="d20-contest-part"', 1)[1].split("</div>", 1)[0]
    assert 'hx-swap-oob="true"' in part and "Against Marcus" not in part


# --- a message (table talk): the cheapest command that appends an event ----------------


@pytest.mark.parametrize("mode", [talk.OUT_OF_CHARACTER, talk.TO_GM])
def test_a_message_is_answered_as_the_database_has_it(table, client_for, mode):
    client = client_for("player")
    response = client.post(
        reverse("table_talk", args=[table.pk]), {"mode": mode, "text": "Back in five."}, **HX
    )
    assert response.status_code == 200
    event = TableEvent.objects.latest("seq")
    assert event.payload["text"] == "Back in five."
    from_database = live.render_event_fragments(event, ALL)
    assert from_database and response.content.decode().endswith(from_database)


def test_an_observer_still_cannot_post(table, client_for, observer):
    before = TableEvent.objects.count()
    response = client_for("observer").post(
        reverse("table_talk", args=[table.pk]), {"mode": talk.IN_CHARACTER, "text": "Hi"}, **HX
    )
    assert response.status_code == 403 and TableEvent.objects.count() == before

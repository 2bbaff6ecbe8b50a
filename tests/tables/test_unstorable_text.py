"""Text no database keeps (issue 34): a NUL is refused with a message in the page, and
nothing changes, on SQLite as on PostgreSQL (which answered 500: "text fields cannot
contain NUL"). The commands below read request.POST past a form, so Django's own
field validator never saw their text; views/answers.py's runners refuse it now."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tables.models import SceneTrait, TableEvent
from tables.services import scene_board, sessions

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
REFUSED = "Null characters are not allowed."


@pytest.fixture
def fog(d20_campaign, gm):
    """A running scene of the 2d20 table, with a trait on its board."""
    sessions.start_session(d20_campaign.pk, gm)
    sessions.start_scene(d20_campaign.pk, gm, "Opening")
    scene_board.add_trait(d20_campaign.pk, gm, "Fog")
    return SceneTrait.objects.get(text="Fog")


def refused(client, url, data) -> str:
    """The htmx answer's text; asserts it is a 200 (htmx swaps it) that wrote nothing."""
    before = TableEvent.objects.count(), list(SceneTrait.objects.values_list("text", flat=True))
    response = client.post(url, data, **HX)
    after = TableEvent.objects.count(), list(SceneTrait.objects.values_list("text", flat=True))
    assert response.status_code == 200 and after == before
    return response.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "add", "text": "Dock\x00s"},
        {"action": "add", "text": "Docks", "kind": "trait\x00"},
        {"action": "edit", "text": "Thick\x00fog"},
        # The 2d20 composer's verdict: its attribute and skill become the event's words.
        {"action": "impossible", "attribute": "Power\x00", "skill": "Communicate"},
        {"action": "add", "text": "Docks", "\x00": "x"},  # a name, too
    ],
)
def test_a_nul_in_a_scene_board_command_is_refused_in_the_board(
    client_for, d20_campaign, fog, kara, data
):
    data = {"trait": fog.pk, "settle_trait": fog.pk, "character": kara.pk, **data}
    html = refused(client_for("gm"), reverse("board_command", args=[d20_campaign.pk]), data)
    assert 'id="scene-board"' in html and REFUSED in html


def test_without_htmx_the_refusal_is_the_table_pages_message(client_for, d20_campaign, fog):
    client = client_for("gm")
    url = reverse("board_command", args=[d20_campaign.pk])
    response = client.post(url, {"action": "add", "text": "Dock\x00s"})
    assert response.status_code == 302 and response.url == reverse("table", args=[d20_campaign.pk])
    assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
    assert not SceneTrait.objects.filter(text__startswith="Dock").exists()


def test_a_nul_in_a_harm_or_task_command_is_refused(client_for, d20_campaign, fog, kara):
    client = client_for("gm")
    harm = {"action": "recover", "character": kara.pk, "track": "stress", "amount": 1}
    html = refused(
        client, reverse("harm_command", args=[d20_campaign.pk]), harm | {"reason": "\x00"}
    )
    assert REFUSED in html
    task = {"action": "create", "name": "Climb\x00", "work": 4}
    assert REFUSED in refused(client, reverse("task_command", args=[d20_campaign.pk]), task)


def test_a_nul_in_a_voids_reason_is_refused_in_the_gm_panel(client_for, d20_campaign, fog):
    event = sessions.adjust_pool(d20_campaign.pk, d20_campaign.owner, "group_momentum", 1, "Gift")
    url = reverse("gm_void", args=[d20_campaign.pk, event.seq])
    html = refused(client_for("gm"), url, {"reason": "Mis\x00click"})
    assert 'id="gm-panel"' in html and REFUSED in html
    event.refresh_from_db()
    assert event.voided_by is None


def test_undecodable_text_is_not_stored(client_for, d20_campaign, fog):
    """Lone surrogates (PostgreSQL's other refusal) cannot arrive: Django reads a body's
    bytes with errors="replace", so a UTF-16 surrogate's bytes become U+FFFD."""
    body = "action=add&text=A%ED%A0%80B%C0%80C"  # a lone surrogate, an overlong NUL
    url = reverse("board_command", args=[d20_campaign.pk])
    response = client_for("gm").generic(
        "POST", url, body, "application/x-www-form-urlencoded", **HX
    )
    assert response.status_code == 200
    assert SceneTrait.objects.filter(text="A\ufffd\ufffd\ufffdB\ufffd\ufffdC").exists()

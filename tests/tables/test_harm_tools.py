"""The GM's harm tools are one small form per job (SC-02; issue: harm is a chore): a roll's
damage, recovery, a track's size and harm marked by hand each ask only what they need,
and each works as the page sends it."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables.models import HarmTrack
from tables.services import sessions

pytestmark = pytest.mark.django_db


class Tools(HTMLParser):
    """The harm tools' forms: for each, its hidden action, its fields' names and values."""

    def __init__(self):
        super().__init__()
        self.forms, self._form = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "harm-tool" in (attrs.get("class") or "").split():
            self._form = {"fields": {}}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "select") and attrs.get("name"):
            self._form["fields"].setdefault(attrs["name"], attrs.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def tools(client, campaign) -> dict:
    parser = Tools()
    parser.feed(client.get(reverse("table", args=[campaign.pk])).content.decode())
    return {form["fields"]["action"]: form["fields"] for form in parser.forms}


def test_sc_02_four_small_tools_each_with_its_own_fields(client_for, d20_campaign, gm):
    sessions.start_scene(d20_campaign.pk, gm, "Bridge")
    found = tools(client_for("gm"), d20_campaign)
    assert set(found) == {"hit", "recover", "set_track", "mark"}
    assert {"roll_seq", "amount", "bonus", "soak", "track"} <= set(found["hit"])
    assert "maximum" in found["set_track"] and "amount" not in found["set_track"]
    assert "roll_seq" not in found["recover"] and "reason" in found["recover"]


def test_sc_02_a_momenta_hit_tool_asks_no_track(client_for, momenta_campaign, gm):
    sessions.start_scene(momenta_campaign.pk, gm, "Docks")
    found = tools(client_for("gm"), momenta_campaign)
    assert "track" not in found["hit"]  # the attack's template names it (D6-04)
    assert "track" in found["recover"]


def test_sc_02_the_size_and_recovery_tools_work_as_sent(client_for, d20_campaign, gm, kara):
    d20_campaign.game_line = "sta1"
    d20_campaign.save(update_fields=["game_line"])
    sessions.start_scene(d20_campaign.pk, gm, "Bridge")
    client = client_for("gm")
    url = reverse("harm_command", args=[d20_campaign.pk])
    size = {"action": "set_track", "character": kara.pk, "track": "stress", "maximum": 9}
    assert client.post(url, size, headers={"HX-Request": "true"}).status_code == 200
    assert HarmTrack.objects.get(character=kara, track="stress").maximum == 9
    harm_row = HarmTrack.objects.get(character=kara, track="stress")
    harm_row.taken = 4
    harm_row.save()
    back = {"action": "recover", "character": kara.pk, "track": "stress", "amount": 3}
    answer = client.post(url, {**back, "reason": "A breather"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert HarmTrack.objects.get(character=kara, track="stress").taken == 1
    # Recovery without a reason is refused in the page and changes nothing.
    answer = client.post(url, back, headers={"HX-Request": "true"})
    assert 'role="alert"' in answer.content.decode()
    assert HarmTrack.objects.get(character=kara, track="stress").taken == 1

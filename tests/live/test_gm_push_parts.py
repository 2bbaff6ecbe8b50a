"""The GM's push draws only the GM tools' parts its event changes, never fewer (issue 10).

A plain public roll redraws neither the secret lists nor the Assist queue (it changes
neither; drawing them cost the GM's render twice the players'). But whatever an event
does change must arrive live ("Every region live"): after every command of a long
scripted game, in both systems, each GM tools part on a freshly drawn GM page equals
what the page shows after its first draw plus every push since (tables/live/gm_parts.py).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables import events
from tables.live import render
from tables.models import Campaign, TableEvent
from tables.presenters.table import GM
from tables.services import calls, campaigns, corrections, momenta, sessions, talk
from tables.services import d20 as services_d20
from tables.services import game_lines as services_lines
from tables.services import gm as services_gm
from tables.services.characters import Sheet, save_character
from tables.services.d20 import D20TestRequest

pytestmark = pytest.mark.django_db

# The GM tools' parts a push may carry (partials/push_gm.html), by their stable ids.
GM_PARTS = (
    "gm-threat-heading",
    "gm-threat-expected",
    "gm-threat-visibility",
    "gm-session-line",
    "gm-open-contests",
    "gm-secret-tests",
    "gm-custom-spends",
    "gm-scene-complications",
    "momenta-secret-list",
    "momenta-assist-queue",
)
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Elements(HTMLParser):
    """Each wanted element as a tuple of tokens, minus what differs between two draws of
    the same state: the out-of-band marker a push adds, and CSRF tokens."""

    def __init__(self, ids):
        super().__init__(convert_charrefs=True)
        self.ids, self.found, self.open = set(ids), {}, []  # open: [id, depth, tokens]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("name") == "csrfmiddlewaretoken":
            return
        token = ("<", tag, tuple(sorted((k, v) for k, v in attrs.items() if k != "hx-swap-oob")))
        for grab in self.open:
            grab[2].append(token)
            grab[1] += tag not in VOID
        if attrs.get("id") in self.ids and attrs["id"] not in self.found:
            self.found[attrs["id"]] = None
            grab = [attrs["id"], int(tag not in VOID), [token]]
            self.open.append(grab)
            if not grab[1]:
                self._close(grab)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        for grab in list(self.open):
            grab[2].append(("/", tag))
            grab[1] -= 1
            if grab[1] == 0:
                self._close(grab)

    def handle_data(self, data):
        text = " ".join(data.split())
        for grab in self.open:
            if text:
                grab[2].append(text)

    def _close(self, grab):
        self.open.remove(grab)
        self.found[grab[0]] = tuple(grab[2])


def elements(html: str, ids=GM_PARTS) -> dict[str, tuple]:
    parser = _Elements(ids)
    parser.feed(html)
    parser.close()
    return {k: v for k, v in parser.found.items() if v is not None}


def text(tokens: tuple) -> str:
    return " ".join(t for t in tokens if isinstance(t, str))


def gm_push(event: TableEvent) -> str:
    return render.render_event_fragments(event, GM)


class GmPage:
    """The GM's page as it stands: drawn once, then every push applied, in seq order."""

    def __init__(self, client, campaign):
        self.client, self.campaign = client, campaign
        self.shown = self.fresh()
        self.seq = Campaign.objects.get(pk=campaign.pk).last_seq
        self.kinds: list[str] = []

    def fresh(self) -> dict[str, tuple]:
        response = self.client.get(reverse("table", args=[self.campaign.pk]))
        assert response.status_code == 200
        return elements(response.content.decode())

    def after(self, step: str) -> None:
        """Push what `step` appended, as the fan-out would right after its commit, then
        check the page against a fresh draw: every stale part names its event."""
        new = render.next_events(self.campaign.pk, self.seq)
        assert new, f"{step}: appended nothing"
        pushed = {}
        for event in new:
            for part, drawn in elements(gm_push(event)).items():
                pushed[part] = f"#{event.seq} {event.kind}"
                if part in self.shown:  # a part this campaign's page has
                    self.shown[part] = drawn
            self.kinds.append(event.kind)
        self.seq = new[-1].seq
        fresh = self.fresh()
        stale = {
            part: pushed.get(part, "not pushed")
            for part in fresh
            if fresh[part] != self.shown.get(part)
        }
        assert not stale, f"after {step} ({[e.kind for e in new]}): stale GM parts {stale}"


# --- What a push carries, and what it leaves out ----------------------------------------------


@pytest.fixture
def busy_d6(momenta_campaign, gm, player2, hero, sidekick, d6_faces):
    """A Momenta table whose GM tools have something in them: a secret roll, an open Assist."""
    sessions.start_session(momenta_campaign.pk, gm)
    d6_faces([5, 5, 1, 2])
    hidden = momenta.roll_momenta(
        momenta_campaign.pk, gm, hero.pk, momenta.RollRequest(attribute="WITS", secret=True)
    )
    assist = momenta.request_assist(momenta_campaign.pk, player2, hero.pk, sidekick.pk)
    momenta.answer_assist(momenta_campaign.pk, gm, assist.pk, "accept")
    return hidden, assist


def test_a_plain_public_momenta_roll_pushes_its_card_and_pools_but_no_gm_tools(
    busy_d6, momenta_campaign, player, hero, d6_faces
):
    d6_faces([6, 1, 2])
    plain = momenta.roll_momenta(
        momenta_campaign.pk, player, hero.pk, momenta.RollRequest(attribute="GRIT")
    )
    html = gm_push(plain.event)
    seq = plain.event.seq
    assert f'id="event-{seq}"' in html and 'id="pools"' in html
    assert f'id="character-{hero.pk}"' in html
    # It changed no secret roll, no Assist, no session: none of them is read or drawn.
    assert elements(html) == {}


def test_a_secret_roll_and_its_patterns_push_the_gm_secret_rolls_list(
    busy_d6, momenta_campaign, gm, hero
):
    hidden, _ = busy_d6
    hidden.event.refresh_from_db()
    listed = elements(gm_push(hidden.event))
    assert set(listed) == {"momenta-secret-list"}
    assert f"#{hidden.event.seq} Ash" in text(listed["momenta-secret-list"])  # its line
    patterns = momenta.choose_allocation(momenta_campaign.pk, gm, hidden.pk, None)
    listed = elements(gm_push(patterns))
    assert "Success with a Bonus" in text(listed["momenta-secret-list"])  # the new outcome


def test_a_roll_using_an_assist_pushes_the_queue_without_it(
    busy_d6, momenta_campaign, player, hero, d6_faces
):
    _, assist = busy_d6
    d6_faces([1, 2, 3, 4, 6])
    used = momenta.roll_momenta(
        momenta_campaign.pk,
        player,
        hero.pk,
        momenta.RollRequest(attribute="WITS", assist_id=assist.pk),
    )
    parts = elements(gm_push(used.event))
    assert set(parts) == {"momenta-assist-queue"}
    assert "No Assist is waiting." in text(parts["momenta-assist-queue"])


def test_a_plain_public_2d20_test_pushes_no_gm_tools_but_threat_bought_pushes_the_heading(
    d20_campaign, gm, player, kara, d20_faces
):
    sessions.start_session(d20_campaign.pk, gm)
    d20_faces([2, 5, 2, 5, 19])
    args = {"attribute": "Power", "skill": "Communicate", "difficulty": 1}
    plain = services_d20.roll_d20_test(
        d20_campaign.pk, player, kara.pk, services_d20.D20TestRequest(**args)
    )
    html = gm_push(plain.event)
    assert f'id="event-{plain.event.seq}"' in html and 'id="pools"' in html
    assert elements(html) == {}
    bought = services_d20.roll_d20_test(
        d20_campaign.pk, player, kara.pk, services_d20.D20TestRequest(bought_dice=1, **args)
    )
    assert set(elements(gm_push(bought.event))) == {
        "gm-threat-heading",
        "gm-threat-expected",
        "gm-threat-visibility",
    }
    spent = services_gm.spend_threat(d20_campaign.pk, gm, 1, "Reinforcements")
    assert "gm-threat-heading" in elements(gm_push(spent))


def test_gl_05_the_scene_complication_form_is_pushed_when_its_range_changes_only(
    d20_campaign, gm, player, kara, marcus, d20_faces
):
    """A co-GM's form shows the range another GM set, live; a plain roll or a rename leaves
    the form alone (a GM may be typing a range into it)."""
    sessions.start_scene(d20_campaign.pk, gm, "The bridge")
    set_range = services_lines.set_scene_complication_range(d20_campaign.pk, gm, 3)
    form = elements(gm_push(set_range))
    assert set(form) == {"gm-scene-complications"}
    (range_input,) = [t for t in form["gm-scene-complications"] if t[:2] == ("<", "input")]
    assert ("name", "range") in range_input[2] and ("value", "3") in range_input[2]
    assert "This scene: 3" in text(form["gm-scene-complications"])
    d20_faces([2, 5])
    plain = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1),
    )
    assert "gm-scene-complications" not in elements(gm_push(plain.event))
    renamed = save_character(d20_campaign.pk, gm, _sheet("Marius"), marcus.pk)
    event = TableEvent.objects.filter(campaign=d20_campaign).latest("seq")
    assert renamed.name == "Marius" and event.kind == "character_updated"
    assert "gm-scene-complications" not in elements(gm_push(event))
    ended = sessions.end_scene(d20_campaign.pk, gm)
    assert "The campaign's: 1" in text(elements(gm_push(ended))["gm-scene-complications"])


def test_a_secret_test_and_a_contest_push_their_lists(
    d20_campaign, gm, player, kara, marcus, d20_faces
):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    d20_faces([2, 5, 3, 4])
    hidden = services_d20.roll_d20_test(
        d20_campaign.pk,
        gm,
        marcus.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", secret=True),
    )
    assert set(elements(gm_push(hidden.event))) == {"gm-secret-tests"}
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate"
    )
    opened = TableEvent.objects.filter(campaign=d20_campaign).latest("seq")
    assert opened.kind == "contest_opened"
    assert set(elements(gm_push(opened))) == {"gm-open-contests"}
    cancelled = services_d20.cancel_contest(d20_campaign.pk, gm, contest.pk)
    assert set(elements(gm_push(cancelled))) == {"gm-open-contests"}


# --- The strong one: a whole game, checked after every command -----------------------------


def _sheet(name, **pools):
    return Sheet(fields={"name": name, "notes": "", **pools})


def play_d6(page, c, gm, player, player2, hero, sidekick, faces, outsider):
    """Every kind a Momenta table appends, each followed by page.after()."""
    pk = c.pk

    def step(name, command):
        command()
        page.after(name)

    step("session", lambda: sessions.start_session(pk, gm))
    step("scene", lambda: sessions.start_scene(pk, gm, "The docks"))
    step("note", lambda: sessions.post_note(pk, gm, "Rain"))
    step("talk", lambda: talk.post_talk(pk, player, talk.IN_CHARACTER, "Wet again"))
    step("to the GM", lambda: talk.post_talk(pk, player, talk.TO_GM, "I pocket the key"))
    faces([6, 1, 2])
    step("plain roll", lambda: roll(pk, player, hero, "GRIT"))
    faces([5, 5, 1, 2, 5, 5, 1, 2])
    hidden = roll(pk, gm, hero, "WITS", secret=True)
    page.after("secret roll")
    kept = roll(pk, gm, hero, "WITS", secret=True)
    page.after("another secret roll")
    step("its patterns", lambda: momenta.choose_allocation(pk, gm, hidden.pk, None))
    assist = momenta.request_assist(pk, player2, hero.pk, sidekick.pk)
    page.after("assist offered")
    step("assist accepted", lambda: momenta.answer_assist(pk, gm, assist.pk, "accept"))
    # Names the secret list and the queue show.
    step("rename roller", lambda: save_character(pk, player, _sheet("Ashe"), hero.pk))
    step("rename helper", lambda: save_character(pk, player2, _sheet("Bodo"), sidekick.pk))
    faces([1, 2, 3, 4, 6])
    step("assisted roll", lambda: roll(pk, player, hero, "WITS", assist_id=assist.pk))
    asked = momenta.request_assist(pk, player, hero.pk, sidekick.pk)
    page.after("assist asked")
    step("helper declines", lambda: momenta.answer_as_helper(pk, player2, asked.pk, agree=False))
    tested = momenta.request_assist(pk, player2, hero.pk, sidekick.pk)
    page.after("assist asked again")
    step("test called", lambda: momenta.answer_assist(pk, gm, tested.pk, "call_test"))
    step("test passed", lambda: momenta.answer_assist(pk, gm, tested.pk, "test_passed"))
    step("dropped", lambda: momenta.answer_assist(pk, gm, tested.pk, "decline"))
    step("revealed", lambda: momenta.reveal_roll(pk, gm, hidden.pk))
    step("trauma", lambda: momenta.record_trauma(pk, gm, hero.pk, 1))
    gift = sessions.adjust_pool(pk, gm, "momentum", -1, "A slip", character_id=hero.pk)
    page.after("pool adjusted")
    step("voided", lambda: corrections.void_event(pk, gm, gift.seq, "Wrong hero"))
    saved = momenta.save_roll_template(
        pk, gm, {"name": "Hack", "bands": ["Alarm", "Slow", "In", "Root"], "overflow": "+1"}
    )
    page.after("template saved")
    step("template removed", lambda: momenta.delete_roll_template(
        pk, gm, saved.payload["template_id"]))  # fmt: skip
    step("pattern", lambda: momenta.save_custom_pattern(
        pk, gm, {"name": "Lucky Streak", "kind": "quad", "effect": "text", "description": "C"}
    ))  # fmt: skip
    step("settings", lambda: campaigns.update_campaign_settings(pk, gm, {"threat_visible": True}))
    step("character", lambda: save_character(pk, player, _sheet("Cass", resolve=2, resolve_max=3)))
    call = calls.call_test(pk, gm, character_id=hero.pk, attribute="WITS", difficulty=1)
    page.after("test called")
    faces([6, 6, 1, 2])
    step("call answered", lambda: calls.answer_momenta_call(
        pk, player, call.pk, hero.pk, momenta.RollRequest(attribute="WITS")))  # fmt: skip
    step("call withdrawn", lambda: calls.cancel_call(
        pk, gm, calls.call_test(pk, gm, character_id=None, attribute="WITS").pk))  # fmt: skip
    step("scene ends", lambda: sessions.end_scene(pk, gm))
    step("invite", lambda: campaigns.regenerate_invite(pk, gm))
    joined = campaigns.join_campaign(Campaign.objects.get(pk=pk).invite_token, outsider, "player")
    page.after("joined")
    step("promoted", lambda: campaigns.promote_member(pk, gm, joined.pk))
    step("removed", lambda: campaigns.remove_member(pk, gm, joined.pk))
    step("kept revealed", lambda: momenta.reveal_roll(pk, gm, kept.pk))


def roll(pk, actor, character, attribute, **request):
    return momenta.roll_momenta(
        pk, actor, character.pk, momenta.RollRequest(attribute=attribute, **request)
    )


def play_d20(page, c, gm, player, kara, marcus, faces):
    """Every kind a 2d20 table appends, each followed by page.after()."""
    pk = c.pk
    test_args = {"attribute": "Power", "skill": "Communicate"}

    def step(name, command):
        result = command()
        page.after(name)
        return result

    step("session", lambda: sessions.start_session(pk, gm))
    step("threat added", lambda: services_gm.add_threat(pk, gm, 3, "Ambush"))
    step("threat spent", lambda: services_gm.spend_threat(pk, gm, 1, "Reinforcements"))
    step("spend saved", lambda: services_gm.save_custom_spend(pk, gm, name="Called Shot", cost=2))
    spend = c.custom_spends.get(name="Called Shot")
    step("spend removed", lambda: services_gm.delete_custom_spend(pk, gm, spend.pk))
    faces([2, 5, 19])
    test = step("bought d20", lambda: services_d20.roll_d20_test(
        pk, player, kara.pk, D20TestRequest(difficulty=0, bought_dice=1, **test_args)))  # fmt: skip
    step("permitted", lambda: services_gm.permit_determination(pk, gm, test.pk))
    faces([3])
    step("reroll", lambda: services_d20.determination_reroll(pk, player, test.pk, [1]))
    for n in range(2):
        step(f"spend {n}", lambda: services_d20.spend_momentum(
            pk, player, test.pk, "obtain_information"))  # fmt: skip
    step("refund", lambda: services_d20.refund_dont_know(pk, gm, test.pk, 0))
    step("veto", lambda: services_d20.veto_spend(pk, gm, test.pk, 1))
    step("resolved", lambda: services_d20.resolve_test(pk, player, test.pk))
    faces([2, 5, 2, 6])
    hidden = step("secret test", lambda: services_d20.roll_d20_test(
        pk, gm, marcus.pk, D20TestRequest(difficulty=0, secret=True, **test_args)))  # fmt: skip
    kept = step("another secret test", lambda: services_d20.roll_d20_test(
        pk, gm, marcus.pk, D20TestRequest(difficulty=1, secret=True, **test_args)))  # fmt: skip
    step("secret permitted", lambda: services_gm.permit_determination(pk, gm, kept.pk))
    step("rename", lambda: save_character(pk, gm, _sheet("Marius"), marcus.pk))
    step("secret revealed", lambda: services_gm.reveal_test(pk, gm, hidden.pk))
    faces([3, 4])
    contest = step("contest", lambda: services_d20.contest_opposer_roll(
        pk, gm, marcus.pk, kara.pk, **test_args))  # fmt: skip
    step("called off", lambda: services_d20.cancel_contest(pk, gm, contest.pk))
    faces([3, 4, 2, 5])
    contest = step("contest again", lambda: services_d20.contest_opposer_roll(
        pk, gm, marcus.pk, kara.pk, **test_args))  # fmt: skip
    answering = D20TestRequest(difficulty=0, contest_id=contest.pk, **test_args)
    answer = step("answered", lambda: services_d20.roll_d20_test(pk, player, kara.pk, answering))
    step("contest resolved", lambda: services_d20.resolve_test(pk, player, answer.pk))
    step("shown", lambda: services_gm.set_threat_visible(pk, gm, True))
    step("line", lambda: campaigns.update_campaign_settings(pk, gm, {"game_line": "sta1"}))
    step("scene", lambda: sessions.start_scene(pk, gm, "The bridge"))
    step("range", lambda: services_lines.set_scene_complication_range(pk, gm, 3))
    step("range cleared", lambda: services_lines.set_scene_complication_range(pk, gm, None))
    step("range again", lambda: services_lines.set_scene_complication_range(pk, gm, 5))
    step("campaign's range", lambda: campaigns.update_campaign_settings(
        pk, gm, {"complication_range": 2}))  # fmt: skip
    faces([1, 5])
    step("challenge", lambda: services_lines.roll_challenge_dice(
        pk, player, 2, character_id=kara.pk))  # fmt: skip
    step("pool", lambda: sessions.adjust_pool(pk, gm, "threat", 2, "Alarms"))
    step("scene ends", lambda: sessions.end_scene(pk, gm))  # and clears the scene's range
    step("kept revealed", lambda: services_gm.reveal_test(pk, gm, kept.pk))


def test_every_gm_part_a_momenta_game_changes_is_pushed_as_it_changes(
    client, momenta_campaign, gm, player, player2, hero, sidekick, outsider, d6_faces
):
    client.force_login(gm)
    page = GmPage(client, momenta_campaign)
    assert {"gm-session-line", "momenta-secret-list", "momenta-assist-queue"} <= set(page.shown)
    play_d6(page, momenta_campaign, gm, player, player2, hero, sidekick, d6_faces, outsider)
    # The game was broad: every kind of Momenta play and of the table's life turned up.
    played = set(page.kinds)
    momenta_kinds = {k.name for k in (events.MOMENTA_ROLL, events.MOMENTA_PATTERNS,
                     events.ASSIST_REQUESTED, events.ASSIST_ANSWERED, events.ASSIST_CONSENT,
                     events.ROLL_REVEALED, events.CHARACTER_UPDATED, events.VOIDED)}  # fmt: skip
    assert momenta_kinds <= played


def test_every_gm_part_a_2d20_game_changes_is_pushed_as_it_changes(
    client, d20_campaign, gm, player, kara, marcus, d20_faces
):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    client.force_login(gm)
    page = GmPage(client, d20_campaign)
    assert {"gm-threat-heading", "gm-open-contests", "gm-secret-tests"} <= set(page.shown)
    assert "gm-scene-complications" in page.shown
    play_d20(page, d20_campaign, gm, player, kara, marcus, d20_faces)
    d20_kinds = {k.name for k in events.REGISTRY.values() if k.record and events.TEST in k.records}
    assert d20_kinds - {events.CALL_ANSWERED.name} <= set(page.kinds)
    assert {"threat_added", "threat_spent", "settings_changed"} <= set(page.kinds)
    assert {"complication_range_set", "scene_ended"} <= set(page.kinds)

"""Table talk (issue 15): in character, out of character, and private messages to the GM.

A message to the GM is seen by the GMs and its sender only, on every path: the log and
its pages, the command's answer, exports, Discord (never), corrections (never voided).
The live paths (push, replay) are in tests/live/test_table_talk.py.
"""

import json
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tables import events
from tables.discord import embeds
from tables.exports.dump import export_campaign
from tables.live import frames, table_page
from tables.live import log_page as pages
from tables.live import render as live
from tables.models import Campaign, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import corrections, sessions, talk
from tables.services import gm as services_gm
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def say(campaign, who, mode, text):
    return talk.post_talk(campaign.pk, who, mode, text)


def log_seqs(html: str) -> list[int]:
    return [int(s) for s in re.findall(r'id="event-(\d+)" data-seq="\d+"', html)]


def page_for(campaign, member, show="all"):
    """The first log page as the table page draws it for `member`."""
    membership = campaign.memberships.get(user=member)
    return table_page.table_context(campaign.pk, membership, show=show)["log_page"]


# --- The service: each mode ------------------------------------------------------------------


@pytest.mark.parametrize("mode", [talk.IN_CHARACTER, talk.OUT_OF_CHARACTER])
def test_a_player_says_something_for_everyone(momenta_campaign, player, mode):
    event = say(momenta_campaign, player, mode, "  The tide turns.  ")
    assert (event.kind, event.audience, event.actor) == ("talk", "all", player)
    assert event.payload == {"mode": mode, "text": "The tide turns.", "changes": []}
    assert Campaign.objects.get(pk=momenta_campaign.pk).last_seq == event.seq


def test_a_message_to_the_gm_is_stored_for_the_gms_and_names_its_sender(momenta_campaign, player):
    event = say(momenta_campaign, player, talk.TO_GM, "I keep the key")
    assert (event.kind, event.audience, event.actor) == ("talk_private", "gm", player)
    assert events.TALK_PRIVATE.audience == events.PRIVATE


def test_a_gm_may_talk_in_every_mode(momenta_campaign, gm, cogm):
    said = [mode for mode in talk.MODES if mode != talk.WHISPER]  # a whisper names its player
    kinds = [say(momenta_campaign, gm, mode, "Hm").kind for mode in said]
    assert kinds == ["talk", "talk", "talk_private"]
    assert say(momenta_campaign, cogm, talk.OUT_OF_CHARACTER, "Snacks?").actor == cogm


def test_a_private_kind_cannot_be_appended_for_everyone_or_without_its_sender(momenta_campaign, gm):
    from tables.services.core import append_event, lock_campaign

    campaign = lock_campaign(momenta_campaign.pk)
    with pytest.raises(ValueError, match="their actor only"):
        append_event(campaign, events.TALK_PRIVATE, gm, {"text": "x"})
    with pytest.raises(ValueError, match="their actor only"):
        append_event(campaign, events.TALK_PRIVATE, None, {"text": "x"}, audience="gm")
    assert not TableEvent.objects.filter(kind="talk_private").exists()


# --- Who may post, and what ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["observer", "outsider"])
def test_observers_and_outsiders_cannot_post(request, momenta_campaign, who):
    with pytest.raises(PermissionDenied, match="Observers watch"):
        say(momenta_campaign, request.getfixturevalue(who), talk.IN_CHARACTER, "Hello")
    assert not TableEvent.objects.filter(campaign=momenta_campaign).exists()


def test_a_membership_read_for_someone_else_is_not_trusted(momenta_campaign, player, observer):
    """The view passes the membership it read (views/access.player_at): the service
    keeps it only if it is the actor's at this table, else reads the actor's own."""
    players = momenta_campaign.memberships.get(user=player)
    with pytest.raises(PermissionDenied, match="Observers watch"):
        talk.post_talk(momenta_campaign.pk, observer, talk.IN_CHARACTER, "Hi", membership=players)
    watching = momenta_campaign.memberships.get(user=observer)
    with pytest.raises(PermissionDenied, match="Observers watch"):
        talk.post_talk(momenta_campaign.pk, observer, talk.IN_CHARACTER, "Hi", membership=watching)
    assert not TableEvent.objects.filter(campaign=momenta_campaign).exists()
    said = talk.post_talk(momenta_campaign.pk, player, talk.IN_CHARACTER, "Hi", membership=players)
    assert said.actor == player


@pytest.mark.parametrize(
    ("mode", "text", "refusal"),
    [
        (talk.IN_CHARACTER, "", talk.EMPTY),
        (talk.OUT_OF_CHARACTER, " \n\t ", talk.EMPTY),
        (talk.TO_GM, "\x00\x07", talk.EMPTY),  # nothing left once control characters go
        (talk.IN_CHARACTER, "x" * (talk.MAX_LENGTH + 1), talk.TOO_LONG),
        ("shout", "Hello", talk.NO_MODE),
        ("", "Hello", talk.NO_MODE),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(momenta_campaign, player, mode, text, refusal):
    with pytest.raises(ServiceError) as refused:
        say(momenta_campaign, player, mode, text)
    assert str(refused.value) == refusal
    assert Campaign.objects.get(pk=momenta_campaign.pk).last_seq == 0
    assert not TableEvent.objects.exists()


def test_a_message_of_exactly_the_limit_is_kept_whole(momenta_campaign, player):
    text = "y" * talk.MAX_LENGTH
    assert say(momenta_campaign, player, talk.IN_CHARACTER, text).payload["text"] == text


def test_control_characters_are_dropped_and_line_breaks_kept(momenta_campaign, player):
    event = say(momenta_campaign, player, talk.IN_CHARACTER, "one\r\ntwo\x00\tthree")
    assert event.payload["text"] == "one\ntwo\tthree"


# --- The view ---------------------------------------------------------------------------------


def post(client, campaign, mode, text, **extra):
    return client.post(
        reverse("table_talk", args=[campaign.pk]), {"mode": mode, "text": text}, **extra
    )


def test_the_senders_answer_carries_the_card_escaped_and_keeps_the_mode(
    client_for, momenta_campaign
):
    answer = post(client_for("player"), momenta_campaign, "ooc", "<b>brb</b> & tea", **HX)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "&lt;b&gt;brb&lt;/b&gt; &amp; tea" in html and "<b>brb</b>" not in html
    assert "Out of character" in html
    assert re.search(r'<option value="ooc" selected>', html)  # the next message: same mode
    assert 'name="text"' in html and "brb</textarea>" not in html  # the box is empty again


def test_the_senders_answer_carries_their_private_message(client_for, momenta_campaign):
    html = post(client_for("player"), momenta_campaign, "gm", "Psst", **HX).content.decode()
    assert "Psst" in html and "To the GM" in html and 'id="event-1"' in html


def test_an_observer_gets_403_and_nothing_is_posted(client_for, momenta_campaign):
    answer = post(client_for("observer"), momenta_campaign, "ic", "Hello", **HX)
    assert answer.status_code == 403
    assert post(client_for("outsider"), momenta_campaign, "ic", "Hello").status_code == 403
    assert not TableEvent.objects.exists()


def test_a_refusal_is_shown_in_the_form_with_the_text_kept(client_for, momenta_campaign):
    long = "z" * (talk.MAX_LENGTH + 1)
    html = post(client_for("player"), momenta_campaign, "ic", long, **HX).content.decode()
    assert str(talk.TOO_LONG) in html and f">{long}</textarea>" in html
    html = post(client_for("player"), momenta_campaign, "shout", "Hi", **HX).content.decode()
    assert str(talk.NO_MODE) in html
    html = post(client_for("player"), momenta_campaign, "ic", "   ", **HX).content.decode()
    assert str(talk.EMPTY) in html
    assert not TableEvent.objects.exists()


def test_without_htmx_the_post_goes_back_to_the_table(client_for, momenta_campaign):
    answer = post(client_for("player"), momenta_campaign, "ic", "Hello")
    assert answer.status_code == 302 and answer.url == reverse("table", args=[momenta_campaign.pk])
    assert TableEvent.objects.get().payload["text"] == "Hello"


def test_the_table_page_has_the_form_for_players_and_gms_not_observers(
    client_for, momenta_campaign
):
    url = reverse("table", args=[momenta_campaign.pk])
    for role in ("gm", "player"):
        assert 'id="talk-form"' in client_for(role).get(url).content.decode(), role
    assert 'id="talk-form"' not in client_for("observer").get(url).content.decode()


# --- Who sees a message to the GM in the log ---------------------------------------------------


@pytest.fixture
def chat(momenta_campaign, gm, player, player2):
    """#1 public, #2 player's private, #3 player2's private, #4 public."""
    return [
        say(momenta_campaign, player, talk.IN_CHARACTER, "We ride at dawn"),
        say(momenta_campaign, player, talk.TO_GM, "secret of player"),
        say(momenta_campaign, player2, talk.TO_GM, "secret of player2"),
        say(momenta_campaign, gm, talk.OUT_OF_CHARACTER, "Pizza is here"),
    ]


def test_the_log_shows_a_private_message_to_the_gms_and_its_sender_only(
    momenta_campaign, chat, gm, cogm, player, player2, observer
):
    seen = {
        user.username: [e.seq for e in page_for(momenta_campaign, user).entries]
        for user in (gm, cogm, player, player2, observer)
    }
    assert seen == {
        "gm": [4, 3, 2, 1],
        "cogm": [4, 3, 2, 1],
        "player": [4, 2, 1],
        "player2": [4, 3, 1],
        "observer": [4, 1],
    }


def test_the_table_page_and_the_talk_filter_keep_other_players_secrets(
    client_for, momenta_campaign, chat
):
    url = reverse("table", args=[momenta_campaign.pk])
    html = client_for("player").get(url).content.decode()
    assert "secret of player" in html and "secret of player2" not in html
    log_url = reverse("table_log", args=[momenta_campaign.pk])
    html = client_for("player2").get(log_url, {"show": "talk"}, **HX).content.decode()
    assert log_seqs(html) == [4, 3, 1] and "secret of player<" not in html
    html = client_for("gm").get(log_url, {"show": "talk"}, **HX).content.decode()
    assert log_seqs(html) == [4, 3, 2, 1]


def test_older_pages_keep_private_messages_to_their_sender(
    client_for, momenta_campaign, gm, player, player2
):
    """Paging with `before` applies the same per-person rule as the first page."""
    mine, theirs = [], []
    for n in range(live.LOG_LIMIT + 10):
        mine.append(say(momenta_campaign, player, talk.TO_GM, f"mine {n}").seq)
        theirs.append(say(momenta_campaign, player2, talk.TO_GM, f"theirs {n}").seq)
    log_url = reverse("table_log", args=[momenta_campaign.pk])
    first = page_for(momenta_campaign, player)
    assert [e.seq for e in first.entries] == sorted(mine, reverse=True)[: live.LOG_LIMIT]
    html = client_for("player").get(log_url, {"before": first.older}, **HX).content.decode()
    assert log_seqs(html) == sorted(mine, reverse=True)[live.LOG_LIMIT :]
    assert "theirs" not in html
    html = client_for("observer").get(log_url, {"before": 10**6}, **HX).content.decode()
    assert log_seqs(html) == []


def test_the_talk_filter_keeps_notes_and_talk_and_drops_rolls_and_pools(
    momenta_campaign, gm, player, hero
):
    sessions.post_note(momenta_campaign.pk, gm, "Rain")
    sessions.adjust_pool(momenta_campaign.pk, gm, "momentum", 2, "Gift", character_id=hero.pk)
    say(momenta_campaign, player, talk.IN_CHARACTER, "Thanks")
    entries = page_for(momenta_campaign, player, show="talk").entries
    assert [e.kind for e in entries] == ["talk", "note"]
    assert [e.topics for e in entries] == [("talk",), ("talk",)]
    assert pages.parse_show("talk") == "talk"


def test_the_log_view_refuses_an_unknown_filter_naming_talk(client_for, momenta_campaign):
    answer = client_for("player").get(
        reverse("table_log", args=[momenta_campaign.pk]), {"show": "chat"}, **HX
    )
    assert answer.status_code == 400 and b"talk" in answer.content


def test_a_push_of_a_private_message_is_for_the_gm_audience_or_its_sender(
    momenta_campaign, player, player2
):
    event = say(momenta_campaign, player, talk.TO_GM, "hush")
    assert live.visible(event, GM, None)
    assert live.visible(event, ALL, player.pk)
    assert not live.visible(event, ALL, player2.pk)
    assert not live.visible(event, ALL, None)  # a path that does not know the viewer: GMs only
    batch = frames.events_after(momenta_campaign.pk, 0, ALL, viewer=player2.pk)
    assert batch == [(event.seq, "talk_private", None)]
    [(_, _, html)] = frames.events_after(momenta_campaign.pk, 0, ALL, viewer=player.pk)
    assert "hush" in html


# --- Corrections, Discord, exports ---------------------------------------------------------------


def test_a_message_is_never_voided(momenta_campaign, gm, player):
    event = say(momenta_campaign, player, talk.TO_GM, "hush")
    assert not corrections.voidable(event)
    with pytest.raises(ServiceError, match="not a roll or a spend"):
        corrections.void_event(momenta_campaign.pk, gm, event.seq, "Rude")
    assert TableEvent.objects.filter(campaign=momenta_campaign).count() == 1


def test_discord_never_posts_a_private_message(momenta_campaign, player, player2):
    Campaign.objects.filter(pk=momenta_campaign.pk).update(
        discord_webhook_url="https://discord.test/api/webhooks/1/a",
        discord_gm_webhook_url="https://discord.test/api/webhooks/2/b",
    )
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    for mode in talk.MODES:
        event = talk.post_talk(momenta_campaign.pk, player, mode, "words", recipient_id=player2.pk)
        assert embeds.post_for(event, campaign) is None, mode
    # Even a private event that carried a pool change would not go to the GM's channel.
    private = TableEvent(
        campaign=campaign,
        seq=99,
        kind="talk_private",
        audience="gm",
        payload={"changes": [{"pool": "threat", "delta": 1, "after": 1}]},
    )
    assert embeds.post_for(private, campaign) is None


def test_an_export_keeps_every_message_with_its_audience_and_sender(momenta_campaign, chat):
    document = json.loads(json.dumps(export_campaign(momenta_campaign), default=str))
    talk_rows = [e for e in document["events"] if e["kind"].startswith("talk")]
    assert [(e["kind"], e["audience"], e["actor"], e["payload"]["text"]) for e in talk_rows] == [
        ("talk", "all", "player", "We ride at dawn"),
        ("talk_private", "gm", "player", "secret of player"),
        ("talk_private", "gm", "player2", "secret of player2"),
        ("talk", "all", "gm", "Pizza is here"),
    ]
    assert document["campaign"]["mute_pool_chatter"] is False


# --- Muting one-point pool changes ------------------------------------------------------------


@pytest.fixture
def chatter(d20_campaign, gm):
    """#1 +1 Threat, #2 +3 Threat, #3 -1 Threat, #4 GM gives 1 group Momentum,
    #5 GM gives 2 group Momentum; Threat shown to players."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(threat_visible=True)
    services_gm.add_threat(d20_campaign.pk, gm, 1, "Tick")
    services_gm.add_threat(d20_campaign.pk, gm, 3, "Reinforcements")
    services_gm.spend_threat(d20_campaign.pk, gm, 1, "Complication")
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 1, "Nice")
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "Very nice")


def mute(campaign, on=True):
    Campaign.objects.filter(pk=campaign.pk).update(mute_pool_chatter=on)


def test_muting_hides_one_point_pool_cards_from_everyone(d20_campaign, chatter, gm, player):
    assert [e.seq for e in page_for(d20_campaign, player).entries] == [5, 4, 3, 2, 1]
    mute(d20_campaign)
    for who in (gm, player):
        assert [e.seq for e in page_for(d20_campaign, who).entries] == [5, 2], who
        assert [e.seq for e in page_for(d20_campaign, who, "pools").entries] == [5, 2], who
    # The ledger keeps every line.
    assert d20_campaign.pool_changes.count() == 5
    mute(d20_campaign, on=False)  # turned off: the cards are back
    assert [e.seq for e in page_for(d20_campaign, gm).entries] == [5, 4, 3, 2, 1]


def test_a_muted_change_still_pushes_its_pools_but_no_card(d20_campaign, gm):
    mute(d20_campaign)
    event = services_gm.add_threat(d20_campaign.pk, gm, 1, "Tick")
    html = live.render_event_fragments(event, GM)
    assert 'id="pools"' in html and "#roll-log" not in html and 'id="event-' not in html
    big = services_gm.add_threat(d20_campaign.pk, gm, 2, "Tock")
    assert "afterbegin:#roll-log" in live.render_event_fragments(big, GM)


def test_rolls_spends_and_talk_are_never_muted(momenta_campaign, gm, player, hero):
    mute(momenta_campaign)
    gift = sessions.adjust_pool(
        momenta_campaign.pk, gm, "momentum", 1, "Gift", character_id=hero.pk
    )
    corrections.void_event(momenta_campaign.pk, gm, gift.seq, "Oops")  # a one-point void
    say(momenta_campaign, player, talk.IN_CHARACTER, "Thanks anyway")
    kinds = [e.kind for e in page_for(momenta_campaign, gm).entries]
    assert kinds == ["talk", "voided"]  # the one-point hand gift is chatter, the void is not


def test_the_gm_turns_muting_on_in_the_settings(client_for, d20_campaign):
    from tables.forms.site import CampaignSettingsForm

    data = {**CampaignSettingsForm(instance=d20_campaign).initial, "mute_pool_chatter": "on"}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    answer = client_for("gm").post(reverse("campaign_settings", args=[d20_campaign.pk]), data)
    assert answer.status_code in (200, 302)
    assert Campaign.objects.get(pk=d20_campaign.pk).mute_pool_chatter is True
    answer = client_for("player").post(reverse("campaign_settings", args=[d20_campaign.pk]), data)
    assert answer.status_code == 403

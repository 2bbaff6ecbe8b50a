"""A whisper to one player (issue 37): seen by its sender, its recipient and the GMs
(unless the campaign keeps players' whispers from the GMs), on every path that reads the
log: the table page and its log pages and filter, the command's answer, replay, the
recap's rows, exports and Discord. The live push is in tests/live/test_table_whisper.py.
"""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tables.discord import embeds
from tables.exports.dump import export_campaign
from tables.live import frames, table_page
from tables.models import Campaign, Membership, TableEvent
from tables.presenters.table import ALL, GM
from tables.services import talk
from tables.services.core import ServiceError
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def player3(momenta_campaign):
    """A third player: the one a whisper between player and player2 leaves out."""
    user = make_user("player3")
    Membership.objects.create(campaign=momenta_campaign, user=user, role=Membership.Role.PLAYER)
    return user


def whisper(campaign, sender, recipient, text="Meet me at the mill"):
    return talk.post_talk(campaign.pk, sender, talk.WHISPER, text, recipient_id=recipient.pk)


def page_seqs(campaign, user, show="all") -> list[int]:
    membership = campaign.memberships.get(user=user)
    page = table_page.table_context(campaign.pk, membership, show=show)["log_page"]
    return [e.seq for e in page.entries]


def log_seqs(html: str) -> list[int]:
    return [int(s) for s in re.findall(r'id="event-(\d+)" data-seq="\d+"', html)]


def keep_whispers_from_gms(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(gm_reads_whispers=False)


# --- The service ------------------------------------------------------------------------------


def test_a_whisper_names_its_recipient_and_is_stored_for_the_gms(momenta_campaign, player, player2):
    event = whisper(momenta_campaign, player, player2)
    assert (event.kind, event.audience, event.actor) == ("talk_whisper", "gm", player)
    assert event.payload == {
        "mode": "whisper",
        "text": "Meet me at the mill",
        "recipient_id": player2.pk,
        "recipient": "player2",
        "changes": [],
    }


def test_a_players_whisper_is_stored_for_the_two_alone_where_gms_do_not_read_them(
    momenta_campaign, player, player2, gm
):
    keep_whispers_from_gms(momenta_campaign)
    assert whisper(momenta_campaign, player, player2).audience == "named"
    # A GM's own whisper is the GMs' as anything they say.
    assert whisper(momenta_campaign, gm, player2).audience == "gm"


@pytest.mark.parametrize(
    "recipient", ["player", "gm", "observer", "outsider", "nobody", "none", "text"]
)
def test_a_whisper_to_anyone_but_another_player_here_is_refused_and_changes_nothing(
    request, momenta_campaign, player, recipient
):
    recipient_id = {"nobody": 990_000, "none": None, "text": "2"}.get(recipient, ...)
    if recipient_id is ...:
        recipient_id = request.getfixturevalue(recipient).pk
    with pytest.raises(ServiceError) as refused:
        talk.post_talk(momenta_campaign.pk, player, talk.WHISPER, "psst", recipient_id=recipient_id)
    assert str(refused.value) == talk.NO_RECIPIENT
    assert Campaign.objects.get(pk=momenta_campaign.pk).last_seq == 0
    assert not TableEvent.objects.exists()


def test_an_observer_cannot_whisper(momenta_campaign, observer, player):
    with pytest.raises(PermissionDenied, match="Observers watch"):
        whisper(momenta_campaign, observer, player)
    assert not TableEvent.objects.exists()


def test_the_recipients_offered_are_the_other_players(momenta_campaign, gm, player, player2):
    assert talk.whisper_recipients(momenta_campaign.pk, player) == [(player2.pk, "player2")]
    assert talk.whisper_recipients(momenta_campaign.pk, gm) == [
        (player.pk, "player"),
        (player2.pk, "player2"),
    ]


# --- Who reads it in the log --------------------------------------------------------------------


@pytest.mark.parametrize("gms_read", [True, False])
def test_the_log_shows_a_whisper_to_its_two_people_and_the_gms_who_read_it(
    momenta_campaign, gms_read, gm, cogm, player, player2, player3, observer
):
    if not gms_read:
        keep_whispers_from_gms(momenta_campaign)
    talk.post_talk(momenta_campaign.pk, gm, talk.IN_CHARACTER, "The mill burns")
    whisper(momenta_campaign, player, player2)
    gm_sees = [2, 1] if gms_read else [1]
    seen = {u.username: page_seqs(momenta_campaign, u) for u in (gm, cogm, player, player2)}
    seen |= {u.username: page_seqs(momenta_campaign, u) for u in (player3, observer)}
    assert seen == {
        "gm": gm_sees,
        "cogm": gm_sees,
        "player": [2, 1],
        "player2": [2, 1],
        "player3": [1],
        "observer": [1],
    }
    assert page_seqs(momenta_campaign, player3, show="talk") == [1]
    assert page_seqs(momenta_campaign, player2, show="talk") == [2, 1]


def test_a_gms_whisper_reaches_its_player_and_every_gm(momenta_campaign, gm, cogm, player, player2):
    keep_whispers_from_gms(momenta_campaign)  # for players' whispers only
    whisper(momenta_campaign, gm, player)
    assert [page_seqs(momenta_campaign, u) for u in (gm, cogm, player, player2)] == [
        [1],
        [1],
        [1],
        [],
    ]


def test_each_reader_reads_the_whisper_worded_for_them(
    client_for, momenta_campaign, player, player2
):
    whisper(momenta_campaign, player, player2, "Meet me at the mill")
    url = reverse("table", args=[momenta_campaign.pk])
    words = {
        "player": "To player2 (whisper)",
        "player2": "player whispers to you",
        "gm": "player whispers to player2",
    }
    for role, line in words.items():
        html = client_for(role).get(url).content.decode()
        assert line in html and "Meet me at the mill" in html, role
        others = set(words.values()) - {line}
        assert not [o for o in others if o in html], role


def test_a_whisper_is_worded_in_the_readers_language(client_for, momenta_campaign, player, player2):
    from tables.models import PersonSettings

    PersonSettings.objects.update_or_create(user=player2, defaults={"language": "de"})
    whisper(momenta_campaign, player, player2)
    html = client_for("player2").get(reverse("table", args=[momenta_campaign.pk])).content.decode()
    assert "player flüstert dir zu" in html


# --- The view: who may post, who reads what over HTTP -----------------------------------------


def post(client, campaign, recipient, text="Psst", mode="whisper"):
    data = {"mode": mode, "text": text, "to": "" if recipient is None else str(recipient)}
    return client.post(reverse("table_talk", args=[campaign.pk]), data, **HX)


def test_the_senders_answer_carries_their_whisper_and_keeps_the_recipient(
    client_for, momenta_campaign, player2
):
    answer = post(client_for("player"), momenta_campaign, player2.pk)
    html = answer.content.decode()
    assert answer.status_code == 200 and "Psst" in html and "To player2 (whisper)" in html
    assert f'<option value="{player2.pk}" selected>' in html  # the next one: the same player
    assert TableEvent.objects.get().payload["recipient_id"] == player2.pk


@pytest.mark.parametrize("recipient", ["player", "observer", "gm", "outsider", "nobody", "blank"])
def test_a_bad_recipient_is_refused_in_the_form_and_nothing_is_stored(
    request, client_for, momenta_campaign, recipient
):
    pk = {"nobody": 990_000, "blank": None}.get(recipient, ...)
    if pk is ...:
        pk = request.getfixturevalue(recipient).pk
    answer = post(client_for("player"), momenta_campaign, pk, text="keep me")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert str(talk.NO_RECIPIENT) in html and "keep me</textarea>" in html
    assert not TableEvent.objects.exists()


def test_a_stale_recipient_does_not_refuse_a_message_that_is_not_a_whisper(
    client_for, momenta_campaign, observer
):
    answer = post(client_for("player"), momenta_campaign, observer.pk, mode="ooc", text="brb")
    assert answer.status_code == 200 and str(talk.NO_RECIPIENT) not in answer.content.decode()
    assert TableEvent.objects.get().kind == "talk"


def test_a_forged_recipient_is_refused_without_htmx_too(client_for, momenta_campaign):
    answer = client_for("player").post(
        reverse("table_talk", args=[momenta_campaign.pk]),
        {"mode": "whisper", "text": "x", "to": "not-a-number"},
    )
    assert answer.status_code in (302, 303) and not TableEvent.objects.exists()


def test_an_observer_posting_a_whisper_gets_403(client_for, momenta_campaign, player):
    assert post(client_for("observer"), momenta_campaign, player.pk).status_code == 403
    assert post(client_for("outsider"), momenta_campaign, player.pk).status_code == 403
    assert not TableEvent.objects.exists()


def test_the_form_offers_the_other_players_only(client_for, momenta_campaign, player, player2):
    url = reverse("table", args=[momenta_campaign.pk])
    html = client_for("player").get(url).content.decode()
    choices = re.search(r'<select name="to".*?</select>', html, re.S).group(0)
    assert f'value="{player2.pk}"' in choices and f'value="{player.pk}"' not in choices


@pytest.mark.parametrize("gms_read", [True, False])
def test_log_pages_and_the_talk_filter_show_a_whisper_only_to_whom_may_read_it(
    client_for, momenta_campaign, gms_read, player, player2
):
    if not gms_read:
        keep_whispers_from_gms(momenta_campaign)
    whisper(momenta_campaign, player, player2, "the mill at midnight")
    log_url = reverse("table_log", args=[momenta_campaign.pk])
    readers = {"player": True, "player2": True, "gm": gms_read, "cogm": gms_read}
    readers |= {"observer": False}
    for role, reads in readers.items():
        for query in ({"show": "talk"}, {"show": "all", "before": 10**6}):
            html = client_for(role).get(log_url, query, **HX).content.decode()
            assert (log_seqs(html) == [1]) is reads, (role, query)
            assert ("the mill at midnight" in html) is reads, (role, query)


def test_a_hidden_whisper_answers_a_gm_exactly_like_nothing(
    client_for, momenta_campaign, player, player2
):
    """The GM's log of a table with a whisper kept from them reads like an empty one."""
    log_url = reverse("table_log", args=[momenta_campaign.pk])
    before = client_for("gm").get(log_url, {"show": "talk"}, **HX).content.decode()
    keep_whispers_from_gms(momenta_campaign)
    whisper(momenta_campaign, player, player2)
    after = client_for("gm").get(log_url, {"show": "talk"}, **HX).content.decode()
    assert after == before


# --- Replay, the command's answer, the recap, exports, Discord --------------------------------


def test_replay_sends_a_whisper_to_its_two_people_worded_for_each(
    momenta_campaign, player, player2, gm
):
    keep_whispers_from_gms(momenta_campaign)
    event = whisper(momenta_campaign, player, player2)
    replay = {
        who.username: frames.events_after(momenta_campaign.pk, 0, audience, viewer=who.pk)
        for who, audience in ((player, ALL), (player2, ALL), (gm, GM))
    }
    assert "To player2 (whisper)" in replay["player"][0][2]
    assert "player whispers to you" in replay["player2"][0][2]
    assert replay["gm"] == [(event.seq, "talk_whisper", None)]
    assert frames.events_after(momenta_campaign.pk, 0, GM, viewer=None)[0][2] is None


def test_the_recap_counts_a_hidden_whisper_for_its_two_people_only(
    momenta_campaign, gm, player, player2
):
    from tables.recap.facts import recap_of
    from tables.recap.spans import Span

    keep_whispers_from_gms(momenta_campaign)
    whisper(momenta_campaign, player, player2)
    span = Span(session=1, scene=None, first=1, last=1)
    assert recap_of(momenta_campaign, span, is_gm=True, viewer_id=gm.pk).events == 0
    assert recap_of(momenta_campaign, span, is_gm=False, viewer_id=player2.pk).events == 1


def test_an_export_keeps_whom_a_whisper_was_for_and_not_the_words_gms_may_not_read(
    momenta_campaign, player, player2
):
    whisper(momenta_campaign, player, player2, "read by the GMs")
    keep_whispers_from_gms(momenta_campaign)
    whisper(momenta_campaign, player, player2, "for the two of us")
    doc = export_campaign(momenta_campaign)
    payloads = [(e["audience"], e["payload"]) for e in doc["events"]]
    assert [(a, p["text"], p["recipient_id"]) for a, p in payloads] == [
        ("gm", "read by the GMs", "player2"),
        ("named", "", "player2"),
    ]
    assert doc["campaign"]["gm_reads_whispers"] is False


def test_discord_never_posts_a_whisper(momenta_campaign, player, player2):
    Campaign.objects.filter(pk=momenta_campaign.pk).update(
        discord_webhook_url="https://discord.test/api/webhooks/1/a",
        discord_gm_webhook_url="https://discord.test/api/webhooks/2/b",
    )
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert embeds.post_for(whisper(momenta_campaign, player, player2), campaign) is None
    keep_whispers_from_gms(momenta_campaign)
    assert embeds.post_for(whisper(momenta_campaign, player, player2), campaign) is None


def test_the_settings_form_offers_the_gm_the_setting(client_for, momenta_campaign):
    from tests.tables.test_site_permissions import settings_data

    url = reverse("campaign_settings", args=[momenta_campaign.pk])
    assert 'name="gm_reads_whispers"' in client_for("gm").get(url).content.decode()
    client_for("gm").post(url, settings_data(momenta_campaign, gm_reads_whispers=""))
    assert Campaign.objects.get(pk=momenta_campaign.pk).gm_reads_whispers is False


def test_a_gm_voiding_a_hidden_whisper_is_told_there_is_no_such_event(
    momenta_campaign, gm, player, player2
):
    from tables.services import corrections

    keep_whispers_from_gms(momenta_campaign)
    event = whisper(momenta_campaign, player, player2)
    answers = []
    for seq in (event.seq, event.seq + 1):  # the whisper, and nothing
        with pytest.raises(ServiceError) as refused:
            corrections.void_event(momenta_campaign.pk, gm, seq, "Oops")
        answers.append(str(refused.value).replace(str(seq), "N"))
    assert answers[0] == answers[1]
    assert TableEvent.objects.filter(campaign=momenta_campaign).count() == 1

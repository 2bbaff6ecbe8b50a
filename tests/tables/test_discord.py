"""Discord webhooks (issue 15): posts after commit, off the request path, to the right channel.

Every post goes to a local fake webhook server (tests/discord_fake.py), never the network.
The sender's waits are injected: `waits` records them and nothing really sleeps.
"""

import logging
import time

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse

from rules.dice import FixedDice
from tables.discord import embeds
from tables.discord import sender as discord_sender
from tables.discord.sender import Job, Sender
from tables.exports.dump import dumps, export_campaign
from tables.forms.discord import DiscordForm
from tables.models import Campaign, TableEvent
from tables.services import discord, momenta, sessions
from tables.services import gm as services_gm
from tables.services.momenta import RollRequest
from tests.discord_fake import FakeDiscord

TABLE_TOKEN, GM_TOKEN = "table-secret-token", "gm-secret-token"


@pytest.fixture
def fake(settings):
    server = FakeDiscord()
    settings.DISCORD_WEBHOOK_HOSTS = (server.origin,)
    settings.DISCORD_ALLOWED_HOSTS = ("127.0.0.1",)  # the operator allows the local fake
    yield server
    server.stop()


@pytest.fixture
def waits():
    return []


@pytest.fixture
def worker(waits):
    """This process's sender for the test: short timeouts, waits recorded, not slept."""
    sender = Sender(sleep=waits.append, attempts=3, backoff=0.5, timeout=0.3)
    previous = discord_sender.set_sender(sender)
    yield sender
    sender.stop(5)
    discord_sender.set_sender(previous)


def hooks(campaign, fake, user, *, table=True, gm=True):
    discord.set_webhooks(
        campaign.pk,
        user,
        table=fake.url(1, TABLE_TOKEN) if table else "",
        gm=fake.url(2, GM_TOKEN) if gm else "",
    )
    campaign.refresh_from_db()


def roll(campaign, actor, character, faces, **kw):
    request = RollRequest(attribute="WITS", **kw)
    return momenta.roll_momenta(campaign.pk, actor, character.pk, request, rng=FixedDice(faces))


def settle(worker):
    assert worker.wait_idle(10), "the Discord worker did not finish"


# --- What is posted, and where ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_public_roll_posts_one_embed_to_the_table_webhook(
    momenta_campaign, gm, player, hero, fake, worker
):
    hooks(momenta_campaign, fake, gm)
    roll(momenta_campaign, player, hero, [6, 5, 2, 2])
    settle(worker)
    assert fake.posts_to(2) == []  # the GM's channel gets no public roll
    [post] = fake.posts_to(1)  # the webhook note (GM-only, not a roll) posts nothing
    [embed] = post["embeds"]
    assert embed["title"] == "Ash: Roll"
    assert embed["description"] == "Ash: Success\nDice: 6 · 5 · 2 · 2"
    assert embed["footer"]["text"].startswith("The Drift · #")
    assert post["allowed_mentions"] == {"parse": []}  # no @everyone from a character's name


@pytest.mark.django_db(transaction=True)
def test_a_secret_roll_goes_only_to_the_gm_webhook(momenta_campaign, gm, hero, fake, worker):
    hooks(momenta_campaign, fake, gm)
    roll(momenta_campaign, gm, hero, [6, 6, 1, 1], secret=True)
    settle(worker)
    assert fake.posts_to(1) == []
    [post] = fake.posts_to(2)
    assert post["embeds"][0]["title"] == "Secret · Ash: Roll"


@pytest.mark.django_db(transaction=True)
def test_a_secret_roll_posts_nowhere_without_a_gm_webhook(momenta_campaign, gm, hero, fake, worker):
    hooks(momenta_campaign, fake, gm, gm=False)
    roll(momenta_campaign, gm, hero, [6, 6, 1, 1], secret=True)
    settle(worker)
    assert fake.posts == []


@pytest.mark.django_db(transaction=True)
def test_hidden_threat_reaches_only_the_gm_webhook(d20_campaign, gm, fake, worker):
    """MO-13: while the GM hides Threat, the table's channel learns nothing of it."""
    hooks(d20_campaign, fake, gm)
    services_gm.add_threat(d20_campaign.pk, gm, 2, "The storm rises")
    settle(worker)
    assert fake.posts_to(1) == []
    [post] = fake.posts_to(2)
    assert post["embeds"][0]["fields"][0]["value"] == "+2 → 2\nThe storm rises"
    services_gm.set_threat_visible(d20_campaign.pk, gm, True)
    services_gm.add_threat(d20_campaign.pk, gm, 1, "Shown now")
    settle(worker)
    [shown] = fake.posts_to(1)
    assert shown["embeds"][0]["fields"][0]["value"] == "+1 → 3\nShown now"


def test_a_public_event_posts_no_threat_line_while_threat_is_hidden():
    """MO-13: a 2d20 spend everyone sees may move Threat; the channel sees it only if shown."""
    campaign = Campaign(pk=1, name="Arrakis", discord_webhook_url="https://t/", last_seq=3)
    changes = [
        {"pool": "group_momentum", "character": None, "delta": -1, "after": 2, "reason": "r"},
        {"pool": "threat", "character": None, "delta": 2, "after": 9, "reason": "r"},
    ]
    event = TableEvent(campaign=campaign, seq=3, kind="d20_spend", payload={"changes": changes})
    hidden = embeds.post_for(event, campaign).body["embeds"][0]["fields"]
    assert [f["name"] for f in hidden] == ["Group Momentum"]
    campaign.threat_visible = True
    shown = embeds.post_for(event, campaign).body["embeds"][0]["fields"]
    assert [f["name"] for f in shown] == ["Group Momentum", "Threat"]


# --- After commit, off the request path -------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_command_posts_nothing(momenta_campaign, gm, player, hero, fake, worker):
    hooks(momenta_campaign, fake, gm)
    with pytest.raises(RuntimeError), transaction.atomic():
        roll(momenta_campaign, player, hero, [6, 5, 2, 2])
        settle(worker)
        assert fake.posts == []  # not before the commit either
        raise RuntimeError("the command fails after its roll")
    settle(worker)
    assert fake.posts == []
    assert not TableEvent.objects.filter(kind="momenta_roll").exists()


def roll_data(character):
    """The fields composer_momenta_form.html posts."""
    character.refresh_from_db()
    return {
        "character": character.pk,
        "attribute": "WITS",
        "kind": "action",
        "play": "narrative",
        "template": "",
        "modifiers": "",
        "thread": "",
        "assist": "",
        "expected_momentum": character.momentum,
        "expected_resolve": character.resolve,
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("answer", ["hang", "500"])
def test_a_dead_webhook_neither_slows_nor_fails_a_roll_and_the_gm_sees_why(
    momenta_campaign, gm, player, hero, fake, worker, client_for, answer, monkeypatch
):
    hooks(momenta_campaign, fake, gm)
    sessions.start_session(momenta_campaign.pk, gm)
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: FixedDice([6, 5, 2, 2] * 5))
    settle(worker)
    fake.posts.clear()  # the session's start (its pool changes) went through
    fake.script(answer, times=3)  # every attempt: the worker gives up
    url = reverse("momenta_roll", args=[momenta_campaign.pk])
    started = time.monotonic()
    response = client_for("player").post(url, roll_data(hero), HTTP_HX_REQUEST="true")
    took = time.monotonic() - started
    assert response.status_code == 200
    assert 'role="alert"' not in response.content.decode()
    assert took < 0.9  # a hung webhook costs the worker 3 × 0.3 s timeouts, not the roll
    settle(worker)
    assert len(fake.posts) == 3
    page = client_for("gm").get(reverse("campaign_settings", args=[momenta_campaign.pk]))
    text = page.content.decode()
    expected = "no answer" if answer == "hang" else "HTTP 500"
    assert f"Table webhook: {expected}" in text
    assert "gave up after 3 attempts" in text
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert campaign.discord_last_error_at is not None
    assert campaign.discord_last_error_at.strftime("%H:%M:%S") in text  # and when
    # The next post that gets through clears it.
    roll(momenta_campaign, player, hero, [6, 5, 2, 2])
    settle(worker)
    assert Campaign.objects.get(pk=momenta_campaign.pk).discord_last_error == ""


# --- Retries: the sender on its own ----------------------------------------------------


def deliver(fake, waits, **options):
    outcomes = []
    sender = Sender(
        sleep=waits.append,
        record=lambda campaign_id, target, error, url: outcomes.append(error),
        timeout=0.3,
        **options,
    )
    try:
        sender.deliver(Job(1, "public", fake.url(1, TABLE_TOKEN), {"content": "hi"}))
    finally:
        sender.stop(1)
    return outcomes


def test_a_429_waits_the_retry_after_of_discords_json_body(fake, waits):
    fake.script("429", retry_after=30.5, header=1)  # the body's float is the precise one
    assert deliver(fake, waits) == [None]
    assert waits == [30.5]
    assert len(fake.posts) == 2


def test_a_429_with_only_a_retry_after_header_waits_that_long(fake, waits):
    fake.script("429", header=7)
    assert deliver(fake, waits, backoff=0.5) == [None]
    assert waits == [7.0]


def test_a_429_asking_too_long_a_wait_gives_up_and_says_so(fake, waits):
    fake.script("429", retry_after=600)
    [error] = deliver(fake, waits, max_wait=60)
    assert waits == []
    assert "HTTP 429" in error and "asked to wait 600 s" in error


def test_server_errors_are_retried_with_growing_waits(fake, waits):
    fake.script("500", times=2)
    assert deliver(fake, waits, backoff=0.5, attempts=4) == [None]
    assert waits == [0.5, 1.0]


def test_a_refused_post_is_not_retried(fake, waits):
    fake.script("404")
    [error] = deliver(fake, waits)
    assert len(fake.posts) == 1 and waits == []
    assert error == "HTTP 404: the webhook does not exist (deleted?); set a new one"


def test_stopping_the_process_drops_what_is_still_queued():
    """The atexit drain: what the worker cannot send in time is dropped and counted."""
    release = __import__("threading").Event()

    def stuck(url, body, timeout):
        release.wait(5)
        return discord_sender.Answer(204)

    sender = Sender(post=stuck, record=lambda *a: None)
    for n in range(3):
        assert sender.submit(Job(1, "public", "http://x/", {"n": n}))
    time.sleep(0.05)  # the worker takes the first and is stuck on it
    assert sender.stop(0.05) == 2
    release.set()
    assert sender.wait_idle(5)


# --- The URL: checked, GM-only, secret -------------------------------------------------


@pytest.mark.parametrize(
    "url, message",
    [
        ("https://example.com/api/webhooks/1/abc", "That is not a Discord webhook URL."),
        ("http://discord.com/api/webhooks/1/abc", "starts with https://, not http://"),
        ("https://discord.com/channels/123/456", "not a webhook's (a channel's, perhaps)"),
        ("https://discord.com/api/webhooks/abc/def", "not a webhook's"),
        ("https://discord.com.evil.example/api/webhooks/1/abc", "not a Discord webhook URL"),
    ],
)
def test_a_url_that_is_not_a_discord_webhook_gets_a_clear_message(url, message):
    form = DiscordForm({"table": url, "gm": ""})
    assert not form.is_valid()
    assert message in form.errors["table"][0]


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/1234567890/AbC-d_9",
        "https://discordapp.com/api/webhooks/1234567890/AbC-d_9",
        "https://discord.com/api/v10/webhooks/1234567890/AbC-d_9?thread_id=42",
    ],
)
def test_discord_webhook_urls_are_accepted(url):
    form = DiscordForm({"table": url, "gm": ""})
    assert form.is_valid(), form.errors


def test_the_gm_webhook_cannot_be_the_tables():
    url = "https://discord.com/api/webhooks/1234567890/AbC"
    form = DiscordForm({"table": url, "gm": url})
    assert not form.is_valid()
    assert "players read that one" in form.errors["gm"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "role, status",
    [
        ("gm", 302),
        ("cogm", 302),
        ("player", 403),
        ("observer", 403),
        ("outsider", 403),
        ("anonymous", 302),  # to the login page
    ],
)
def test_only_a_gm_sets_the_webhooks(momenta_campaign, client_for, role, status):
    url = reverse("campaign_discord", args=[momenta_campaign.pk])
    hook = "https://discord.com/api/webhooks/1234567890/AbC"
    response = client_for(role).post(url, {"table": hook, "gm": ""})
    assert response.status_code == status
    saved = Campaign.objects.get(pk=momenta_campaign.pk).discord_webhook_url
    assert saved == (hook if role in ("gm", "cogm") else "")
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_the_service_refuses_a_player_whatever_the_view_checked(momenta_campaign, player):
    hook = "https://discord.com/api/webhooks/1234567890/AbC"
    with pytest.raises(PermissionDenied):
        discord.set_webhooks(momenta_campaign.pk, player, table=hook, gm="")
    assert Campaign.objects.get(pk=momenta_campaign.pk).discord_webhook_url == ""
    assert not TableEvent.objects.filter(campaign=momenta_campaign).exists()


@pytest.mark.django_db
def test_a_bad_url_over_http_is_refused_with_its_message_and_changes_nothing(
    momenta_campaign, client_for
):
    url = reverse("campaign_discord", args=[momenta_campaign.pk])
    good = "https://discord.com/api/webhooks/1234567890/AbC"
    client_for("gm").post(url, {"table": good, "gm": ""})
    response = client_for("gm").post(url, {"table": "https://example.com/hook", "gm": good + "x"})
    assert response.status_code == 400
    assert "That is not a Discord webhook URL." in response.content.decode()
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (campaign.discord_webhook_url, campaign.discord_gm_webhook_url) == (good, "")


@pytest.mark.django_db(transaction=True)
def test_the_webhook_url_is_never_in_the_log_an_export_or_a_log_line(
    momenta_campaign, gm, player, hero, fake, worker, caplog
):
    hooks(momenta_campaign, fake, gm)
    fake.script("500", times=3)
    with caplog.at_level(logging.DEBUG):
        roll(momenta_campaign, player, hero, [6, 5, 2, 2])
        settle(worker)
    assert "Table webhook for campaign" in caplog.text  # the failure was logged…
    notes = TableEvent.objects.filter(campaign=momenta_campaign, kind="note")
    assert [n.payload["summary"] for n in notes] == ["Discord: table webhook set; GM webhook set."]
    assert [n.audience for n in notes] == ["gm"]
    every_payload = str(list(TableEvent.objects.values_list("payload", flat=True)))
    document = dumps(export_campaign(Campaign.objects.get(pk=momenta_campaign.pk)))
    for token in (TABLE_TOKEN, GM_TOKEN):
        assert token not in caplog.text  # …without its URL
        assert token not in every_payload
        assert token not in document

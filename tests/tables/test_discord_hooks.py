"""A campaign's Discord webhooks as the GMs hold them (issue 26): secrets never sent
back, parked after failures in a row (and the GMs told), cleared with the co-GM who
set them, and never one webhook for both the table and the GM under two spellings.

Posts go to the local fake webhook server (tests/discord_fake.py), never the network.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rules.dice import FixedDice
from tables.discord import sender as discord_sender
from tables.discord.sender import Sender
from tables.forms.discord import DiscordForm
from tables.models import Campaign, TableEvent
from tables.services import campaigns, discord, momenta
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
def worker():
    """This process's sender: one attempt a post (each failure counts once), no sleeps."""
    sender = Sender(sleep=lambda s: None, attempts=1, timeout=2)
    previous = discord_sender.set_sender(sender)
    yield sender
    sender.stop(5)
    discord_sender.set_sender(previous)


def settle(worker):
    assert worker.wait_idle(10), "the Discord worker did not finish"


def roll(campaign, actor, character):
    request = RollRequest(attribute="WITS")
    return momenta.roll_momenta(
        campaign.pk, actor, character.pk, request, rng=FixedDice([6, 5, 2, 2])
    )


def settings_page(client_for, role, campaign) -> str:
    response = client_for(role).get(reverse("campaign_settings", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post_hooks(client_for, role, campaign, **data):
    return client_for(role).post(reverse("campaign_discord", args=[campaign.pk]), data)


def notes(campaign) -> list[tuple[str, str]]:
    rows = TableEvent.objects.filter(campaign=campaign, kind="note").order_by("seq")
    return [(n.payload["summary"], n.audience) for n in rows]


# --- Secrets: set, never shown again ---------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["gm", "cogm"])
def test_the_settings_page_never_sends_a_webhook_url_back(momenta_campaign, client_for, fake, role):
    post_hooks(client_for, "cogm", momenta_campaign, table=fake.url(1, TABLE_TOKEN))
    post_hooks(client_for, "gm", momenta_campaign, gm=fake.url(2, GM_TOKEN))
    text = settings_page(client_for, role, momenta_campaign)
    assert TABLE_TOKEN not in text and GM_TOKEN not in text
    assert "Table webhook: set (webhook 1 on 127.0.0.1), by cogm." in text
    assert "GM webhook: set (webhook 2 on 127.0.0.1), by gm." in text


@pytest.mark.django_db
def test_an_empty_field_keeps_the_stored_webhook_and_remove_clears_it(
    momenta_campaign, client_for, fake
):
    table, gm = fake.url(1, TABLE_TOKEN), fake.url(2, GM_TOKEN)
    post_hooks(client_for, "gm", momenta_campaign, table=table, gm=gm)
    post_hooks(client_for, "gm", momenta_campaign, table="", gm="")
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (campaign.discord_webhook_url, campaign.discord_gm_webhook_url) == (table, gm)
    post_hooks(client_for, "gm", momenta_campaign, table="", gm="", clear_gm="on")
    campaign.refresh_from_db()
    assert (campaign.discord_webhook_url, campaign.discord_gm_webhook_url) == (table, "")
    assert campaign.discord_gm_webhook_set_by is None
    assert [s for s, _ in notes(campaign)][-1] == "Discord: GM webhook removed."


# --- Removing the co-GM who set a webhook ------------------------------------------------


@pytest.mark.django_db
def test_removing_a_co_gm_offers_to_clear_the_webhooks_they_set(
    momenta_campaign, client_for, fake, cogm
):
    post_hooks(client_for, "cogm", momenta_campaign, gm=fake.url(2, GM_TOKEN))
    post_hooks(client_for, "gm", momenta_campaign, table=fake.url(1, TABLE_TOKEN))
    seat = momenta_campaign.memberships.get(user=cogm)
    page = client_for("gm").get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    remove = reverse("member_remove", args=[momenta_campaign.pk, seat.pk])
    form = page.content.decode().split(f'action="{remove}"', 1)[1].split("</form>", 1)[0]
    assert 'name="clear_webhooks" checked' in form  # offered, and ticked
    client_for("gm").post(remove, {"clear_webhooks": "on"})
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert campaign.discord_gm_webhook_url == ""  # the co-GM's, gone with them
    assert campaign.discord_webhook_url == fake.url(1, TABLE_TOKEN)  # the GM's stays
    assert notes(campaign)[-1] == ("Discord: GM webhook removed.", "gm")


@pytest.mark.django_db
def test_a_co_gm_removed_without_the_box_leaves_the_webhooks(momenta_campaign, gm, cogm, fake):
    discord.set_webhooks(momenta_campaign.pk, cogm, table="", gm=fake.url(2, GM_TOKEN))
    seat = momenta_campaign.memberships.get(user=cogm)
    campaigns.remove_member(momenta_campaign.pk, gm, seat.pk)
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert campaign.discord_gm_webhook_url == fake.url(2, GM_TOKEN)
    assert campaign.discord_gm_webhook_set_by == cogm


@pytest.mark.django_db
def test_removing_a_player_offers_nothing_about_webhooks(momenta_campaign, client_for, fake):
    post_hooks(client_for, "gm", momenta_campaign, table=fake.url(1, TABLE_TOKEN))
    page = client_for("gm").get(reverse("campaign_detail", args=[momenta_campaign.pk]))
    assert page.content.decode().count('name="clear_webhooks"') == 0  # the GM set it


# --- One webhook, two spellings ---------------------------------------------------------

TABLE = "https://discord.com/api/webhooks/1234567890/AbC-d_9"


@pytest.mark.parametrize(
    "gm",
    [
        TABLE + "/",
        TABLE + "?thread_id=42",
        "https://discordapp.com/api/webhooks/1234567890/AbC-d_9",
        "https://ptb.discord.com/api/webhooks/1234567890/AbC-d_9",
        "https://canary.discord.com/api/v10/webhooks/1234567890/AbC-d_9",
        "https://discord.com/api/webhooks/1234567890/another-token",
    ],
)
def test_the_gm_webhook_cannot_be_the_tables_under_another_spelling(gm):
    form = DiscordForm({"table": TABLE, "gm": gm})
    assert not form.is_valid()
    assert "The GM's webhook must not be the table's" in form.errors["gm"][0]


def test_two_webhooks_of_different_ids_are_accepted():
    form = DiscordForm({"table": TABLE, "gm": "https://discord.com/api/webhooks/987/AbC-d_9"})
    assert form.is_valid(), form.errors


@pytest.mark.django_db
def test_a_gm_webhook_matching_the_kept_table_webhook_is_refused_and_changes_nothing(
    momenta_campaign, client_for
):
    post_hooks(client_for, "gm", momenta_campaign, table=TABLE)
    response = post_hooks(client_for, "gm", momenta_campaign, gm=TABLE + "/")
    assert response.status_code == 400
    assert "The GM&#x27;s webhook must not be the table&#x27;s" in response.content.decode()
    assert Campaign.objects.get(pk=momenta_campaign.pk).discord_gm_webhook_url == ""


@pytest.mark.django_db
def test_the_service_refuses_one_webhook_for_both_whatever_the_view_checked(momenta_campaign, gm):
    discord.set_webhooks(momenta_campaign.pk, gm, table=TABLE)
    with pytest.raises(ValidationError):
        discord.set_webhooks(momenta_campaign.pk, gm, gm=TABLE.replace("discord", "discordapp"))
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (campaign.discord_webhook_url, campaign.discord_gm_webhook_url) == (TABLE, "")
    assert len(notes(campaign)) == 1  # the first setting's note only


# --- A webhook that keeps failing is parked ---------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_webhook_failing_again_and_again_is_parked_until_a_gm_resumes_it(
    momenta_campaign, gm, player, hero, fake, worker, client_for, settings
):
    settings.DISCORD_PARK_AFTER = 2
    discord.set_webhooks(momenta_campaign.pk, gm, table=fake.url(1, TABLE_TOKEN))
    fake.script("500", times=2)
    for _ in range(2):
        roll(momenta_campaign, player, hero)
        settle(worker)
    assert len(fake.posts_to(1)) == 2
    summary, audience = notes(momenta_campaign)[-1]
    assert audience == "gm"  # the GMs are told, in their log
    assert summary.startswith("Discord: table webhook paused after 2 failed posts in a row")
    assert "Paused since" in settings_page(client_for, "gm", momenta_campaign)

    roll(momenta_campaign, player, hero)  # parked: nothing is sent
    settle(worker)
    assert len(fake.posts_to(1)) == 2

    response = post_hooks(client_for, "gm", momenta_campaign, resume_table="on")
    assert response.status_code == 302
    assert notes(momenta_campaign)[-1][0] == "Discord: table webhook resumed."
    assert "Paused since" not in settings_page(client_for, "gm", momenta_campaign)
    roll(momenta_campaign, player, hero)
    settle(worker)
    assert len(fake.posts_to(1)) == 3  # sent again
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (campaign.discord_webhook_failures, campaign.discord_last_error) == (0, "")


@pytest.mark.django_db(transaction=True)
def test_a_success_between_failures_starts_the_count_again(
    momenta_campaign, gm, player, hero, fake, worker, settings
):
    settings.DISCORD_PARK_AFTER = 2
    discord.set_webhooks(momenta_campaign.pk, gm, table=fake.url(1, TABLE_TOKEN))
    for answer in ("500", "204", "500"):
        fake.script(answer)
        roll(momenta_campaign, player, hero)
        settle(worker)
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert campaign.discord_webhook_parked_at is None
    assert campaign.discord_webhook_failures == 1


@pytest.mark.django_db(transaction=True)
def test_a_new_url_for_a_parked_webhook_sends_again(
    momenta_campaign, gm, player, hero, fake, worker, settings
):
    settings.DISCORD_PARK_AFTER = 1
    discord.set_webhooks(momenta_campaign.pk, gm, table=fake.url(1, TABLE_TOKEN))
    fake.script("404")
    roll(momenta_campaign, player, hero)
    settle(worker)
    assert Campaign.objects.get(pk=momenta_campaign.pk).discord_webhook_parked_at is not None
    discord.set_webhooks(momenta_campaign.pk, gm, table=fake.url(3, "new-token"))
    roll(momenta_campaign, player, hero)
    settle(worker)
    assert len(fake.posts_to(3)) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["player", "observer", "outsider"])
def test_only_a_gm_resumes_a_parked_webhook(momenta_campaign, gm, client_for, role):
    discord.set_webhooks(momenta_campaign.pk, gm, table=TABLE)
    Campaign.objects.filter(pk=momenta_campaign.pk).update(
        discord_webhook_parked_at="2026-12-01T12:00:00Z", discord_webhook_failures=5
    )
    assert post_hooks(client_for, role, momenta_campaign, resume_table="on").status_code == 403
    assert Campaign.objects.get(pk=momenta_campaign.pk).discord_webhook_parked_at is not None


@pytest.mark.django_db
def test_a_failure_of_a_replaced_webhook_counts_nothing_against_the_new_one(
    momenta_campaign, gm, settings
):
    """Posts queued for the old webhook fail after the GM replaced it: the new one
    starts with no failures and is not parked for them."""
    settings.DISCORD_PARK_AFTER = 1
    old, new = TABLE, "https://discord.com/api/webhooks/987/new-token"
    discord.set_webhooks(momenta_campaign.pk, gm, table=new)
    assert not discord.record_delivery(momenta_campaign.pk, "public", "HTTP 404", url=old)
    campaign = Campaign.objects.get(pk=momenta_campaign.pk)
    assert (campaign.discord_webhook_failures, campaign.discord_webhook_parked_at) == (0, None)
    assert discord.record_delivery(momenta_campaign.pk, "public", "HTTP 404", url=new)

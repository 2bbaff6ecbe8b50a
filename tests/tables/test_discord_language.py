"""The Discord copy is worded in the campaign's language, whoever rolled (issue 28)."""

import pytest
from django.utils import translation

from tables.discord import notify
from tables.discord import sender as discord_sender
from tables.models import Campaign, TableEvent
from tables.words.wording import pool_label, pool_name


class Recorder:
    def __init__(self):
        self.jobs = []

    def submit(self, job):
        self.jobs.append(job)
        return True


@pytest.fixture
def recorder(monkeypatch):
    sent = Recorder()
    monkeypatch.setattr(discord_sender, "get_sender", lambda: sent)
    return sent


def rolled(language: str) -> TableEvent:
    campaign = Campaign(
        name="The Drift",
        language=language,
        discord_webhook_url="https://discord.com/api/webhooks/1/token",
    )
    payload = {
        "character": "Ash",
        "faces": [6, 5, 2],
        "changes": [{"pool": "resolve", "character": "Ash", "delta": -1, "after": 2}],
    }
    return TableEvent(campaign=campaign, seq=4, kind="momenta_roll", payload=payload)


@pytest.mark.parametrize(
    "language, dice, field",
    [
        ("de", "Würfel: 6 · 5 · 2", "{pool} von Ash"),
        ("fr", "Dés : 6 · 5 · 2", "{pool} de Ash"),
        ("es", "Dados: 6 · 5 · 2", "{pool} de Ash"),
        ("en", "Dice: 6 · 5 · 2", "Ash's {pool}"),
    ],
)
def test_the_post_is_in_the_campaigns_language_whatever_the_actors_page_is_in(
    recorder, language, dice, field
):
    event = rolled(language)
    with translation.override("fr" if language != "fr" else "de"):  # the actor's page
        notify.notify(event)
        assert translation.get_language() != language  # left as it was
    [job] = recorder.jobs
    [embed] = job.body["embeds"]
    assert embed["description"].endswith(dice)
    with translation.override(language):  # the pool's own name is the game line's words
        pool = pool_name(event.campaign, "resolve", pool_label("resolve"))
    assert embed["fields"][0]["name"] == field.format(pool=pool)


def test_what_came_of_a_post_is_worded_in_the_campaigns_language(settings):
    """The GMs read a failed delivery on the settings page: in the campaign's words."""
    from tests.discord_fake import FakeDiscord

    fake = FakeDiscord()
    settings.DISCORD_WEBHOOK_HOSTS = (fake.origin,)
    settings.DISCORD_ALLOWED_HOSTS = ("127.0.0.1",)
    fake.script("404")
    outcomes = []
    worker = discord_sender.Sender(
        sleep=lambda s: None,
        record=lambda campaign_id, target, error, url: outcomes.append(error),
        timeout=2,
    )
    try:
        job = discord_sender.Job(1, "public", fake.url(1, "t"), {"content": "hi"}, "de")
        assert worker.submit(job)
        assert worker.wait_idle(10)
    finally:
        worker.stop(1)
        fake.stop()
    english = "the webhook does not exist (deleted?); set a new one"
    with translation.override("de"):
        german = translation.gettext(english)
    assert german != english  # the catalogue has it: the check below can tell the two apart
    assert outcomes == [f"HTTP 404: {german}"]

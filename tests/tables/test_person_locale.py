"""A person's language and time zone (issue 28): chosen in their settings, in effect on
the next page; blank means the browser's language and the campaign's time zone."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tables.models import Campaign, PersonSettings, TableEvent
from tables.models import locale as locale_models
from tables.models.locale import REGIONS, time_zone_choices, time_zones
from tables.policy.locale import SESSION_KEY
from tables.services import sessions
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SETTINGS = reverse("person_settings")


def save(client, **fields):
    return client.post(SETTINGS, {"animate_dice": "", **fields})


def lang_of(response) -> str:
    return re.search(r'<html lang="([^"]*)"', response.content.decode()).group(1)


def test_a_chosen_language_takes_effect_on_the_next_page(client_for, player):
    client = client_for("player")
    assert save(client, language="de").status_code == 302
    page = client.get(reverse("home"))
    assert page["Content-Language"] == "de" and lang_of(page) == "de"
    assert PersonSettings.objects.get(user=player).language == "de"


def test_a_chosen_language_wins_over_the_browsers(client_for):
    client = client_for("player")
    save(client, language="fr")
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert lang_of(page) == "fr"


def test_no_chosen_language_is_the_browsers(client_for):
    client = client_for("player")
    save(client, language="")
    assert lang_of(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.8")) == "es"
    assert lang_of(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ja")) == "en"


def test_logging_in_brings_the_persons_choice_from_their_settings(client, player):
    PersonSettings.objects.create(user=player, language="es")
    client.post(reverse("login"), {"username": "player", "password": PASSWORD})
    assert lang_of(client.get(reverse("home"))) == "es"


def test_a_session_from_before_the_choice_was_kept_reads_the_settings(client_for, player):
    """A session made before this release keeps no choice: each page reads it (and
    writes nothing: a GET changes nothing)."""
    client = client_for("player")
    session = client.session
    del session[SESSION_KEY]
    session.save()
    PersonSettings.objects.create(user=player, language="es")
    assert lang_of(client.get(reverse("home"))) == "es"
    assert SESSION_KEY not in client.session


def test_logging_out_forgets_the_persons_language(client_for):
    client = client_for("player")
    save(client, language="de")
    client.post(reverse("logout"))
    assert lang_of(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr")) == "fr"


@pytest.mark.parametrize(
    "field, value",
    [
        ("language", "xx"),
        ("language", "de-AT"),
        ("time_zone", "Mars/Olympus"),
        ("time_zone", "x" * 200),
    ],
)
def test_an_unknown_language_or_time_zone_is_refused_and_changes_nothing(
    client_for, player, field, value
):
    client = client_for("player")
    save(client, language="de", time_zone="Europe/Berlin")
    response = save(client, **{"language": "de", "time_zone": "Europe/Berlin", field: value})
    assert response.status_code == 200 and 'class="error' in response.content.decode()
    mine = PersonSettings.objects.get(user=player)
    assert (mine.language, mine.time_zone) == ("de", "Europe/Berlin")


def ledger_time(client, campaign) -> str:
    page = client.get(reverse("pool_ledger", args=[campaign.pk]) + "?pool=group_momentum")
    return re.search(r'class="ledger-time" datetime="([^"]+)">([^<]+)<', page.content.decode())[2]


@pytest.fixture
def noon_utc(d20_campaign, gm):
    """One group Momentum change, at 12:00 UTC on 1 December."""
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "found it")
    TableEvent.objects.filter(campaign=d20_campaign).update(
        created_at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    )
    return d20_campaign


def test_the_log_shows_times_in_the_persons_time_zone(client_for, noon_utc):
    client = client_for("player")
    save(client, time_zone="America/New_York")
    assert ledger_time(client, noon_utc) == "1 Dec 07:00"


def test_without_a_time_zone_of_ones_own_the_campaigns_is_used(client_for, noon_utc):
    client = client_for("player")
    assert ledger_time(client, noon_utc) == "1 Dec 12:00"  # the campaign's default: UTC
    Campaign.objects.filter(pk=noon_utc.pk).update(time_zone="Europe/Berlin")
    assert ledger_time(client, noon_utc) == "1 Dec 13:00"
    save(client, time_zone="Asia/Tokyo")
    assert ledger_time(client, noon_utc) == "1 Dec 21:00"


def test_the_gm_sets_the_campaigns_language_and_time_zone(client_for, d20_campaign):
    from tables.forms.site import CampaignSettingsForm

    data = {**CampaignSettingsForm(instance=d20_campaign).initial}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(language="fr", time_zone="Europe/Paris")
    response = client_for("gm").post(reverse("campaign_settings", args=[d20_campaign.pk]), data)
    assert response.status_code == 302
    d20_campaign.refresh_from_db()
    assert (d20_campaign.language, d20_campaign.time_zone) == ("fr", "Europe/Paris")


def test_a_campaign_time_zone_that_is_no_zone_is_refused(client_for, d20_campaign):
    from tables.forms.site import CampaignSettingsForm

    data = {**CampaignSettingsForm(instance=d20_campaign).initial}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(time_zone="Nowhere/Atlantis")
    response = client_for("gm").post(reverse("campaign_settings", args=[d20_campaign.pk]), data)
    assert response.status_code == 200
    assert Campaign.objects.get(pk=d20_campaign.pk).time_zone == "UTC"


# --- Time zones: canonical IANA names only, grouped by region (issue 34) -------------------

NOT_CANONICAL = [
    "localtime",  # the server's own zone, not an IANA name
    "Factory",
    "CST6CDT",
    "EST5EDT",
    "US/Eastern",
    "Asia/Calcutta",  # backward: Asia/Kolkata
    "posix/Europe/Berlin",
    "right/UTC",
    "Etc/GMT+5",
]
LISTED_REGIONS = {
    "Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian",
    "Pacific",
}  # fmt: skip


def test_only_the_canonical_zones_are_offered():
    offered = time_zones()
    assert {"UTC", "Europe/Berlin", "America/New_York", "Europe/Oslo"} <= offered
    assert not offered & set(NOT_CANONICAL)
    assert {name.split("/")[0] for name in offered - {"UTC"}} <= set(REGIONS)


def test_without_tzdatas_tables_only_the_regions_zones_are_offered(monkeypatch):
    """The fallback: Region/City names (a backward one such as Asia/Calcutta among them),
    never localtime, Factory, CST6CDT, US/… or Etc/…."""
    monkeypatch.setattr(locale_models, "_tab_files", lambda: [])
    time_zones.cache_clear()
    try:
        assert "Europe/Berlin" in time_zones() and "UTC" in time_zones()
        assert not time_zones() & (set(NOT_CANONICAL) - {"Asia/Calcutta"})
    finally:
        monkeypatch.undo()
        time_zones.cache_clear()


def test_the_picker_is_grouped_by_region():
    choices = time_zone_choices(blank_label="—")
    assert choices[:2] == [("", "—"), ("UTC", "UTC")]
    groups = dict(choices[2:])
    assert LISTED_REGIONS <= set(groups) <= set(REGIONS)
    assert ("Europe/Berlin", "Europe/Berlin") in groups["Europe"]
    assert all(
        name.startswith(f"{region}/") for region, zones in groups.items() for name, _ in zones
    )


def optgroups(html: str) -> dict[str, list[str]]:
    """The time zone select's optgroups: label -> option values."""
    select = html.split('name="time_zone"', 1)[1].split("</select>", 1)[0]
    return {
        label: re.findall(r'<option value="([^"]*)"', body)
        for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.S)
    }


def test_the_settings_pages_pick_a_zone_by_region(client_for, d20_campaign):
    person = client_for("player").get(SETTINGS).content.decode()
    url = reverse("campaign_settings", args=[d20_campaign.pk])
    campaign = client_for("gm").get(url).content.decode()
    for html in (person, campaign):
        groups = optgroups(html)
        assert LISTED_REGIONS <= set(groups)
        assert "Europe/Berlin" in groups["Europe"] and "America/New_York" in groups["America"]
        assert '<option value="UTC"' in html
        for name in NOT_CANONICAL:
            assert f'<option value="{name}"' not in html


@pytest.mark.parametrize("zone", NOT_CANONICAL)
def test_a_zone_that_is_not_canonical_is_refused_with_a_message(client_for, player, zone):
    client = client_for("player")
    save(client, time_zone="Europe/Berlin")
    response = save(client, time_zone=zone)
    assert response.status_code == 200
    assert f"“{zone}” is not a time zone name, such as Europe/Berlin." in response.content.decode()
    assert PersonSettings.objects.get(user=player).time_zone == "Europe/Berlin"


@pytest.mark.parametrize("zone", ["UTC", "Europe/Oslo", "America/Argentina/Buenos_Aires"])
def test_a_canonical_zone_is_accepted(client_for, player, zone):
    assert save(client_for("player"), time_zone=zone).status_code == 302
    assert PersonSettings.objects.get(user=player).time_zone == zone


def campaign_settings_data(campaign, **changes) -> dict:
    from tables.forms.site import CampaignSettingsForm

    data = {**CampaignSettingsForm(instance=campaign).initial}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    return data | changes


@pytest.mark.parametrize("zone", ["localtime", "Factory", "CST6CDT"])
def test_a_campaign_zone_that_is_not_canonical_is_refused_with_a_message(
    client_for, d20_campaign, zone
):
    url = reverse("campaign_settings", args=[d20_campaign.pk])
    response = client_for("gm").post(url, campaign_settings_data(d20_campaign, time_zone=zone))
    assert response.status_code == 200
    assert f"“{zone}” is not a time zone name" in response.content.decode()
    assert Campaign.objects.get(pk=d20_campaign.pk).time_zone == "UTC"


def test_a_persons_stored_legacy_zone_still_draws_and_is_kept_on_save(client_for, noon_utc):
    """Chosen before the offer was narrowed: shown as the current choice, saved as it is,
    and the pages are still drawn in it; another legacy name is not taken."""
    client = client_for("player")
    save(client, time_zone="Europe/Berlin")
    PersonSettings.objects.filter(user__username="player").update(time_zone="US/Eastern")
    client.post(reverse("logout"))
    client = client_for("player")  # a new session reads the stored zone
    assert ledger_time(client, noon_utc) == "1 Dec 07:00"
    assert '<option value="US/Eastern" selected>' in client.get(SETTINGS).content.decode()
    assert save(client, time_zone="US/Eastern", language="de").status_code == 302
    mine = PersonSettings.objects.get(user__username="player")
    assert (mine.time_zone, mine.language) == ("US/Eastern", "de")
    assert save(client, time_zone="US/Pacific").status_code == 200
    assert PersonSettings.objects.get(user__username="player").time_zone == "US/Eastern"


def test_a_campaigns_stored_legacy_zone_still_draws_and_is_kept_on_save(client_for, noon_utc):
    Campaign.objects.filter(pk=noon_utc.pk).update(time_zone="Asia/Calcutta")
    assert ledger_time(client_for("player"), noon_utc) == "1 Dec 17:30"
    url = reverse("campaign_settings", args=[noon_utc.pk])
    gm = client_for("gm")
    assert '<option value="Asia/Calcutta" selected>' in gm.get(url).content.decode()
    noon_utc.refresh_from_db()
    data = campaign_settings_data(noon_utc, language="fr")
    assert data["time_zone"] == "Asia/Calcutta"
    assert gm.post(url, data).status_code == 302
    noon_utc.refresh_from_db()
    assert (noon_utc.time_zone, noon_utc.language) == ("Asia/Calcutta", "fr")

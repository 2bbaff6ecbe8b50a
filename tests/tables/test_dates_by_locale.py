"""Issue 35: a short date reads as the reader's language writes it (momenta_site/formats/):
"1. Dez. 2026" in German, "1 déc. 2026" in French, "1 dic 2026" in Spanish, not the
English-ordered "1 Dez 2026" a fixed format gave every language."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tables.models import Campaign, TableEvent
from tables.services import sessions

pytestmark = pytest.mark.django_db

EXPIRES = datetime(2030, 12, 1, 17, 2, tzinfo=UTC)
SHORT = {
    "en": "1 Dec 2030, 17:02 UTC",
    "de": "1. Dez. 2030, 17:02 UTC",
    "fr": "1 déc. 2030, 17:02 UTC",
    "es": "1 dic 2030, 17:02 UTC",
}


@pytest.mark.parametrize("language", SHORT)
def test_an_invites_expiry_reads_in_the_readers_short_date(momenta_campaign, client_for, language):
    Campaign.objects.filter(pk=momenta_campaign.pk).update(invite_expires_at=EXPIRES)
    page = client_for("gm").get(
        reverse("campaign_detail", args=[momenta_campaign.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    state = page.content.decode().split('id="invite-state">', 1)[1].split("</p>", 1)[0]
    assert SHORT[language] in state, state


@pytest.mark.parametrize(
    ("language", "day"), [("en", "1 Dec"), ("de", "1. Dez."), ("fr", "1 déc."), ("es", "1 dic")]
)
def test_a_ledger_lines_day_reads_in_the_readers_short_form(
    d20_campaign, gm, client_for, language, day
):
    sessions.adjust_pool(d20_campaign.pk, gm, "group_momentum", 2, "found it")
    TableEvent.objects.filter(campaign=d20_campaign).update(
        created_at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    )
    url = reverse("pool_ledger", args=[d20_campaign.pk]) + "?pool=group_momentum"
    page = client_for("gm").get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    shown = re.search(r'class="ledger-time" datetime="[^"]+">([^<]+)<', page)[1]
    assert shown == f"{day} 12:00"

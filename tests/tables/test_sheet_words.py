"""Issue 35: the campaign page's sheet headings are plurals from the catalogue (not the
singular plus "s": "Focuss", "Especialidads"), and the GM's pool steps are read out by
the pool's worded name, not its key ("group_momentum plus 1")."""

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def page(client, user, campaign, language: str) -> str:
    client.force_login(user)
    url = reverse("campaign_detail", args=[campaign.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_trait_headings_count_their_traits(client, gm, momenta_campaign, hero, language):
    for text in ("Old debts", "A sister in the city"):
        hero.traits.create(kind="thread", text=text)
    hero.traits.create(kind="focus", text="Persuasion")
    html = page(client, gm, momenta_campaign, language)
    with translation.override(language):
        threads = translation.npgettext("sheet heading", "Thread", "Threads", 2)
        focus = translation.npgettext("sheet heading", "Focus", "Focuses", 1)
    assert f"<b>{threads}</b> A sister in the city; Old debts" in html
    assert f"<b>{focus}</b> Persuasion" in html
    assert "Focuss" not in html and "Especialidads" not in html
    if language != "en":
        assert threads != "Threads"


def test_pool_steps_are_read_out_by_the_pools_name(client, gm, momenta_campaign, hero):
    html = page(client, gm, momenta_campaign, "de")
    assert "group_momentum plus 1" not in html and "momentum minus 1" not in html
    with translation.override("de"):
        momentum = translation.gettext("Momentum")
        said = translation.gettext("%(pool)s plus 1") % {"pool": momentum}
    assert f'aria-label="{said}"' in html

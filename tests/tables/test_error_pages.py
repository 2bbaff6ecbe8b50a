"""Issue 35: the error pages are our own, in the reader's language, with the right lang.

Django's defaults are English with lang="en" whatever the reader reads. Each page's
words are looked up in the catalogue here, so a heading that loses its gettext (or
its translation) turns this red.
"""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.views import defaults

LANGUAGES = ["de", "fr", "es"]


def worded(language: str, english: str) -> str:
    with translation.override(language):
        said = translation.gettext(english)
    assert said != english, f"no {language} translation of {english!r}"
    return said


def assert_page(response, status: int, language: str, heading: str) -> None:
    html = response.content.decode()
    assert response.status_code == status
    assert f'<html lang="{language}">' in html
    assert worded(language, heading) in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_page_is_worded_for_the_reader(client, language):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert_page(response, 404, language, "There is nothing here")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_forbidden_page_is_worded_for_the_reader_with_the_refusals_own_words(
    client, momenta_campaign, player, language
):
    client.force_login(player)
    url = reverse("campaign_settings", args=[momenta_campaign.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert_page(response, 403, language, "You cannot do that here")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bad_request_is_worded_for_the_reader(client, language):
    response = client.get("/", HTTP_HOST="not-our-host.example", HTTP_ACCEPT_LANGUAGE=language)
    assert_page(response, 400, language, "The table could not read that request")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_form_without_its_csrf_token_is_worded_for_the_reader(db, language):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {}, HTTP_ACCEPT_LANGUAGE=language)
    assert_page(response, 403, language, "That form could not be sent")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_error_is_worded_in_the_language_of_the_request(rf, language):
    # Django renders 500.html without the request: the active language is the request's.
    with translation.override(language):
        response = defaults.server_error(rf.get("/"))
    assert_page(response, 500, language, "Something went wrong on our side")

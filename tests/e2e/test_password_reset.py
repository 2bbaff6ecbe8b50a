"""Password reset by email, end to end in a browser (issue 27): from the login page's
link to logging in with the new password. The server sends mail to files
(EMAIL_URL=file://…, momenta_site/email_url.py), which the test reads as the inbox."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import PASSWORD, TIMEOUT_MS, seeded_server

pytestmark = pytest.mark.e2e

NEW_PASSWORD = "new-e2e-pass-456"
ADDRESS = "alice@example.org"
GIVE_ALICE_AN_ADDRESS = f"""
from django.contrib.auth import get_user_model
get_user_model().objects.filter(username="alice").update(email="{ADDRESS}")
"""


@pytest.fixture(scope="module")
def inbox(tmp_path_factory):
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory, inbox):
    server = seeded_server(tmp_path_factory, EMAIL_URL=f"file://{inbox}")
    server.manage("shell", "-c", GIVE_ALICE_AN_ADDRESS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _only_mail(inbox) -> str:
    """The one mail, once written whole: it goes out after the done page's answer
    (issue 34), so it may still be on its way when the page shows."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        files = list(inbox.iterdir())
        # The file backend ends each message with a line of 79 dashes.
        if len(files) == 1 and files[0].read_text().endswith("-" * 79 + "\n"):
            break
        time.sleep(0.05)
    (message,) = inbox.iterdir()
    return message.read_text()


def test_a_forgotten_password_is_reset_from_the_mailed_link(browser, mail_server, inbox):
    from playwright.sync_api import expect

    base = mail_server.base
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"{base}/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(ADDRESS)
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()

    mail = _only_mail(inbox)
    assert f"To: {ADDRESS}" in mail
    link = re.search(r"http://127\.0\.0\.1:\d+/password/reset/\S+/\S+/", mail)[0]
    assert link.startswith(base)

    page.goto(link)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()

    # The old password no longer opens the account; the new one does.
    page.get_by_role("main").get_by_role("link", name="Log in").click()
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    expect(page.locator("p.error")).to_be_visible()
    page.fill("#id_password", NEW_PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    expect(page.get_by_text("E2E Table")).to_be_visible()

    # The link worked once.
    page.goto(link)
    expect(page.get_by_role("heading", name="This link no longer works")).to_be_visible()
    context.close()

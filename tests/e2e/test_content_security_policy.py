"""The pages work under their Content-Security-Policy (issue 12): a GM and a player open
every page of both tables, roll and redraw the odds, and the browser refuses nothing."""

from __future__ import annotations

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e


def _visit(browser, base: str, name: str, paths: list[str]) -> list[str]:
    """Log in as `name`, open each path (acting on the table pages); the console's
    CSP refusals and the page errors."""
    from playwright.sync_api import expect

    refused: list[str] = []
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: refused.append(str(error)))
    page.goto(f"{base}/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    for path in paths:
        page.goto(base + path)
        if path.endswith("/table/"):
            expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
            # Open a pool's history: a dialog filled by htmx.
            page.locator(".pool-open").first.click()
            expect(page.locator("#pool-ledger-body")).not_to_be_empty()
            page.keyboard.press("Escape")
    context.close()
    return refused


def test_no_page_breaks_its_content_security_policy(browser, app_server):
    tables = [app_server.campaign, app_server.d20_campaign]
    paths = ["/", "/campaigns/new/"]
    for pk in tables:
        paths += [f"/campaigns/{pk}/", f"/campaigns/{pk}/table/", f"/campaigns/{pk}/settings/"]
    refused = _visit(browser, app_server.base, "gm", paths)
    refused += _visit(browser, app_server.base, "alice", [f"/campaigns/{tables[0]}/table/"])
    assert refused == []

"""The GM tools as tabs (issue 14): the WAI-ARIA tabs pattern on the GM panel
(static/tables/gm_tabs.js), driven from the keyboard, while live pushes keep swapping
the parts inside it by id (the Threat heading, MO-13). Without script every section
shows, stacked under its heading."""

from __future__ import annotations

import pytest

from .conftest import PASSWORD, TIMEOUT_MS
from .test_live_table import buy_a_d20_with_threat, log_in

pytestmark = pytest.mark.e2e


def give_paul_a_skill(app_server) -> None:
    # The seed's 2d20 characters have attributes only: give Paul a skill to test.
    app_server.manage(
        "shell",
        "-c",
        "from tables.models import Character; "
        "Character.objects.get(name='Paul').skills.get_or_create(name='Communicate', value=6)",
    )


def test_the_gm_switches_tool_tabs_with_the_keyboard_and_a_push_still_updates_threat(
    browser, app_server
):
    from playwright.sync_api import expect

    errors: list = []
    give_paul_a_skill(app_server)
    path = f"/campaigns/{app_server.d20_campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    alice_context, alice = log_in(browser, app_server.base, "alice", path, errors)
    try:
        tablist = gm.locator("#gm-panel [role=tablist]")
        tabs = tablist.locator("[role=tab]")
        expect(tablist).to_have_attribute("aria-label", "GM tools")
        session, threat = gm.locator("#gm-tab-session-tab"), gm.locator("#gm-tab-threat-tab")
        expect(session).to_have_attribute("aria-selected", "true")
        # Only the chosen panel shows; each panel is named by its tab.
        expect(gm.locator("#gm-tab-session")).to_be_visible()
        expect(gm.locator("#gm-tab-threat")).to_be_hidden()
        expect(gm.locator("#gm-tab-threat")).to_have_attribute("role", "tabpanel")
        expect(gm.locator("#gm-tab-threat")).to_have_attribute(
            "aria-labelledby", "gm-tab-threat-tab"
        )
        count = tabs.count()
        assert count >= 5  # Session, Threat, Pools, Contests, Secret rolls, Spends

        # The keyboard: one Tab stop for the list, arrows between tabs, Home and End.
        session.focus()
        gm.keyboard.press("ArrowRight")
        expect(threat).to_be_focused()
        expect(threat).to_have_attribute("aria-selected", "true")
        expect(session).to_have_attribute("tabindex", "-1")
        expect(gm.locator("#gm-tab-threat")).to_be_visible()
        expect(gm.locator("#gm-tab-session")).to_be_hidden()
        gm.keyboard.press("End")
        expect(tabs.nth(count - 1)).to_be_focused()
        expect(tabs.nth(count - 1)).to_have_attribute("aria-selected", "true")
        gm.keyboard.press("ArrowRight")  # wraps round to the first
        expect(session).to_be_focused()
        gm.keyboard.press("ArrowLeft")
        expect(tabs.nth(count - 1)).to_be_focused()
        gm.keyboard.press("Home")
        gm.keyboard.press("ArrowRight")
        expect(threat).to_have_attribute("aria-selected", "true")

        heading = gm.locator("#gm-threat-heading .gm-threat")
        before = int(heading.inner_text())
        expect(threat.locator(".gm-tab-badge")).to_have_text(str(before))
        buy_a_d20_with_threat(app_server, alice)
        # The push swaps the heading inside the chosen panel: new Threat, same tab.
        expect(heading).to_have_text(str(before + 1))
        expect(heading).to_be_visible()
        expect(threat.locator(".gm-tab-badge")).to_have_text(str(before + 1))
        expect(threat).to_have_attribute("aria-selected", "true")
        expect(gm.locator("#gm-tab-session")).to_be_hidden()
        # A GM form's answer redraws the whole panel: the chosen tab stays chosen.
        gm.locator("#gm-tab-threat input[name=reason]").fill("Tabs")
        gm.locator("#gm-tab-threat button[value=add]").click()
        expect(heading).to_have_text(str(before + 2))
        expect(gm.locator("#gm-tab-threat-tab")).to_have_attribute("aria-selected", "true")
        expect(gm.locator("#gm-tab-threat")).to_be_visible()
    finally:
        gm_context.close()
        alice_context.close()
    assert errors == []


def test_without_script_every_gm_section_shows_under_its_heading(browser, app_server):
    from playwright.sync_api import expect

    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        path = f"/campaigns/{app_server.d20_campaign}/table/"
        page.goto(f"{app_server.base}/login/?next={path}")
        page.fill("#id_username", "gm")
        page.fill("#id_password", PASSWORD)
        page.click("form[action='/login/'] button[type=submit]")
        page.wait_for_url(app_server.base + path)
        sections = page.locator("#gm-panel [data-gm-tab]")
        assert sections.count() >= 5
        for i in range(sections.count()):
            expect(sections.nth(i)).to_be_visible()
        expect(page.locator("#gm-panel [data-gm-tablist]")).to_be_hidden()
        expect(page.locator("#gm-threat-heading")).to_be_visible()
    finally:
        context.close()


def test_the_templates_tab_brings_its_forms_when_first_opened(browser, app_server):
    """The Momenta table page draws the roll templates' and patterns' tabs without their
    forms (gm_tools_later.html): opening the tab fetches them, and they work."""
    from playwright.sync_api import expect

    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    gm_context, gm = log_in(browser, app_server.base, "gm", path, errors)
    try:
        templates = gm.locator("#momenta-templates")
        expect(templates.locator("form")).to_have_count(0)
        gm.locator("#momenta-templates-tab").click()
        edits = templates.locator("details.mc-template")
        expect(edits.first).to_be_visible()
        assert edits.count() >= 2  # the seeded templates and "New template"
        expect(gm.locator("#momenta-templates-tab")).to_have_attribute("aria-selected", "true")
        # The patterns' tab came in the same answer: it fetches nothing more.
        expect(gm.locator("#momenta-patterns form.mc-subform")).to_have_count(1)
        edits.last.locator("summary").click()
        new = edits.last.locator("form.mc-subform")
        new.locator("input[name=name]").fill("Sneak")
        for band, words in enumerate(["Seen", "Noticed", "Unseen", "Ghost"]):
            new.locator(f"input[name=band_{band}]").fill(words)
        new.locator("button[type=submit]").click()
        expect(gm.locator("#momenta-gm-tools .notice")).to_be_visible()
        expect(templates.locator("summary", has_text="Sneak")).to_have_count(1)
    finally:
        gm_context.close()
    assert errors == []

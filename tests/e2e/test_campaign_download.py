"""The GM's backup (issue 15): the campaign page's download button gives the whole
campaign as a file that `manage.py import_campaign` turns into a new campaign."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e


def _logged_in(browser, base: str, name: str):
    context = browser.new_context(accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"{base}/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(f"{base}/")
    return context, page


def test_the_gm_downloads_a_backup_that_imports_as_a_new_campaign(browser, app_server, tmp_path):
    base, pk = app_server.base, app_server.campaign
    context, page = _logged_in(browser, base, "alice")
    page.goto(f"{base}/campaigns/{pk}/")
    assert page.get_by_role("link", name="Download a backup").count() == 0
    context.close()

    context, page = _logged_in(browser, base, "gm")
    page.goto(f"{base}/campaigns/{pk}/")
    with page.expect_download() as caught:
        page.get_by_role("link", name="Download a backup").click()
    download = caught.value
    assert re.fullmatch(r"e2e-table-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    context.close()

    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == ("momenta-table.campaign", 1)
    assert document["campaign"]["name"] == "E2E Table"
    assert {m["user"] for m in document["members"]} == {"gm", "alice", "bob"}

    done = app_server.manage("import_campaign", str(path), capture_output=True, text=True)
    copy = int(re.fullmatch(r"Imported E2E Table as campaign (\d+)\.\n", done.stdout)[1])
    assert copy != pk

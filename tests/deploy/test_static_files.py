"""Static files collected after an instance started are served (momenta_site/static_files.py).

Mid-upgrade a page drawn by a new instance names the new release's hashed files,
and the browser may fetch them from an old instance that listed STATIC_ROOT
before collectstatic wrote them.
"""

from __future__ import annotations

import pytest
from django.http import HttpResponseNotFound
from django.test import RequestFactory

from momenta_site.static_files import StaticFilesMiddleware


@pytest.fixture
def collected(settings, tmp_path):
    """A production instance's whitenoise over STATIC_ROOT, started before the upgrade."""
    settings.STATIC_ROOT = tmp_path / "static"
    settings.WHITENOISE_AUTOREFRESH = False
    settings.WHITENOISE_USE_FINDERS = False
    (tmp_path / "static" / "tables").mkdir(parents=True)
    (tmp_path / "static" / "tables" / "app.0123456789ab.css").write_text("old {}")
    (tmp_path / "secret.txt").write_text("not static")
    started = StaticFilesMiddleware(lambda request: HttpResponseNotFound())
    return started, tmp_path / "static"


def get(middleware, path):
    return middleware(RequestFactory().get(path))


def test_files_collected_before_start_are_served(collected):
    started, _ = collected
    answer = get(started, "/static/tables/app.0123456789ab.css")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content) == b"old {}"


def test_a_newer_releases_file_collected_after_start_is_served_and_cached_for_good(collected):
    started, root = collected
    assert get(started, "/static/tables/app.ba9876543210.css").status_code == 404
    (root / "tables" / "app.ba9876543210.css").write_text("new {}")
    answer = get(started, "/static/tables/app.ba9876543210.css")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content) == b"new {}"
    assert "immutable" in answer["Cache-Control"]
    # The old release's file is still there for the old instances' pages.
    assert get(started, "/static/tables/app.0123456789ab.css").status_code == 200


def test_an_unhashed_file_collected_after_start_is_not_cached_for_good(collected):
    started, root = collected
    (root / "tables" / "app.css").write_text("new {}")
    answer = get(started, "/static/tables/app.css")
    assert answer.status_code == 200
    assert "immutable" not in answer["Cache-Control"]


@pytest.mark.parametrize("path", ["/static/../secret.txt", "/static/tables/../../secret.txt"])
def test_nothing_outside_static_root_is_served(collected, path):
    started, _ = collected
    assert get(started, path).status_code == 404

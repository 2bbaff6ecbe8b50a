"""The browser fixtures of the e2e tests (Debian's chromium via Playwright), shared."""

from tests.e2e.conftest import browser, chromium_path

__all__ = ["browser", "chromium_path"]

"""The browser fixtures of the e2e tests (Debian's chromium via Playwright), shared."""

from tests.e2e.conftest import chromium_path

__all__ = ["chromium_path"]

"""Debian's chromium, headless, as Playwright launches it for tests and screenshots."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI and containers run as root, where chromium's sandbox refuses to start
    "--disable-gpu",
    # No calls home (updates, sync, field trials): runs stay offline and quiet.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_installed() -> bool:
    return CHROMIUM.exists()


def launch(playwright, executable: Path | str = CHROMIUM, extra_args: tuple[str, ...] = ()):
    """A headless chromium browser from a started `sync_playwright()`; `extra_args`
    e.g. a --host-resolver-rules mapping a test's host name to loopback."""
    return playwright.chromium.launch(
        executable_path=str(executable), args=[*CHROMIUM_ARGS, *extra_args]
    )

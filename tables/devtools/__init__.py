"""Development tools shared by the browser tests (tests/e2e) and the README's
screenshots (docs/screenshots/capture.py): launching chromium and running a
throwaway server. The running app never imports this package."""

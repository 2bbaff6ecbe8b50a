"""The browser fixtures of the e2e tests (Debian's chromium via Playwright), shared, and
the command line as a GM's shell runs it."""

import os
import subprocess
import sys

from momenta_site import hosting
from tables.devtools.server import ROOT
from tests.e2e.conftest import chromium_path

__all__ = ["chromium_path", "run_from_a_gm_shell"]

# As a GM's shell has it: no SECRET_KEY, DEBUG off, not under pytest, no password given.
NOT_IN_A_GM_SHELL = (hosting.PASSWORD_VARIABLE, "SECRET_KEY", "DEBUG", "PYTEST_VERSION")


def run_from_a_gm_shell(*args: str) -> subprocess.CompletedProcess:
    """`python manage.py ARGS…` with the environment a GM's own shell would have."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_IN_A_GM_SHELL}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )

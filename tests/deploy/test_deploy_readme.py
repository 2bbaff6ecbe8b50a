"""deploy/README.md's steps hold together (issue 39): what the upgrade starts, the
install steps installed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "deploy" / "README.md").read_text()


def install_steps() -> str:
    """The numbered install steps: from "## 1." to the section after the last numbered one."""
    numbered = list(re.finditer(r"^## \d+\. .*$", README, re.MULTILINE))
    following = re.compile(r"^## ", re.MULTILINE).search(README, numbered[-1].end())
    return README[numbered[0].start() : following.start() if following else len(README)]


def upgrade_steps() -> str:
    start = README.index("\n## Upgrading\n")
    return README[start : README.index("\n### ", start)]


def test_every_unit_the_upgrade_starts_is_installed_by_the_install_steps():
    steps = install_steps()
    started = re.findall(r"systemctl start ([\w@.-]+\.service)", upgrade_steps())
    assert started, "the upgrade starts no unit: this test would check nothing"
    for unit in started:
        assert re.search(rf"cp [^\n]*deploy/{re.escape(unit)}", steps), unit


def test_the_install_steps_enable_the_daily_dump():
    steps = install_steps()
    assert "deploy/momenta-backup.timer" in steps
    assert "systemctl enable --now momenta-backup.timer" in steps


def test_the_venv_is_made_from_debians_python():
    """A venv made from root's pyenv Python is not runnable by the service user."""
    assert "/usr/bin/python3 -m venv /srv/momenta/venv" in install_steps()

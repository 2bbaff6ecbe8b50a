"""deploy/manage reads the env file as systemd does for the workers (issue 27)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from momenta_site.env_file import EnvFileError, read

ROOT = Path(__file__).resolve().parents[2]


def test_values_are_taken_as_written_like_systemd(tmp_path):
    env = tmp_path / "momenta.env"
    env.write_text(
        "# a comment\n"
        "\n"
        "DATABASE_URL=postgres://momenta:pa$$word&x@db/momenta\n"
        "  SECRET_KEY = a b  c  \n"
        "; another comment\n"
        "CSRF_TRUSTED_ORIGINS=https://table.example.org#not-a-comment\n"
    )
    assert read(env) == {
        "DATABASE_URL": "postgres://momenta:pa$$word&x@db/momenta",
        "SECRET_KEY": "a b  c",
        "CSRF_TRUSTED_ORIGINS": "https://table.example.org#not-a-comment",
    }


@pytest.mark.parametrize(
    "line", ['SECRET_KEY="quoted"', "SECRET_KEY='quoted'", "SECRET_KEY=a\\b", "export X=1", "X"]
)
def test_what_systemd_would_interpret_is_refused_with_its_line(tmp_path, line):
    env = tmp_path / "momenta.env"
    env.write_text(f"DEBUG=0\n{line}\n")
    with pytest.raises(EnvFileError, match="line 2"):
        read(env)


def test_the_example_env_file_is_read():
    assert read(ROOT / "deploy" / "momenta.env.example")["DEBUG"] == "0"


def test_manage_py_runs_with_the_files_values_literally(tmp_path):
    """What deploy/manage runs, minus runuser: the child sees the value untouched."""
    env = tmp_path / "momenta.env"
    env.write_text("DEBUG=1\nCHANNEL_LAYER_PREFIX=a $HOME `id` b\n")
    script = tmp_path / "show.py"
    script.write_text("import os; print(os.environ['CHANNEL_LAYER_PREFIX'])\n")
    base = {k: v for k, v in os.environ.items() if k != "CHANNEL_LAYER_PREFIX"}
    done = subprocess.run(
        [sys.executable, "-m", "momenta_site.env_file", str(env), str(script)],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a $HOME `id` b\n"


def test_deploy_manage_reads_the_file_through_the_same_reader():
    manage = " ".join((ROOT / "deploy" / "manage").read_text().replace("\\\n", " ").split())
    assert "momenta_site.env_file /etc/momenta/momenta.env manage.py" in manage
    assert ". /etc/momenta" not in manage  # never sourced by the shell again

"""deploy/manage reads the env file as systemd does for the workers (issue 27)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from momenta_site.email_url import email_settings
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


EXAMPLE = ROOT / "deploy" / "momenta.env.example"


def test_the_example_env_file_is_read():
    assert read(EXAMPLE)["DEBUG"] == "0"


def test_the_examples_commented_out_lines_are_read_as_written(tmp_path):
    """Each `#KEY=value` of the example, uncommented, is read by the same reader, a space,
    & and ; kept: what the file shows is what an operator can write (issue 39)."""
    lines = EXAMPLE.read_text().splitlines()
    examples = [line[1:] for line in lines if re.match(r"#[A-Z_]+=", line)]
    assert examples, "the example shows no commented-out KEY=value line"
    for line in examples:
        one = tmp_path / "one.env"
        one.write_text(line + "\n")
        key, _, value = line.partition("=")
        assert read(one) == {key: value}, line
    by_key = {}  # each key's first example
    for line in examples:
        by_key.setdefault(*line.partition("=")[::2])
    mail = email_settings(by_key["EMAIL_URL"])
    assert mail["EMAIL_HOST_PASSWORD"] == "pass word;&more"
    assert by_key["DEFAULT_FROM_EMAIL"] == "Momenta Table <table@example.org>"


def test_the_example_never_asks_for_quotes():
    """The reader refuses quotes (as systemd would strip them): the comments say so."""
    for line in EXAMPLE.read_text().splitlines():
        if line.startswith("#") and "quote" in line.lower():
            assert "no quotes" in line, line


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
    assert '-m momenta_site.env_file "$env_file" manage.py "$@"' in manage
    assert ". /etc/momenta" not in manage and '. "$env_file"' not in manage  # never sourced
    # deploy/README.md's paths, unless the operator's environment names others.
    for default in (
        "app=${MOMENTA_APP:-/srv/momenta/app}",
        "env_file=${MOMENTA_ENV_FILE:-/etc/momenta/momenta.env}",
        "python=${MOMENTA_PYTHON:-/srv/momenta/venv/bin/python}",
        "user=${MOMENTA_USER:-momenta}",
    ):
        assert default in manage


def test_deploy_manage_runs_where_the_environment_says(tmp_path):
    """MOMENTA_APP, MOMENTA_ENV_FILE, MOMENTA_PYTHON and MOMENTA_USER (issue 39): the
    command runs in that app folder, with that file's values, that python, as that user.
    runuser is a stand-in on PATH that notes its user and runs the rest."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "manage.py").write_text(
        "import os, sys; print(os.getcwd(), os.environ['CHANNEL_LAYER_PREFIX'], sys.argv[1:])\n"
    )
    env = tmp_path / "site.env"
    env.write_text("CHANNEL_LAYER_PREFIX=a $HOME b\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    runuser = bin_dir / "runuser"
    runuser.write_text(
        '#!/bin/sh\n[ "$1" = -u ] && [ "$3" = -- ] || exit 9\necho "as $2"\nshift 3\nexec "$@"\n'
    )
    runuser.chmod(runuser.stat().st_mode | stat.S_IEXEC)
    done = subprocess.run(
        [str(ROOT / "deploy" / "manage"), "migrate", "--check"],
        env={
            **{k: v for k, v in os.environ.items() if k != "CHANNEL_LAYER_PREFIX"},
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "MOMENTA_APP": str(app),
            "MOMENTA_ENV_FILE": str(env),
            "MOMENTA_PYTHON": sys.executable,
            "MOMENTA_USER": "gm-site",
        },
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"as gm-site\n{app} a $HOME b ['migrate', '--check']\n"

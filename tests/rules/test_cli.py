"""`python -m rules odds N [--vs M]` (D6-12, PAT-10)."""

import subprocess
import sys
from pathlib import Path

import pytest

from rules.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_d6_12_odds_command_prints_bands_in_percent_and_exact(capsys):
    """D6-12: the odds command shows each band's exact chance and its percent."""
    assert main(["odds", "3"]) == 0
    out = capsys.readouterr().out
    assert "3d6: chance of each band" in out
    assert "29.63%  8/27" in out
    assert "44.44%  4/9" in out
    assert "22.22%  2/9" in out
    assert "3.70%  1/27" in out
    assert "Success with a Bonus" in out


def test_pat_10_odds_command_prints_pattern_chances(capsys):
    """PAT-10: the odds command shows the chance of a Double, Triple and Quad."""
    main(["odds", "3"])
    out = capsys.readouterr().out
    assert "Double" in out and "44.44%  4/9" in out
    assert "Triple" in out and "2.78%  1/36" in out
    assert "Quad" in out and "0.00%  0" in out


def test_d6_10_odds_command_with_opposition(capsys):
    """D6-10: --vs M reads bands from effective successes against an M-die opposition."""
    main(["odds", "1", "--vs", "1"])
    out = capsys.readouterr().out
    assert "1d6 vs 1d6" in out
    # 1d6 vs 1d6: one effective success only if the roller succeeds and the opposition fails.
    assert "22.22%  2/9" in out and "77.78%  7/9" in out


def test_d6_07_odds_command_zero_and_negative_pools(capsys):
    """D6-07: 0 or fewer dice: 2d6 keep lowest, 1/9, no patterns."""
    main(["odds", "-2"])
    out = capsys.readouterr().out
    assert "2d6, keep lowest" in out and "11.11%  1/9" in out
    assert "patterns do not apply" in out


BAD_ARGS = [
    [],
    ["odds"],
    ["odds", "x"],
    ["odds", "2.5"],
    ["odds", "4", "--vs", "y"],
    ["odds", "9999"],
    ["roll", "3"],
]


@pytest.mark.parametrize("argv", BAD_ARGS)
def test_odds_command_bad_input_is_an_argparse_error(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_odds_command_runs_as_module():
    done = subprocess.run(
        [sys.executable, "-m", "rules", "odds", "6", "--vs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "6d6 vs 2d6" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "rules", "odds", "many"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "not a whole number" in bad.stderr

"""TB-02 at the source: rules' default dice are unpredictable from one process to the next.

A seeded generator (random.Random(0), say) repeats its sequence in every fresh
process; the OS CSPRNG never does. Two processes rolling 64 d6 and 60 d20 with
no source given may share one by chance (about 6^-64 · 20^-60), never by design.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRAW = """
import json
from rules.d20 import SkillTest, roll_test
from rules.dice import roll_d6

test = SkillTest(target=10, bought_dice=3)
d20 = [face for _ in range(12) for face in roll_test(test).faces]
print(json.dumps({"d6": roll_d6(64), "d20": d20}))
"""


def draw_in_a_fresh_process() -> dict:
    done = subprocess.run(
        [sys.executable, "-c", DRAW], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_tb_02_fresh_processes_never_roll_the_same_sequence():
    first, second = draw_in_a_fresh_process(), draw_in_a_fresh_process()
    assert len(first["d6"]) == 64 and set(first["d6"]) <= set(range(1, 7))
    assert len(first["d20"]) == 60 and set(first["d20"]) <= set(range(1, 21))
    assert first["d6"] != second["d6"]
    assert first["d20"] != second["d20"]

"""The served process collects garbage as a server, not as a script (momenta_site/gc_tuning.py).

Checked in a fresh interpreter that loads the ASGI application as uvicorn does: this test
process's own collector is not the one a server runs with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from momenta_site.gc_tuning import THRESHOLDS

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json
import momenta_site.asgi
print(json.dumps({"thresholds": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def test_the_asgi_application_freezes_start_up_and_raises_the_thresholds():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "momenta_site.settings", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    bare = bare_interpreter()
    assert tuple(seen["thresholds"]) == THRESHOLDS != tuple(bare["thresholds"])
    # Frozen after Django, the URL patterns and the consumers were loaded: many times what
    # a bare interpreter has.
    assert seen["frozen"] > 5 * bare["frozen"]


def bare_interpreter() -> dict:
    probe = (
        "import gc, json; gc.collect(); gc.freeze();"
        " print(json.dumps({'thresholds': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return json.loads(done.stdout)

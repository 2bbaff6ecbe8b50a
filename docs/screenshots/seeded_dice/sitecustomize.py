"""Seeded dice for the screenshots' demo server only: the same faces on every run.

docs/screenshots/capture.py starts `manage.py demo` with this folder on PYTHONPATH and
MOMENTA_SCREENSHOT_SEED set; Python imports this module at start-up, before Django.
Every roll's source (rules/dice.py, rules/d20.py, rules/challenge.py: secrets.SystemRandom,
TB-02) then draws from one random.Random with that seed. Nothing else on this machine
runs with this folder on its path, and without the variable it changes nothing.
"""

import os

seed = os.environ.get("MOMENTA_SCREENSHOT_SEED")
if seed is not None:
    import random
    import secrets

    _dice = random.Random(int(seed))
    # secrets' own functions (tokens, Django's CSRF and session keys) keep their
    # generator, made when secrets was imported: only new SystemRandom() calls are seeded.
    secrets.SystemRandom = lambda: _dice

"""The message catalogues (locale/*/LC_MESSAGES/django.po) compiled to the .mo files
Django reads (issue 28).

The .mo files are built, never committed: a binary beside each .po would go stale the
moment a translator edits the text, and conflict in every merge of two translators'
work. `manage.py demo`, the test run (tests/conftest.py) and the deploy steps
(deploy/README.md) call this; Django's compilemessages skips a .po whose .mo is newer,
so a second call costs a few stat()s. It needs GNU gettext's msgfmt (Debian: gettext).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

# Only LOCALE_PATHS: compilemessages otherwise walks the working directory for every
# folder named "locale", .venv's packages' included, and writes into them.
_NO_WALK = ["*"]


def compile_catalogues(verbosity: int = 0) -> None:
    with contextlib.chdir(settings.BASE_DIR):
        call_command("compilemessages", ignore_patterns=_NO_WALK, verbosity=verbosity)


# What `makemessages` reads besides the defaults it skips (dot-folders such as .venv):
# tests, benchmarks and collected copies hold no text a person reads.
NOT_EXTRACTED = ["tests", "bench", "deploy", "docs", "staticfiles", "tmp", "*.egg-info"]


def extract(locales, verbosity: int = 0, root: Path | None = None) -> None:
    """`manage.py makemessages` for `locales`, over the project's code and templates
    (in `root`, default the project's folder; the catalogues are LOCALE_PATHS[0]'s):
    adds new strings to each catalogue (empty msgstr), drops vanished ones."""
    with contextlib.chdir(root or settings.BASE_DIR):
        call_command(
            "makemessages",
            locale=list(locales),
            ignore_patterns=NOT_EXTRACTED,
            no_obsolete=True,
            # File names without line numbers: an edit elsewhere in a file then changes
            # no catalogue, and two branches' catalogues merge without conflicts.
            add_location="file",
            verbosity=verbosity,
        )


def uncompiled() -> list[Path]:
    """The catalogues whose .mo is missing or older than their .po."""
    stale = []
    for root in settings.LOCALE_PATHS:
        for po in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                stale.append(po)
    return stale

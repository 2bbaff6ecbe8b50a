"""The widget renderer seam side by side with Django's own, in one process (issue 38).

Posts Momenta rolls and 2d20 tests with Django's test client (temp SQLite, fixed dice,
as bench/roll_profile.py), in blocks that alternate FORM_RENDERER between
momenta_site.form_renderer.FastWidgetRenderer and Django's DjangoTemplates, so a noisy,
shared machine slows both alike. Prints, per command, the median CPU ms per command
under each and what the seam saves, as a share of the plain path's CPU.

    .venv/bin/python bench/widget_renderer.py                 # this tree
    .venv/bin/python bench/widget_renderer.py --blocks 30 --rolls 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import temp_site  # bench/temp_site.py, a sibling

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

RENDERERS = {
    "plain": "django.forms.renderers.DjangoTemplates",
    "seam": "momenta_site.form_renderer.FastWidgetRenderer",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--blocks", type=int, default=20, help="blocks per renderer")
    parser.add_argument("--rolls", type=int, default=20, help="commands per block")
    args = parser.parse_args()

    temp_site.start_django("widget-renderer-")
    from django.test import override_settings

    temp_site.fix_dice()
    commands = temp_site.seeded_commands()
    cpu: dict[tuple[str, str], list[float]] = {}
    for kind in ("momenta", "d20"):
        send, _view = commands[kind]
        for _ in range(5):  # warm: imports, template cache, connection
            assert send().status_code == 200
        for block in range(args.blocks * 2):
            # Alternate which goes first, so neither always follows the other.
            order = list(RENDERERS) if block % 2 else list(reversed(RENDERERS))
            for name in order:
                with override_settings(FORM_RENDERER=RENDERERS[name]):
                    start = time.process_time()
                    for _ in range(args.rolls):
                        send()
                    spent = (time.process_time() - start) * 1000 / args.rolls
                cpu.setdefault((kind, name), []).append(spent)
    print(f"{args.blocks * 2} blocks x {args.rolls} commands per renderer, interleaved")
    for kind in ("momenta", "d20"):
        plain = statistics.median(cpu[(kind, "plain")])
        seam = statistics.median(cpu[(kind, "seam")])
        print(
            f"  {kind:8} plain {plain:6.2f} ms  seam {seam:6.2f} ms  "
            f"seam saves {(plain - seam) / plain:6.1%} of the plain path's CPU"
        )


if __name__ == "__main__":
    main()

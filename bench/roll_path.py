"""How far a command travels through the code: modules entered and climbs back up a layer.

Posts one Momenta roll, one 2d20 test and one table-talk message with Django's test
client (temp SQLite, fixed dice, as bench/roll_profile.py) and follows every Python call
made from the moment the view is entered until it returns its answer
(`sys.setprofile`). It prints, per command:

- **modules**: the modules of tables/ whose code ran, models left out (the ground every
  layer stands on); in brackets, all the project's modules entered (tables/, rules/,
  momenta_site/, models included);
- **climbs**: pairs of modules where the first called the second although the second
  sits on an earlier layer (below), each pair counted once and listed, and in brackets
  how many such calls were made.

The layers, in the order a command should run (../shared/STYLE.md): views, forms,
services, then live and discord (after the commit), presenters, template tags; models,
events, the policy, errors and rules/ are the ground (a call into them never climbs).
Django's own frames in between (the template engine, the ORM) are skipped: the caller is
the nearest project frame.

    .venv/bin/python bench/roll_path.py            # this tree
    .venv/bin/python bench/roll_path.py --list     # + every module entered
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import temp_site  # bench/temp_site.py, a sibling

HERE = Path(__file__).resolve().parent.parent
# This tree's code, not an installed copy's (an editable install may point elsewhere).
sys.path.insert(0, str(HERE))
PACKAGES = ("tables", "rules", "momenta_site")
# The order a command should run in (../shared/STYLE.md): view -> form -> service ->
# (live, discord: after the commit) -> presenter -> template tags; models, events, the
# policy and rules/ are the ground every layer stands on. A call to an earlier layer
# climbs back up.
LAYERS = [  # module prefix -> place in that order, the most specific prefix first
    ("tables.views", 0),
    ("tables.forms", 1),
    ("tables.services", 2),
    ("tables.live", 3),
    ("tables.discord", 3),
    ("tables.exports", 3),
    ("tables.presenters", 4),
    ("tables.templatetags", 5),
    ("tables", 6),  # models, events, policy, errors, clause_ids, apps
    ("momenta_site", 6),
    ("rules", 6),
]
GROUND = 6


def layer(module: str) -> int:
    return next(rank for prefix, rank in LAYERS if module == prefix or module.startswith(prefix))


def module_of(filename: str) -> str | None:
    try:
        relative = Path(filename).resolve().relative_to(HERE)
    except ValueError:
        return None
    if relative.parts[0] not in PACKAGES or relative.suffix != ".py":
        return None
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Tracer:
    """Records project modules entered and upward calls while the view runs."""

    def __init__(self, view_module: str) -> None:
        self.view_module = view_module
        self.modules: list[str] = []
        self.climbs: list[tuple[str, str]] = []
        self.upward_calls = 0
        self.stack: list[str | None] = []  # the project module of each frame (or None)
        self.depth_at_view: int | None = None

    def __call__(self, frame, event, arg):
        if event == "call":
            module = module_of(frame.f_code.co_filename)
            if self.depth_at_view is None:
                if module == self.view_module:
                    self.depth_at_view = len(self.stack)
                else:
                    self.stack.append(module)
                    return
            # Only frames from the view down: what called the view is not on the path.
            inside = self.stack[self.depth_at_view :]
            caller = next((m for m in reversed(inside) if m), None)
            self.stack.append(module)
            if module is None:
                return
            if module not in self.modules:
                self.modules.append(module)
            if caller and caller != module and layer(module) < layer(caller):
                self.upward_calls += 1
                if (caller, module) not in self.climbs:
                    self.climbs.append((caller, module))
        elif event == "return":
            if self.stack:
                self.stack.pop()
            if self.depth_at_view is not None and len(self.stack) == self.depth_at_view:
                sys.setprofile(None)


def follow(send, view_module: str) -> Tracer:
    tracer = Tracer(view_module)
    sys.setprofile(tracer)
    try:
        answer = send()
    finally:
        sys.setprofile(None)
    assert answer.status_code == 200, answer.status_code
    assert 'role="alert"' not in answer.content.decode(), "the command was refused"
    return tracer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every module entered")
    args = parser.parse_args()

    temp_site.start_django("roll-path-")
    temp_site.fix_dice()
    commands = temp_site.seeded_commands()
    for name, (send, view_module) in commands.items():
        for _ in range(3):  # warm: imports and caches are not the path
            send()
        tracer = follow(send, view_module)
        counted = [m for m in tracer.modules if m.startswith("tables.") and ".models" not in m]
        print(
            f"{name}: {len(counted)} modules ({len(tracer.modules)} in all), "
            f"{len(tracer.climbs)} climbs back up ({tracer.upward_calls} calls)"
        )
        for caller, callee in tracer.climbs:
            print(f"    up: {caller} -> {callee}")
        if args.list:
            for module in tracer.modules:
                print(f"    {module}")


if __name__ == "__main__":
    main()

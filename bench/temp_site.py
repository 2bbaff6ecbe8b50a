"""What bench/roll_profile.py and bench/gm_push_render.py share: Django on a temporary,
migrated SQLite file with fixed dice, and rounds alternated between two trees.

Imported as a sibling module (`import temp_site`): a child round of an older tree runs
its own copy of the bench, or this directory's, and finds this file either way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace


def start_django(prefix: str) -> None:
    """Django with DEBUG off (the cached template loader, no query log) on a new SQLite file."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="momenta_site.settings",
        DEBUG="0",
        SECRET_KEY=prefix + "x" * 50,
        SQLITE_PATH=str(Path(tmp) / "db.sqlite3"),
        ALLOWED_HOSTS="testserver",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fix_dice() -> None:
    """The same faces in every tree and run."""
    import rules.d20
    from rules.dice import FixedDice
    from tables.services import momenta

    # Where roll_momenta finds it: momenta/rolls.py, or an older tree's momenta.py.
    getattr(momenta, "rolls", momenta).system_random = lambda: FixedDice(
        [5, 5, 2, 3, 1, 4, 6] * 100
    )
    rules.d20._rng = lambda rng: FixedDice([2, 5, 3, 4, 6, 7] * 100) if rng is None else rng


def child(script: Path, tree: Path, tree_env: str, args: list[str]) -> dict:
    """One round in a fresh process of `tree`: its copy of `script` (else this one there)."""
    theirs = tree / "bench" / script.name
    path = theirs if theirs.exists() else script
    env = {**os.environ, "PYTHONPATH": str(tree), tree_env: str(tree)}
    done = subprocess.run(
        [sys.executable, str(path), *args], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"{tree}: the round failed\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def one_round(tree_env: str, default_tree: Path, measure, count: int) -> None:
    """A child's one round: measure in the tree `tree_env` names (else `default_tree`) and
    print the figures as one line of JSON for `child` to read."""
    tree = Path(os.environ.get(tree_env, default_tree))
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    print(json.dumps(measure(count)))


def trees(here: Path, compare: Path | None) -> dict[str, Path]:
    """The trees to measure, the compared one first."""
    found = {"this tree": here}
    return {"compared": compare.resolve(), **found} if compare else found


def alternate(trees: dict[str, Path], rounds: int, one_round) -> dict[str, list[dict]]:
    """`rounds` rounds of each tree, alternating, so a noisy machine slows both alike."""
    results = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            results[name].append(one_round(tree))
    return results


def seed_tables() -> SimpleNamespace:
    """A Momenta table (Ash, a player's character) and a 2d20 table (Kara), each with a GM
    and that player and a session started. Call after start_django."""
    from django.contrib.auth import get_user_model

    from tables.models import Campaign, Character, Membership
    from tables.services import sessions

    users = get_user_model().objects
    gm, player = users.create_user("gm"), users.create_user("player")

    def table(**fields):
        campaign = Campaign.objects.create(owner=gm, **fields)
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
        Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
        sessions.start_session(campaign.pk, gm)
        return campaign

    d6 = table(name="The Drift")
    ash = Character.objects.create(campaign=d6, owner=player, name="Ash", resolve=3, resolve_max=4)
    for name, dice in [("GRIT", 3), ("WITS", 4), ("LUCK", 2)]:
        ash.attributes.create(name=name, value=dice)
    d20 = table(
        name="Arrakis",
        preset=Campaign.Preset.D20,
        dice_system=Campaign.DiceSystem.D20,
        economy=Campaign.Economy.GROUP,
    )
    kara = Character.objects.create(campaign=d20, owner=player, name="Kara", determination=1)
    kara.attributes.create(name="Power", value=7)
    kara.skills.create(name="Communicate", value=6)
    kara.traits.create(kind="focus", text="Persuasion")

    return SimpleNamespace(gm=gm, player=player, d6=d6, ash=ash, d20=d20, kara=kara)


def seeded_commands(sender=None) -> dict:
    """A Momenta table and a 2d20 table with a player's character each, logged in with
    Django's test client: {name: (send, the view's module)}, each send() posting one
    command as the page does (htmx headers). `sender(client)` gives another post (e.g.
    through the ASGI app). Call after start_django and fix_dice."""
    from django.test import Client
    from django.urls import reverse

    seeded = seed_tables()
    player, d6, ash, d20, kara = seeded.player, seeded.d6, seeded.ash, seeded.d20, seeded.kara
    client = Client()
    client.force_login(player)
    hx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "composer"}
    post = sender(client) if sender else client.post

    def momenta_roll():
        ash.refresh_from_db()
        data = {
            "character": ash.pk,
            "attribute": "WITS",
            "kind": "action",
            "play": "narrative",
            "modifiers": "+1",
            "expected_momentum": ash.momentum,
            "expected_resolve": ash.resolve,
        }
        return post(reverse("momenta_roll", args=[d6.pk]), data, **hx)

    def d20_roll():
        data = {
            "character": kara.pk,
            "attribute": "Power",
            "skill": "Communicate",
            "focus": "Persuasion",
            "difficulty": 1,
            "harder": 0,
            "easier": 0,
            "bought_dice": 0,
            "buy_from_momentum": 0,
            "bonus_momentum": 0,
        }
        return post(reverse("d20_roll", args=[d20.pk]), data, **hx)

    def talk():
        # The cheapest command that appends an event (no rules, no pools): the floor.
        data = {"mode": "ooc", "text": "Back in five."}
        return post(reverse("table_talk", args=[d6.pk]), data, **hx)

    return {
        "momenta": (momenta_roll, "tables.views.momenta"),
        "d20": (d20_roll, "tables.views.d20"),
        "talk": (talk, "tables.views.talk"),
    }

"""What one pushed event costs to render per audience (issue 10, "Live at scale"): figures only.

Seeds a Momenta table on a temporary SQLite file (DEBUG off: the cached template loader, no
query log) with a GM tools panel that has something in it (secret rolls, an open Assist),
makes a plain public roll and a 2d20 test with fixed dice, then times
`render.render_event_fragments(event, audience)` for the GM and the players, each call
reading and drawing (median of `--renders` calls per round, wall and CPU ms; a tree
that still has a render cache has it cleared before every call).

    .venv/bin/python bench/gm_push_render.py                      # this tree
    .venv/bin/python bench/gm_push_render.py --compare /tmp/old   # + another tree, interleaved

`--compare DIR` runs the same measure in DIR, alternating rounds between the trees so a
noisy, shared machine slows both alike; each round is a fresh process of its own tree.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import temp_site  # bench/temp_site.py, a sibling: see its docstring

HERE = Path(__file__).resolve().parent.parent


def measure(renders: int) -> dict:
    temp_site.start_django("gm-push-render-")

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.live import render
    from tables.models import Campaign, Character, Membership
    from tables.presenters.table import ALL, GM
    from tables.services import d20 as services_d20
    from tables.services import momenta, sessions

    temp_site.fix_dice()

    users = get_user_model().objects
    gm, player, player2 = (users.create_user(n) for n in ("gm", "player", "player2"))

    def table(**fields):
        campaign = Campaign.objects.create(owner=gm, **fields)
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
        for user in (player, player2):
            Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
        sessions.start_session(campaign.pk, gm)
        return campaign

    d6 = table(name="The Drift")
    ash = Character.objects.create(campaign=d6, owner=player, name="Ash", resolve=3, resolve_max=4)
    bo = Character.objects.create(campaign=d6, owner=player2, name="Bo", resolve=2, resolve_max=3)
    for character in (ash, bo):
        for name, dice in [("GRIT", 3), ("WITS", 4), ("LUCK", 2)]:
            character.attributes.create(name=name, value=dice)
    for _ in range(3):  # the GM's secret rolls list has lines in it
        momenta.roll_momenta(d6.pk, gm, bo.pk, momenta.RollRequest(attribute="GRIT", secret=True))
    momenta.request_assist(d6.pk, player2, ash.pk, bo.pk)  # and the Assist queue one
    plain = momenta.roll_momenta(d6.pk, player, ash.pk, momenta.RollRequest(attribute="WITS"))

    d20 = table(
        name="Arrakis",
        preset=Campaign.Preset.D20,
        dice_system=Campaign.DiceSystem.D20,
        economy=Campaign.Economy.GROUP,
    )
    kara = Character.objects.create(campaign=d20, owner=player, name="Kara", determination=1)
    kara.attributes.create(name="Power", value=7)
    kara.skills.create(name="Communicate", value=6)
    test = services_d20.roll_d20_test(
        d20.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1),
    )

    # A tree from before issue 22 caches renders: clear it so each call draws.
    uncached = getattr(render, "clear_cache", lambda: None)

    out = {}
    for name, event in (("momenta_roll", plain.event), ("d20_test", test.event)):
        event.refresh_from_db()
        for audience in (GM, ALL):
            for _ in range(5):  # warm: imports, template cache
                uncached()
                render.render_event_fragments(event, audience)
            uncached()
            with CaptureQueriesContext(connection) as queries:
                html = render.render_event_fragments(event, audience)
            times, cpu = [], []
            for _ in range(renders):
                uncached()
                start, start_cpu = time.perf_counter(), time.process_time()
                render.render_event_fragments(event, audience)
                cpu.append((time.process_time() - start_cpu) * 1000)
                times.append((time.perf_counter() - start) * 1000)
            out[f"{name} {audience}"] = {
                "ms": statistics.median(times),
                "cpu_ms": statistics.median(cpu),
                "statements": len(queries.captured_queries),
                "bytes": len(html),
            }
    return out


def child(tree: Path, renders: int) -> dict:
    """One round in a fresh process of `tree` (this file run there if it has none)."""
    args = ["--round", str(renders)]
    return temp_site.child(Path(__file__).resolve(), tree, "GM_PUSH_TREE", args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--renders", type=int, default=200, help="renders per round and case")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another tree, measured alternately")
    parser.add_argument("--round", type=int, help=argparse.SUPPRESS)  # a child's one round
    args = parser.parse_args()
    if args.round is not None:
        temp_site.one_round("GM_PUSH_TREE", HERE, measure, args.round)
        return
    trees = temp_site.trees(HERE, args.compare)
    results = temp_site.alternate(trees, args.rounds, lambda tree: child(tree, args.renders))
    for name, rounds in results.items():
        print(f"{name} ({trees[name]}): {args.rounds} rounds × {args.renders} renders")
        for case in rounds[0]:
            ms = statistics.median(r[case]["ms"] for r in rounds)
            cpu = statistics.median(r[case].get("cpu_ms", float("nan")) for r in rounds)
            last = rounds[-1][case]
            print(
                f"  {case:18} {ms:6.2f} ms/render  {cpu:6.2f} CPU ms  {last['statements']:3d} SQL  "
                f"{last['bytes']:6d} bytes"
            )


if __name__ == "__main__":
    main()

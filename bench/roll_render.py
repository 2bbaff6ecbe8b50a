"""What a roll's live fragments cost the process that answers it: figures only (issue 22).

A roll at a table with GMs and players connected to the answering process is drawn
three ways: the actor's HTTP answer (the players' audience), then the hub's frames for
both audiences. This times that sum in CPU ms per roll, for a plain Momenta roll and a
2d20 test, with fresh rows for every roll as each command and doorbell has its own
(median of `--rolls` per round). A tree from before issue 22 draws it as it did then:
the answer from the command's rows (`Known`), the hub's GM frame from those held rows
and its players' frame from the render cache. A tree with the render seam
(tables/live/frames.py) draws it as its answer and hub do: the command's rows held after
commit (frames.hold), the answer through frames.fragment, the hub through frames.fragments.

    .venv/bin/python bench/roll_render.py                      # this tree
    .venv/bin/python bench/roll_render.py --compare /tmp/old   # + another tree, interleaved
    LIVE_FRAME_MEMO=0 .venv/bin/python bench/roll_render.py    # this tree, the seam bypassed
    .venv/bin/python bench/roll_render.py --languages 2        # a second language at the table

`--languages N` (issue 28): the players read N languages, so the hub also draws the
players' frame for N-1 more readers (German, French, Spanish), from the same rows.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import temp_site  # bench/temp_site.py, a sibling: see its docstring

HERE = Path(__file__).resolve().parent.parent


def cpu_ms(call, *args) -> float:
    start = time.process_time()
    call(*args)
    return (time.process_time() - start) * 1000


def each_audience(render, event) -> None:
    """The hub before issue 22: one call per audience (the render cache, the held rows)."""
    from tables.presenters.table import ALL, GM

    for audience in (ALL, GM):
        render.render_event_fragments(event, audience)


def hold_and_answer(frames, render, event) -> None:
    """After commit the doorbell holds the command's rows; then the answer is drawn."""
    from tables.presenters.table import ALL

    frames.hold(event)
    frames.fragment(event, ALL)


OTHER_LANGUAGES = ("de", "fr", "es")


def hub_frames(frames, render, event, readers) -> None:
    """The hub: both audiences in the site's language, the players' in each other one."""
    from tables.presenters.table import ALL, GM

    frames.fragments(event, (ALL, GM))
    for reader in readers:
        frames.fragments(event, (ALL,), reader)


def measure(rolls: int, languages: int = 1) -> dict:
    temp_site.start_django("roll-render-")

    from tables.live import render
    from tables.models import Campaign, Character, TableEvent
    from tables.presenters.table import ALL, GM
    from tables.services import d20 as services_d20
    from tables.services import momenta

    temp_site.fix_dice()
    seeded = temp_site.seed_tables()
    player, d6, ash, d20, kara = seeded.player, seeded.d6, seeded.ash, seeded.d20, seeded.kara
    plain = momenta.roll_momenta(d6.pk, player, ash.pk, momenta.RollRequest(attribute="WITS"))
    if hasattr(services_d20, "D20TestRequest"):
        asked = services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1)
        test = services_d20.roll_d20_test(d20.pk, player, kara.pk, asked)
    else:  # a tree from before the request value took the keyword arguments
        test = services_d20.roll_d20_test(
            d20.pk, player, kara.pk, attribute="Power", skill="Communicate", difficulty=1
        )
    before_22 = hasattr(render, "Known")
    try:
        from tables.live import frames
    except ImportError:  # a tree without the render seam
        frames = None

    readers = []
    if languages > 1:
        from tables.policy.locale import Reader

        readers = [Reader(code, "UTC") for code in OTHER_LANGUAGES[: languages - 1]]
    out = {}
    for name, record in (("momenta_roll", plain), ("d20_test", test)):
        answers, hubs = [], []
        for n in range(rolls + 20):  # the first 20 warm up
            answer_event = TableEvent.objects.select_related("actor").get(pk=record.event_id)
            hub_event = render.next_events(record.campaign_id, answer_event.seq - 1, 1)[0]
            if before_22:
                known = render.Known(
                    campaign=Campaign.objects.get(pk=record.campaign_id),
                    record=type(record).objects.get(pk=record.pk),
                    characters=tuple(
                        Character.objects.select_related("owner").filter(pk=record.character_id)
                    ),
                )
                render.clear_cache()
                answer = cpu_ms(render.render_event_fragments, answer_event, ALL, known)
                hub = cpu_ms(each_audience, render, hub_event)
            elif frames is not None:
                # What the command holds as it commits: its locked campaign, the cards it
                # wrote (read here, outside the timing: they are the command's reads).
                answer_event.campaign = Campaign.objects.get(pk=record.campaign_id)
                answer_event.written_characters = tuple(
                    Character.objects.select_related("owner").filter(pk=record.character_id)
                )
                if name == "momenta_roll":  # roll.event = append_event(…) caches the roll
                    type(record).objects.get(pk=record.pk).event = answer_event
                frames.clear()
                answer = cpu_ms(hold_and_answer, frames, render, answer_event)
                hub = cpu_ms(hub_frames, frames, render, hub_event, readers)
            else:
                answer = cpu_ms(render.render_event_fragments, answer_event, ALL)
                hub = cpu_ms(render.event_fragments, hub_event, (ALL, GM))
            if n >= 20:
                answers.append(answer)
                hubs.append(hub)
        out[name] = {"answer": statistics.median(answers), "hub": statistics.median(hubs)}
    return out


def child(tree: Path, rolls: int, languages: int = 1) -> dict:
    extra = ["--languages", str(languages)] if languages > 1 else []
    return temp_site.child(
        Path(__file__).resolve(), tree, "ROLL_RENDER_TREE", ["--round", str(rolls), *extra]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rolls", type=int, default=200, help="rolls per round and kind")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another tree, measured alternately")
    parser.add_argument(
        "--languages", type=int, default=1, help="languages the players read (1 to 4)"
    )
    parser.add_argument("--round", type=int, help=argparse.SUPPRESS)  # a child's one round
    args = parser.parse_args()
    if args.round is not None:
        temp_site.one_round(
            "ROLL_RENDER_TREE", HERE, lambda rolls: measure(rolls, args.languages), args.round
        )
        return
    trees = temp_site.trees(HERE, args.compare)
    results = temp_site.alternate(
        trees, args.rounds, lambda tree: child(tree, args.rolls, args.languages)
    )
    for name, rounds in results.items():
        print(f"{name} ({trees[name]}): {args.rounds} rounds × {args.rolls} rolls")
        for case in rounds[0]:
            answer = statistics.median(r[case]["answer"] for r in rounds)
            hub = statistics.median(r[case]["hub"] for r in rounds)
            total = statistics.median(r[case]["answer"] + r[case]["hub"] for r in rounds)
            print(
                f"  {case:13} answer {answer:5.2f} + hub {hub:5.2f} = {total:5.2f} CPU ms per roll"
            )


if __name__ == "__main__":
    main()

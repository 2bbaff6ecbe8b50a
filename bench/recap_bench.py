"""The session recap's server time on a long session (issue 40): figures only.

Plays a 4-hour-sized session (`--events`, default 2,000, through the services, as the
pages would: 2d20 tests with a spend and their resolution, scenes ended and started,
traits on the board, Threat added, hand changes of the pools; or Momenta rolls with
`--table momenta`), then draws, in rounds alternated in the same run, the recap page
for the GM and for a player and the table page for the same campaign, with Django's
test client (DEBUG off, the cached template loader, a temporary SQLite file). Prints
the median wall ms of each (in-process: the server's time, no network), the recap's
over the table page's, and the SQL statements of each page.

    .venv/bin/python bench/recap_bench.py
    .venv/bin/python bench/recap_bench.py --events 4000 --rounds 9 --table momenta
"""

from __future__ import annotations

import argparse
import statistics
import time

import temp_site  # bench/temp_site.py, a sibling: see its docstring


def play_d20(site, events: int) -> None:
    from tables.services import d20, scene_board, sessions
    from tables.services.gm import add_threat

    campaign, gm, player, kara = site.d20, site.gm, site.player, site.kara
    sessions.start_scene(campaign.pk, gm, "Opening")
    request = d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1)
    turn = 0
    while _events(campaign) < events:
        turn += 1
        test = d20.roll_d20_test(campaign.pk, player, kara.pk, request)
        if test.result.get("passed") and test.result.get("momentum"):
            d20.spend_momentum(campaign.pk, player, test.pk, "obtain_information")
        d20.resolve_test(campaign.pk, player, test.pk)
        if turn % 5 == 0:
            add_threat(campaign.pk, gm, 1, "The guards grow wary")
        if turn % 12 == 0:
            scene_board.add_trait(campaign.pk, gm, f"Trait {turn}", hidden=turn % 24 == 0)
        if turn % 40 == 0:
            sessions.end_scene(campaign.pk, gm)
            sessions.start_scene(campaign.pk, gm, f"Scene after turn {turn}")


def play_momenta(site, events: int) -> None:
    from tables.services import momenta, sessions
    from tables.services.momenta import RollRequest

    campaign, gm, player, ash = site.d6, site.gm, site.player, site.ash
    sessions.start_scene(campaign.pk, gm, "Opening")
    turn = 0
    while _events(campaign) < events:
        turn += 1
        secret = turn % 17 == 0  # a secret roll moves no pool (TB-03)
        edge = ("boon",) if turn % 3 == 0 and not secret else ()
        request = RollRequest(attribute="WITS", advantage_sources=edge, secret=secret)
        event = momenta.roll_momenta(campaign.pk, gm if secret else player, ash.pk, request)
        if event.state == "awaiting_allocation":  # the patterns chosen, as players do
            momenta.choose_allocation(campaign.pk, gm if secret else player, event.pk, None)
        if turn % 4 == 0:
            sessions.adjust_pool(campaign.pk, gm, "momentum", 1, "A good idea", character_id=ash.pk)
        if turn % 40 == 0:
            sessions.end_scene(campaign.pk, gm)
            sessions.start_scene(campaign.pk, gm, f"Scene after turn {turn}")


def _events(campaign) -> int:
    campaign.refresh_from_db(fields=["last_seq"])
    return campaign.last_seq


def _ms(client, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def _sql(client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return len(queries)


def measure(site, campaign, rounds: int) -> dict:
    from django.test import Client

    clients = {}
    for name, user in (("gm", site.gm), ("player", site.player)):
        clients[name] = Client()
        clients[name].force_login(user)
    pages = {
        "recap, GM": (clients["gm"], f"/campaigns/{campaign.pk}/recap/"),
        "recap, player": (clients["player"], f"/campaigns/{campaign.pk}/recap/"),
        "table page, GM": (clients["gm"], f"/campaigns/{campaign.pk}/table/"),
        "table page, player": (clients["player"], f"/campaigns/{campaign.pk}/table/"),
    }
    for client, url in pages.values():  # warm: templates compiled, caches filled
        _ms(client, url)
    times = {name: [] for name in pages}
    for _ in range(rounds):
        for name, (client, url) in pages.items():
            times[name].append(_ms(client, url))
    return {name: (statistics.median(times[name]), _sql(*pages[name])) for name in pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--table", choices=("d20", "momenta"), default="d20")
    args = parser.parse_args()
    temp_site.start_django("momenta-recap-bench-")
    site = temp_site.seed_tables()
    campaign = site.d20 if args.table == "d20" else site.d6
    started = time.perf_counter()
    (play_d20 if args.table == "d20" else play_momenta)(site, args.events)
    played = time.perf_counter() - started
    print(f"{args.table} session: {_events(campaign)} events played in {played:.0f} s")
    figures = measure(site, campaign, args.rounds)
    print(f"{'page':<20} {'median ms':>10} {'SQL':>5}")
    for name, (ms, sql) in figures.items():
        print(f"{name:<20} {ms:>10.1f} {sql:>5}")
    for reader in ("GM", "player"):
        recap, table = figures[f"recap, {reader}"][0], figures[f"table page, {reader}"][0]
        print(f"recap / table page ({reader}): {recap / table:.2f}x")


if __name__ == "__main__":
    main()

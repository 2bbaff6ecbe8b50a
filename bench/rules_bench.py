"""Momenta d6 engine benchmark: resolved rolls per second and exact-odds timings.

Run from the project root: `.venv/bin/python bench/rules_bench.py`. The rules
package is pure Python, so no Django settings are needed.
"""

from __future__ import annotations

import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import odds  # noqa: E402
from rules.d6 import RollSpec, apply_allocation, resolve_roll  # noqa: E402
from rules.dice import system_random  # noqa: E402
from rules.templates import RollTemplate  # noqa: E402

PREVIEW_GOAL_MS = 5.0
DURATION_S = 1.0


def per_second(step, duration: float = DURATION_S) -> float:
    """Run `step` repeatedly for about `duration` seconds; return calls per second."""
    calls = 0
    start = time.perf_counter()
    deadline = start + duration
    while True:
        for _ in range(200):
            step()
        calls += 200
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def timed_ms(call, repeat: int = 1) -> float:
    start = time.perf_counter_ns()
    for _ in range(repeat):
        call()
    return (time.perf_counter_ns() - start) / repeat / 1e6


def cold_ms(call, runs: int = 5) -> tuple[float, float]:
    """(median, max) of `runs` timings of `call`, each after clearing the odds caches."""
    samples = []
    for _ in range(runs):
        odds.clear_caches()
        samples.append(timed_ms(call))
    return statistics.median(samples), max(samples)


def preview(pool: int, opposition: int) -> None:
    odds.band_distribution(pool)
    odds.opposed_band_distribution(pool, opposition)
    odds.pattern_chances(pool)


def bench_rolls() -> None:
    rng = system_random()
    narrative = RollSpec(attribute=6, resolve_spent=(("Ash", 1), ("Bo", 1)))
    attack = RollSpec(
        attribute=6, kind="attack", play="structured", template=RollTemplate(damage=(1, 2, 3, 4))
    )

    def raw() -> None:
        randint = secrets.SystemRandom().randint
        for _ in range(6):
            randint(1, 6)

    shared = secrets.SystemRandom()

    def raw_shared() -> None:
        for _ in range(6):
            shared.randint(1, 6)

    baseline = per_second(raw)
    baseline_shared = per_second(raw_shared)
    print("Rolls (6d6, resolved and default allocation applied, secrets.SystemRandom)")
    print(f"  baseline: new SystemRandom().randint x6     {baseline:>11,.0f} /s")
    print(f"  baseline: shared SystemRandom().randint x6  {baseline_shared:>11,.0f} /s")
    for label, spec in (("narrative action, Resolve spent", narrative), ("attack", attack)):
        rate = per_second(lambda spec=spec: apply_allocation(resolve_roll(spec, rng=rng)))
        print(
            f"  {label:<40}   {rate:>11,.0f} /s  "
            f"({baseline_shared / rate:.1f}x the shared-source baseline's cost)"
        )


def bench_odds() -> None:
    print("Exact odds (ms; cold = caches cleared, median of 5; warm = cached, mean of 1000)")
    print(f"  {'function':<28}{'pool':>6}{'cold':>10}{'warm':>10}")
    functions = (
        ("band_distribution", lambda n: odds.band_distribution(n)),
        ("opposed_band_distribution", lambda n: odds.opposed_band_distribution(n, n)),
        ("pattern_chances", lambda n: odds.pattern_chances(n)),
    )
    for name, call in functions:
        for pool in (1, 8, 30, 100):
            cold, _ = cold_ms(lambda call=call, pool=pool: call(pool))
            warm = timed_ms(lambda call=call, pool=pool: call(pool), repeat=1000)
            print(f"  {name:<28}{pool:>6}{cold:>10.3f}{warm:>10.4f}")

    # The preview a roll composer shows: all three functions for one pool (vs up to 30 dice).
    worst_cold = (0.0, 0, 0)
    worst_single = 0.0
    total_cold = 0.0
    for pool in range(0, 31):
        for opposition in (0, pool, 30):
            ms, single = cold_ms(lambda pool=pool, opposition=opposition: preview(pool, opposition))
            total_cold += ms
            worst_cold = max(worst_cold, (ms, pool, opposition))
            worst_single = max(worst_single, single)
    warm = max(timed_ms(lambda pool=pool: preview(pool, 30), repeat=200) for pool in range(0, 31))
    ms, pool, opposition = worst_cold
    verdict = "meets" if ms < PREVIEW_GOAL_MS else "MISSES"
    print("Preview (three odds functions) for pools 0-30, opposition 0 / same / 30")
    print(f"  worst preview, cold (median of 5): {ms:.3f} ms ({pool}d6 vs {opposition}d6)")
    print(f"  slowest single cold run seen:      {worst_single:.3f} ms (noise: GC, scheduler)")
    print(f"  worst preview, warm:               {warm:.4f} ms")
    print(f"  all 93 previews cold, total:       {total_cold:.2f} ms")
    print(f"  goal < {PREVIEW_GOAL_MS} ms per preview: {verdict}")


if __name__ == "__main__":
    bench_rolls()
    bench_odds()

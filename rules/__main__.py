"""Command line: `python -m rules odds N [--vs M]` prints exact Momenta odds (D6-12, PAT-10)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from fractions import Fraction

from rules.odds import band_distribution, opposed_band_distribution, pattern_chances
from rules.templates import DEFAULT_BAND_LABELS

MIN_POOL = -99
MAX_POOL = 200  # exact odds stay instant far beyond any real pool


def pool_size(text: str) -> int:
    """argparse type: a whole number of dice (0 or fewer rolls 2d6 keep lowest)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of dice") from None
    if not MIN_POOL <= value <= MAX_POOL:
        raise argparse.ArgumentTypeError(f"pool must be between {MIN_POOL} and {MAX_POOL} dice")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules", description="Momenta rules tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    odds = commands.add_parser(
        "odds",
        help="exact band and pattern chances of a d6 pool",
        description="Exact chance of each result band and pattern for an N-die pool.",
    )
    odds.add_argument("pool", type=pool_size, metavar="N", help="dice in the pool")
    odds.add_argument(
        "--vs", type=pool_size, metavar="M", default=None, help="dice in an opposition roll"
    )
    return parser


def _dice(pool: int) -> str:
    return f"{pool}d6" if pool > 0 else f"{pool} dice (2d6, keep lowest)"


def _row(label: str, chance: Fraction) -> str:
    return f"  {label:<26} {float(chance) * 100:6.2f}%  {chance}"


def format_odds(pool: int, vs: int | None = None) -> str:
    if vs is None:
        title = f"{_dice(pool)}: chance of each band"
        bands = band_distribution(pool)
    else:
        title = f"{_dice(pool)} vs {_dice(vs)}: chance of each band (effective successes)"
        bands = opposed_band_distribution(pool, vs)
    lines = [title]
    for band, chance in bands.items():
        label = f"{band}{'+' if band == 3 else ''} {DEFAULT_BAND_LABELS[band]}"
        lines.append(_row(label, chance))
    lines.append(f"{_dice(pool)}: chance of at least one pattern")
    if pool <= 0:
        lines.append("  (patterns do not apply to a zero-dice roll)")
    for kind, chance in pattern_chances(pool).items():
        lines.append(_row(kind.capitalize(), chance))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "odds":
        print(format_odds(args.pool, args.vs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

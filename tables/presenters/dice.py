"""How dice are drawn (issue 14): pip places on a d6 face and the sets of equal faces.

templates/tables/partials/momenta_dice.html draws each d6 as inline SVG from these;
d20_dice.html needs no geometry beyond its template. Coordinates are in the d6's
24 x 24 viewBox.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.patterns import KIND_LABELS, KIND_SIZES

_L, _M, _R = 7, 12, 17  # left, middle, right (and top, middle, bottom)
D6_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_M, _M),),
    2: ((_L, _L), (_R, _R)),
    3: ((_L, _L), (_M, _M), (_R, _R)),
    4: ((_L, _L), (_R, _L), (_L, _R), (_R, _R)),
    5: ((_L, _L), (_R, _L), (_M, _M), (_L, _R), (_R, _R)),
    6: ((_L, _L), (_R, _L), (_L, _M), (_R, _M), (_L, _R), (_R, _R)),
}
_KIND_BY_SIZE = {size: KIND_LABELS[kind] for kind, size in KIND_SIZES.items()}


def d6_pips(face: int) -> tuple[tuple[int, int], ...]:
    """The pips of a d6 face; none for a face a d6 cannot show (an old or odd card)."""
    return D6_PIPS.get(face, ())


def set_label(face: int, count: int) -> str:
    """The set a die belongs to, in the patterns' words (PAT-01): `Double 5`, `Triple 2`,
    `Quad 6`; more equal dice than a Quad are `5 × 6` (they can make several patterns)."""
    kind = _KIND_BY_SIZE.get(count)
    return f"{kind} {face}" if kind else f"{count} × {face}"


def face_sets(faces: Sequence[int]) -> dict[int, str]:
    """Each face shown by two or more dice, with its set's label (PAT-01): what the
    roller can allocate to patterns. Which patterns trigger is the roller's choice
    (PAT-02), so this marks the sets, not an allocation."""
    return {f: set_label(f, n) for f, n in Counter(faces).items() if n >= 2}

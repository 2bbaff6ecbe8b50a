"""How dice are drawn (issue 14): pip places on a d6 face, the sets of equal faces, and
the inline SVG of each die.

Every pushed roll draws its dice once per audience, so the drawing is Python, not a
template loop (issue 10: the loop's include and lookups per die cost more than the rest of
the card). momenta_dice.html and d20_dice.html call these through tables/templatetags/
dice_drawing.py. Coordinates are in each die's viewBox (a d6 is 24 x 24, a d20 32 x 32).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

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
    return f"{pgettext('dice pattern', kind)} {face}" if kind else f"{count} × {face}"


def face_sets(faces: Sequence[int]) -> dict[int, str]:
    """Each face shown by two or more dice, with its set's label (PAT-01): what the
    roller can allocate to patterns. Which patterns trigger is the roller's choice
    (PAT-02), so this marks the sets, not an allocation."""
    return {f: set_label(f, n) for f, n in Counter(faces).items() if n >= 2}


# --- Drawing ------------------------------------------------------------------------


def _get(obj: Any, key: str) -> Any:
    """`obj.key` as a template reads it: a key, else an attribute, else ""."""
    try:
        return obj[key]
    except (TypeError, KeyError, IndexError):
        return getattr(obj, key, "")


def _text(value: Any) -> str:
    """What `{{ value }}` prints. An int is its digits (number_format's own fast path while
    USE_THOUSAND_SEPARATOR is off, the site's setting); anything else goes through Django."""
    if type(value) is int:
        return str(value)
    return conditional_escape(localize(value))


def d6_die(d: Any) -> str:
    """One d6 (a mark of templatetags.momenta.dice_marks): the SVG face, then the face
    as visually hidden text with its meaning (D6-01, D6-07) and its set (PAT-01)."""
    hit, dropped, face_set = _get(d, "hit"), _get(d, "dropped"), _get(d, "set")
    face = _text(_get(d, "face"))
    if hit:
        state, meaning = " die-face--hit", gettext("success")
        words = meaning
    elif dropped:
        state = " die-face--dropped"
        meaning = gettext("discarded, only the lowest die counts")
        words = gettext("discarded: only the lowest die counts")
    else:
        state, meaning, words = "", gettext("no success"), gettext("no success")
    set_words = _text(face_set) if face_set else ""
    parts = [
        f'<svg class="die-face{state}{" die-face--set" if face_set else ""}" viewBox="0 0 24 30"'
        f' width="28" height="35" aria-hidden="true" focusable="false"><title>{face}: {meaning}'
        f"{'; ' + set_words if face_set else ''}</title>",
        '<rect class="die-ring" x="0.75" y="0.75" width="22.5" height="22.5" rx="5.5"/>'
        if hit
        else "",
        '<rect class="die-body" x="2.5" y="2.5" width="19" height="19" rx="4"/>',
    ]
    parts.extend(
        f'<circle class="die-pip" cx="{_text(x)}" cy="{_text(y)}" r="2.1"/>'
        for x, y in _get(d, "pips") or ()
    )
    if dropped:
        parts.append('<line class="die-strike" x1="4" y1="20" x2="20" y2="4"/>')
    if face_set:
        parts.append('<path class="die-set" d="M3 25.5V28.5H21V25.5"/>')
    span = " die--hit" if hit else " die--dropped" if dropped else ""
    parts.append(f'</svg><span class="die{span}" title="{words}">{face}</span>')
    if face_set:
        parts.append(f'<span class="visually-hidden"> ({set_words})</span>')
    return "".join(parts)


def d6_dice(dice: Any, label: Any = "") -> SafeString:
    """A roll's d6s in a row (momenta_dice.html), named by `label` for screen readers."""
    named = f' aria-label="{_text(label)}"' if label else ""
    drawn = "".join(d6_die(d) for d in dice or ())
    return mark_safe(f'<span class="dice"{named}>{drawn}</span>')


_D20_RING = (
    '<polygon class="d20-ring" points="16,0.8 29.2,8.4 29.2,23.6 16,31.2 2.8,23.6 2.8,8.4"/>'
)
_D20_BODY = (
    '<polygon class="d20-body" points="16,3 27.3,9.5 27.3,22.5 16,29 4.7,22.5 4.7,9.5"/>'
    '<path class="d20-facets" d="M16 8L24.5 22H7.5ZM16 3V8M4.7 9.5L16 8L27.3 9.5M4.7 9.5L7.5 22'
    'L4.7 22.5M27.3 9.5L24.5 22L27.3 22.5M7.5 22L16 29L24.5 22"/>'
)
_D20_BADGE = (
    '<g class="d20-comp-badge"><path d="M25.5 0.5L31.5 11H19.5Z"/><rect x="24.8" y="3.6"'
    ' width="1.4" height="4" rx="0.5"/><circle cx="25.5" cy="9.1" r="0.8"/></g>'
)


def d20_shape(d: Any) -> str:
    """A d20 silhouette: hexagon outline and the facets around the front triangle, a second
    outline on a critical, a warning badge on a complication (T-R1). Decoration only: the
    face and its meaning are the text and title around it."""
    return (
        '<svg class="d20-shape" viewBox="0 0 32 32" width="38" height="38" aria-hidden="true"'
        ' focusable="false">'
        f"{_D20_RING if _get(d, 'successes') == 2 else ''}{_D20_BODY}"
        f"{_D20_BADGE if _get(d, 'complication') else ''}</svg>"
    )


def _d20_score(d: Any) -> tuple[str, str]:
    """(its class, its successes in words) for one d20: a critical scores 2 (T-R1)."""
    successes = _get(d, "successes")
    state = (
        " d20-die--crit" if successes == 2 else " d20-die--hit" if successes else " d20-die--miss"
    )
    comp = " d20-die--comp" if _get(d, "complication") else ""
    return state + comp, (
        ngettext("%(text)s success", "%(text)s successes", successes or 0)
        % {"text": _text(successes)}
    )


def d20_dice(result: Any) -> SafeString:
    """A 2d20 test's dice (d20_dice.html): own pool, then assistance dice (T-R1, T-03); a
    rerolled die (T-04) is marked. Each is its silhouette with its face as text on top."""
    parts = [f'<span class="d20-dice" aria-label="{conditional_escape(gettext("Dice"))}">']
    for d in _get(result, "dice") or ():
        state, scored = _d20_score(d)
        crit = gettext(" (critical: at or under focus)") if _get(d, "successes") == 2 else ""
        comp = gettext(", complication") if _get(d, "complication") else ""
        rerolled = _get(d, "rerolled")
        rerolled_words = gettext(", rerolled") if rerolled else ""
        parts.append(
            f'<span class="d20-die{state}{" d20-die--rerolled" if rerolled else ""}"'
            f' title="{scored}{crit}{comp}{rerolled_words}">{d20_shape(d)}'
            f'<span class="d20-num">{_text(_get(d, "face"))}</span></span>'
        )
    parts.append("</span>")
    assist_dice = _get(result, "assist_dice")
    if assist_dice:
        parts.append('\n<span class="d20-assist">')
        for d in assist_dice:
            state, scored = _d20_score(d)
            name = _text(_get(d, "name"))
            crit = gettext(" (critical)") if _get(d, "successes") == 2 else ""
            comp = gettext(", complication") if _get(d, "complication") else ""
            parts.append(
                f'<span class="d20-die d20-die--assist{state}" title="{name} assists: {scored}'
                f'{crit}{comp}">{d20_shape(d)}<span class="d20-num">{_text(_get(d, "face"))}'
                f'</span></span> <span class="muted">{name}</span>'
            )
        if not _get(result, "assistance_counted"):
            parts.append(' <span class="muted">(not counted: the leader scored nothing)</span>')
        parts.append("</span>")
    return mark_safe("".join(parts))

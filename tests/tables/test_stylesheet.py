"""The one stylesheet: colours are tokens, so the dark theme is the token block alone."""

import re
from pathlib import Path

from django.conf import settings

CSS = Path(settings.BASE_DIR) / "static" / "tables" / "site.css"
COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color-mix)\("
    r"|(?<![-\w])(?:white|black|red|green|blue|gray|grey|purple|orange|yellow)(?![-\w])"
)


def _split() -> tuple[str, str, str]:
    """The light token block, the dark token block and the rules, comments removed."""
    css = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    dark_at = css.index("@media (prefers-color-scheme: dark)")
    rules_at = css.index("}\n}", dark_at) + 3
    return css[:dark_at], css[dark_at:rules_at], css[rules_at:]


def _tokens(block: str) -> set[str]:
    return set(re.findall(r"(--[\w-]+)\s*:", block))


def test_no_colour_is_written_outside_the_token_blocks():
    *_, rules = _split()
    assert COLOUR.findall(rules) == []


def test_the_dark_theme_gives_every_colour_token_a_value():
    light, dark, _ = _split()
    colours = {t for t in _tokens(light) if COLOUR.search(light.split(t + ":", 1)[1].split(";")[0])}
    assert colours and colours == _tokens(dark)


def _selectors(head: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :not(…))."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(head):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(head[start:i].strip())
            start = i + 1
    return [*parts, head[start:].strip()]


def test_every_selector_is_defined_once_per_screen_width():
    css = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    seen, repeated, stack = set(), [], []
    for match in re.finditer(r"([^{}]*)\{|\}", css):
        if match.group(0) == "}":
            stack.pop()
            continue
        head = " ".join(match.group(1).split())
        stack.append(head)
        if head.startswith("@"):
            continue
        context = tuple(h for h in stack[:-1] if h.startswith("@"))
        for selector in _selectors(head):
            if (context, selector) in seen:
                repeated.append((context, selector))
            seen.add((context, selector))
    assert repeated == []

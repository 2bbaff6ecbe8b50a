"""Rule clause IDs out of players' sight, one hover or tap away (issue 14).

Players read words; the clause ID ("PM-05/06", "D6-07", "CT-R1") that says which
rule applies moves into a small marker whose title (and accessible name) holds it:
`{% rule "PM-05/06" %}` in template text, `{% rule_words text %}` for wording made
elsewhere ("lost (at the cap, PM-04)" -> "lost (at the cap)§"). The marker links to
the rules page at the clause's entry (docs/rules.md's anchors, issue 36).

Only for a reader who wants them (issue 37, policy/rule_marks.py): both tags read the
page context's `rule_marks`; without it the IDs go and no mark is drawn.
"""

from __future__ import annotations

import re

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from tables.clause_ids import CLAUSE  # PM-05, PM-05/06, D6-07, CT-R1, PAT-06..PAT-08

register = template.Library()

_CLAUSE = re.compile(rf"^{CLAUSE}$")
# A parenthesis holding at least one clause ID, with the space before it.
_PAREN = re.compile(rf"(\s?)\(([^()]*?\b{CLAUSE}\b[^()]*)\)")
_ITEM_SPLIT = re.compile(r",\s*|\s+and\s+")


_FIRST = re.compile(r"/|\.\.")  # "PM-05/06" and "PAT-06..PAT-08" open at their first


def marker(ids: list[str]) -> str:
    """The small marker for `ids`: a section sign whose title and name are the rules, a
    link to the first one's entry (a new tab: the live table stays where it was)."""
    label = gettext("Rule ") + ", ".join(ids)
    href = reverse("rules") + "#" + _FIRST.split(ids[0])[0]
    return format_html(
        '<a class="rule-ref" href="{}" target="_blank" rel="noopener" aria-label="{}" '
        'title="{}">§</a>',
        href,
        label,
        label,
    )


@register.simple_tag(takes_context=True)
def rule(context, ids: str) -> str:
    """`{% rule "PM-05/06" %}`: the marker alone (several IDs: "PM-03, PM-04"), for a
    reader whose context has `rule_marks`; nothing otherwise."""
    if not context.get("rule_marks"):
        return ""
    return marker([i.strip() for i in ids.split(",") if i.strip()])


def _replace(match: re.Match, marks: bool) -> str:
    items = [item.strip() for item in _ITEM_SPLIT.split(match.group(2))]
    ids = [item for item in items if _CLAUSE.match(item)]
    words = [item for item in items if item and not _CLAUSE.match(item)]
    if not ids or len(words) + len(ids) != len([i for i in items if i]):
        return match.group(0)
    kept = f"{match.group(1)}({', '.join(words)})" if words else ""
    return kept + marker(ids) if marks else kept


@register.simple_tag(takes_context=True)
def rule_words(context, text) -> str:
    """`{% rule_words text %}`: rule_refs for the page's reader (their `rule_marks`)."""
    return rule_refs(text, bool(context.get("rule_marks")), autoescape=context.autoescape)


def rule_refs(text, marks=False, autoescape=True):
    """`text` with each parenthesised clause ID moved into a marker (left out when `marks`
    is false: the reader wants none); the words stay."""
    escaped = conditional_escape(text) if autoescape else str(text)
    return mark_safe(_PAREN.sub(lambda m: _replace(m, bool(marks)), str(escaped)))

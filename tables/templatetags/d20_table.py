"""The 2d20 table's filters, and the GM panel's context when it is drawn inside the
table page, whose view (views.table.table) knows nothing of it.

    {% gm_panel_context as gmp %}                       → presenters.gm.gm_panel_context

A view that renders the fragment itself passes `gmp` and the tag hands that back
unchanged. (The 2d20 composer's `d20` comes from the views: views/d20.composer_of.)
"""

from django import template
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from tables.presenters import gm as gm_presenters
from tables.words import wording

register = template.Library()


@register.simple_tag(takes_context=True)
def gm_panel_context(context):
    if context.get("gmp") is not None:
        return context["gmp"]
    return gm_presenters.gm_panel_context(context["campaign"], context["membership"])


@register.filter
def signed(value):
    """+2 / -1 / 0."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{value}" if value > 0 else str(value)


@register.filter
def spend_name(kind):
    """A spend kind's name in the reader's language (wording.spend_name)."""
    return wording.spend_name(kind)


@register.filter
def spend_description(kind):
    return wording.spend_description(kind)


@register.filter
def spend_price(kind, line=None):
    """'2 Momentum' / '1 Momentum per question (repeatable)' (wording.spend_price), by
    the name of `line` (a campaign's game line) for the group pool."""
    return wording.spend_price(kind, line or wording.SEEDS)


@register.filter
def spend_line(spend, line=None):
    """'Obtain Information: 1 Momentum (1 from the roll)' (wording.spend_line)."""
    return wording.spend_line(spend, line or wording.SEEDS)


@register.filter
def test_line(record, line=None):
    """'Kara · 3 successes vs Difficulty 1 · 2 Momentum left': an open 2d20 test in words."""
    result, ledger = record.result or {}, record.ledger or {}
    name = record.character.name
    parts = [
        name,
        (
            gettext("%(successes)s vs Difficulty %(result)s")
            % {
                "successes": wording.successes(result.get("successes", 0)),
                "result": result.get("difficulty", 0),
            }
        ),
    ]
    left = (ledger.get("roll_momentum") or 0) + (ledger.get("bonus_momentum") or 0)
    holder = ledger.get("holder") or name
    pool = (line or wording.SEEDS).group_pool  # GL-01: the line's name for it
    if ledger.get("passed") and holder != name:
        # CT-04: the opposer won
        parts.append(_("{who} holds {n} {pool}").format(who=holder, n=left, pool=pool))
    elif ledger.get("passed"):
        parts.append(_("{n} {pool} left").format(n=left, pool=pool))
    elif result:
        parts.append(_("failed"))
    if record.hidden:
        parts.append(_("secret"))
    if record.contest_id:
        parts.append(_("contest"))
    return " · ".join(parts)

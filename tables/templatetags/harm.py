"""Harm track names at the table (SC-02): rules.harm's keys, in the reader's language."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

# Every key of rules.harm.LINE_TRACKS (tests/tables/test_harm_views.py checks they match).
LABELS = {
    "harm": _("Harm"),
    "strain": _("Strain"),
    "stress": _("Stress"),
    "injuries": _("Injuries"),
    "vigor": _("Vigor"),
    "wounds": _("Wounds"),
    "resolve": _("Resolve"),
    "trauma": _("Trauma"),
    "hp": _("HP"),
    "defeats": _("Defeats"),
}


@register.filter
def harm_label(key: str) -> str:
    return LABELS.get(key, key)

"""A moment the way the reader's language writes a short date (momenta_site/formats/),
in the reader's zone, with the zone's name: "1. Dez. 2026, 17:02 MEZ"."""

from django import template
from django.utils import formats, timezone

register = template.Library()


@register.filter
def short_moment(value) -> str:
    if not value:
        return ""
    local = timezone.localtime(value)
    return f"{formats.date_format(local, 'SHORT_DATETIME_FORMAT')} {local.tzname()}"

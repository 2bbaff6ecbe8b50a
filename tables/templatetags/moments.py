"""A moment the way the reader's language writes a short date (momenta_site/formats/),
in the reader's zone, with the zone's name: "1. Dez. 2026, 17:02 MEZ"."""

from django import template
from django.utils import formats, timezone

register = template.Library()


@register.filter
def short_moment(value, precision: str = "") -> str:
    """`|short_moment:"seconds"` for an error's moment, to find it in the logs."""
    if not value:
        return ""
    local = timezone.localtime(value)
    if precision == "seconds":
        day = formats.date_format(local, "SHORT_DATE_FORMAT")
        return f"{day}, {formats.time_format(local, 'H:i:s')} {local.tzname()}"
    return f"{formats.date_format(local, 'SHORT_DATETIME_FORMAT')} {local.tzname()}"

"""Parts of every log entry drawn in Python: each pushed event is drawn once per audience
(issue 10), and the `date` and `time` filters cost more than the rest of its header."""

from datetime import datetime

from django import template
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime

register = template.Library()


@register.simple_tag
def log_time(when):
    """`<time datetime="…">HH:MM</time>`: what `when|date:'c'` and `when|time:"H:i"` print,
    in the current time zone as those filters take it."""
    if not isinstance(when, datetime):
        return ""  # both filters print nothing for a missing time
    local = template_localtime(when)
    return mark_safe(
        f'<time class="log-time" datetime="{local.isoformat()}">'
        f"{local.hour:02d}:{local.minute:02d}</time>"
    )

"""The card a void strikes through, for push/voided.html:

{% load corrections %}{% voided_target event campaign audience as target %}
"""

from django import template

from tables.live import render as live
from tables.models import TableEvent

register = template.Library()


@register.simple_tag
def voided_target(event, campaign, audience):
    """The voided event's log entry as `audience` sees it now, or None."""
    target = (
        TableEvent.objects.filter(voided_by=event)
        .select_related("actor", "voided_by__actor")
        .first()
    )
    # Drawn per audience, not per person: a private kind (never voided) stays the GMs'.
    if target is None or not live.visible(target, audience, None):
        return None
    return live.log_entry(target, campaign, audience)

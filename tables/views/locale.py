"""The person's language and time zone take effect on every page (issue 28).

After AuthenticationMiddleware (it needs request.user) and LocaleMiddleware (which
picked the browser's language, and still answers Content-Language and Vary for it).
"""

from __future__ import annotations

from django.utils import timezone, translation

from tables.models.locale import drawable_time_zones
from tables.policy import rule_marks
from tables.policy.locale import chosen


class PersonLocaleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language, zone = chosen(getattr(request, "session", None), request.user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        # Read by use_campaign_time_zone: a chosen zone wins over the campaign's.
        request.person_time_zone = zone
        if zone:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        # The person's § marks (issue 37), for the page and the events drawn with it.
        session = getattr(request, "session", None)
        marks = rule_marks.preferring(rule_marks.chosen(session, request.user))
        try:
            with marks:
                return self.get_response(request)
        finally:
            # The thread serves sockets too (one-hop): nothing of this request's zone stays.
            timezone.deactivate()


def seen_at(request, campaign, membership) -> None:
    """A campaign's page, for this member: its time zone (use_campaign_time_zone), and
    the membership whose role decides the page's § marks (context_processors)."""
    use_campaign_time_zone(request, campaign)
    request.table_membership = membership


def use_campaign_time_zone(request, campaign) -> None:
    """On a campaign's pages, its time zone for a person who chose none (a stored one
    no longer offered, such as US/Eastern, still draws them)."""
    zone = campaign.time_zone
    if not getattr(request, "person_time_zone", "") and zone in drawable_time_zones():
        timezone.activate(zone)

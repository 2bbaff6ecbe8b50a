"""A submission's idempotency key over HTTP (issue 27): the header every htmx command
carries (static/tables/commands.js), and the question "did the one with key K land?"
that the page asks before it offers a retry."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tables.services import idempotency
from tables.views.access import campaign_for

HEADER = "Idempotency-Key"  # a protocol word: never translated


class IdempotencyKeyMiddleware:
    """The commands a POST runs carry its Idempotency-Key (a UUID); a malformed key is
    refused with 400 before anything runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "POST":
            return self.get_response(request)
        try:
            key = idempotency.parse(request.headers.get(HEADER))
        except ValueError:
            return HttpResponseBadRequest(gettext("The submission's key is not valid."))
        with idempotency.submitted(key):
            return self.get_response(request)


@login_required
@require_GET
def landed(request, pk: int):
    """{"seq": N} if this member's submission with ?key= made event N, {"seq": null} if
    none did (yet). Only the member's own submissions are found."""
    campaign, membership = campaign_for(request, pk)
    try:
        key = idempotency.parse(request.GET.get("key"))
    except ValueError:
        key = None
    if key is None:
        return HttpResponseBadRequest(gettext("The submission's key is not valid."))
    return JsonResponse({"seq": idempotency.landed(campaign.pk, key, actor_id=request.user.pk)})

"""The GM's download of the whole campaign (tables/exports/): a backup, secret rolls included."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from tables.exports.dump import dumps, export_campaign
from tables.views.access import campaign_for
from tables.views.answers import HtmxHttpRequest


@login_required
@require_GET
def campaign_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    # GMs only: the document holds every secret roll and the GM-only log (TB-03).
    campaign, _ = campaign_for(request, pk, role="gm")
    name = f"{slugify(campaign.name) or 'campaign'}-{timezone.now():%Y-%m-%d}.json"
    # What the document words (if anything) is the campaign's, like its Discord posts.
    with translation.override(campaign.language):
        document = dumps(export_campaign(campaign))
    response = HttpResponse(document, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"  # no copy of the secrets left in a shared cache
    return response

"""Per-person table regions fetched again over HTTP when a live push says they are stale.

A push renders once per audience, so it never carries one person's controls or lists;
it carries a marker (templates/tables/partials/live_sync.html) that makes a page whose
copy is older than the event fetch its own here.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tables.forms.momenta import AssistRequestForm
from tables.presenters.assists import player_assists
from tables.presenters.d20 import open_tests
from tables.services.access import controllable
from tables.views.access import campaign_for
from tables.views.answers import respond
from tables.views.d20 import d20_panel


@login_required
@require_GET
def d20_open_tests(request, pk: int):
    """The viewer's open 2d20 tests (d20_open_tests.html)."""
    campaign, membership = campaign_for(request, pk)
    context = {"c": campaign, "open_tests": open_tests(campaign, membership)}
    return respond(request, membership, "tables/partials/d20_open_tests.html", context)


@login_required
@require_GET
def d20_panel_current(request, pk: int):
    """The spend panel of the test named by ?test= (the one the page shows)."""
    try:
        tid = int(request.GET.get("test", ""))
    except ValueError:
        raise Http404(gettext("No such test.")) from None
    return d20_panel(request, pk, tid)


@login_required
@require_GET
def momenta_assists(request, pk: int):
    """The viewer's Assist panel (momenta_assists.html): the Assists their characters ask
    for or would give, with their answers (PM-08: the helper's player agrees first)."""
    campaign, membership = campaign_for(request, pk, role="player")
    context = {
        "campaign": campaign,
        "assists": player_assists(campaign, membership, controllable(campaign, membership)),
        "assist_form": AssistRequestForm(campaign=campaign),
    }
    return respond(request, membership, "tables/partials/momenta_assists.html", context)

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

from tables.forms.momenta import AssistRequestForm, initial_from, roll_form
from tables.policy.access import controllable
from tables.presenters.assists import player_assists
from tables.presenters.d20 import open_tests
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


@login_required
@require_GET
def momenta_assist_choice(request, pk: int):
    """The composer's Assist choice and Resolve fields (composer_momenta_assist.html) for
    the character it shows (?character=, one the viewer controls, else 404), keeping the
    Assist and Resolve chosen (the rest of the form is the page's: never redrawn here)."""
    campaign, membership = campaign_for(request, pk, role="player")
    characters = controllable(campaign, membership)
    wanted = request.GET.get("character", "")
    character = next((c for c in characters if str(c.pk) == wanted), None)
    if character is None or not campaign.uses_d6:
        raise Http404("No such character.")
    initial = initial_from(request.GET)
    form = roll_form(campaign, membership, character, initial=initial, characters=characters)
    context = {"f": form, "campaign": campaign}
    return respond(request, membership, "tables/partials/composer_momenta_assist.html", context)

"""Table talk: the table page's small form that posts a message to the log (issue 15)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.views.decorators.http import require_POST

from tables.services import talk
from tables.services.core import ServiceError
from tables.views.access import player_at
from tables.views.answers import back_to_table, respond

TEMPLATE = "tables/partials/talk_form.html"


class TalkForm(forms.Form):
    # The service bounds the length (after its own cleaning): one refusal, one wording.
    mode = forms.ChoiceField(choices=list(talk.MODES.items()), initial=talk.IN_CHARACTER)
    text = forms.CharField(strip=True, required=False)


@require_POST
@login_required
def table_talk(request, pk: int):
    """A player or GM posts to the table (observers get 403). With htmx the answer is
    the form again (empty, the same mode) and the message's live fragments, as the
    sender sees them: their page shows it even without a socket.

    The membership is read once, with its campaign and the session's user; the
    fragments are drawn from the campaign row the service locked and wrote."""
    campaign, membership = player_at(request, pk)
    form = TalkForm(request.POST)
    event, error = None, ""
    if form.is_valid():
        try:
            event = talk.post_talk(
                campaign.pk,
                request.user,
                form.cleaned_data["mode"],
                form.cleaned_data["text"],
                membership=membership,
            )
        except (ServiceError, PermissionDenied) as refusal:
            error = str(refusal)
    else:
        error = talk.NO_MODE if "mode" in form.errors else " ".join(form.errors.get("text", []))
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    if event is not None:
        form = TalkForm(initial={"mode": form.cleaned_data["mode"]})
    # talk_used: the form stays open on a phone for the next message (folds.js).
    context = {"campaign": campaign, "talk_form": form, "talk_error": error, "talk_used": True}
    return respond(request, membership, TEMPLATE, context, [event])

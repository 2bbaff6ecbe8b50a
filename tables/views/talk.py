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
    # A whisper's recipient (issue 37): one of `recipients`, (user id, name); the service
    # checks again under the lock that they are still a player here.
    to = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)

    def __init__(self, *args, recipients: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [("", "")] + [(pk, name) for pk, name in recipients]


def talk_form(campaign, user, *args, **kwargs) -> TalkForm:
    """The table's talk form for `user`, whose whispers may go to the other players."""
    return TalkForm(*args, recipients=talk.whisper_recipients(campaign.pk, user), **kwargs)


@require_POST
@login_required
def table_talk(request, pk: int):
    """A player or GM posts to the table (observers get 403). With htmx the answer is
    the form again (empty, the same mode) and the message's live fragments, as the
    sender sees them: their page shows it even without a socket.

    The membership is read once, with its campaign and the session's user; the
    fragments are drawn from the campaign row the service locked and wrote."""
    campaign, membership = player_at(request, pk)
    posted = request.POST.copy()
    if posted.get("mode") != talk.WHISPER:
        # The list stays in the form for every mode: a stale choice in it (a player who
        # left) must not refuse a message that is not a whisper.
        posted.pop("to", None)
    form = talk_form(campaign, request.user, posted)
    event, error = None, ""
    if form.is_valid():
        try:
            event = talk.post_talk(
                campaign.pk,
                request.user,
                form.cleaned_data["mode"],
                form.cleaned_data["text"],
                membership=membership,
                recipient_id=form.cleaned_data["to"],
            )
        except (ServiceError, PermissionDenied) as refusal:
            error = str(refusal)
    else:
        error = _refusal(form)
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    if event is not None:  # the same mode and recipient for the next message
        kept = {"mode": form.cleaned_data["mode"], "to": form.cleaned_data["to"]}
        form = talk_form(campaign, request.user, initial=kept)
    # talk_used: the form stays open on a phone for the next message (folds.js).
    context = {"campaign": campaign, "talk_form": form, "talk_error": error, "talk_used": True}
    return respond(request, membership, TEMPLATE, context, [event])


def _refusal(form: TalkForm) -> str:
    if "mode" in form.errors:
        return str(talk.NO_MODE)
    if "to" in form.errors:  # not among the choices: gone, or never a player here
        return str(talk.NO_RECIPIENT)
    return " ".join(form.errors.get("text", []))

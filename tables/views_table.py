"""The live table page and its small GM tools (live push: tables/live.py, tables/consumers.py)."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.views.decorators.http import require_POST

from . import live, services
from .access import campaign_for
from .answers import back_to_table, respond


class NoteForm(forms.Form):
    text = forms.CharField(max_length=services.NOTE_MAX_LENGTH, strip=True)


@login_required
def table(request, pk: int):
    """The table: characters, pools, the log and who is here; members only."""
    campaign, membership = campaign_for(request, pk)
    context = live.table_context(campaign.pk, membership)
    context["note_form"] = NoteForm()
    return render(request, "tables/table.html", context)


@login_required
@require_POST
def table_note(request, pk: int):
    """A GM posts a note to the log. The answer carries the new entry too, so the
    GM's page updates even without a socket; the socket's copy is then ignored
    by its sequence number."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = NoteForm(request.POST)
    event = None
    if form.is_valid():
        try:
            event = services.post_note(campaign.pk, request.user, form.cleaned_data["text"])
        except (services.ServiceError, PermissionDenied) as error:
            form.add_error("text", str(error))
    if not request.htmx:
        error = "" if event else " ".join(form.errors.get("text", ["Note not posted."]))
        return back_to_table(request, campaign, error=error)
    context = {"campaign": campaign, "note_form": NoteForm() if event else form}
    return respond(request, membership, "tables/partials/note_form.html", context, [event])

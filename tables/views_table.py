"""The live table page and its small GM tools (live push: tables/live.py, tables/consumers.py)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from . import live, services
from .access import campaign_for


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
        if event is None:
            messages.error(request, " ".join(form.errors.get("text", ["Note not posted."])))
        return redirect("table", pk=campaign.pk)
    html = render_to_string(
        "tables/partials/note_form.html",
        {"campaign": campaign, "note_form": NoteForm() if event else form},
        request=request,
    )
    if event is not None:
        html += live.render_event_fragments(event, live.audience_for(membership))
    return HttpResponse(html, status=200)

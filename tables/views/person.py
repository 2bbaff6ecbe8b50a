"""A person's own settings page (issue 14): display preferences, not game state.

The row is always request.user's own: the URL names nobody, so one person can
never read or change another's settings.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from tables.forms.person import PersonSettingsForm
from tables.models import PersonSettings
from tables.views.answers import HtmxHttpRequest


@login_required
def person_settings(request: HtmxHttpRequest) -> HttpResponse:
    # Not `request.POST or None`: unticking the only box posts nothing, and must still save.
    data = request.POST if request.method == "POST" else None
    form = PersonSettingsForm(data, instance=PersonSettings.of(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Your settings are saved."))
        return redirect("person_settings")
    return render(request, "tables/person_settings.html", {"form": form})

"""A person's own settings page (issue 14): display preferences, not game state, and
the email address a password reset goes to (issue 27).

The row is always request.user's own: the URL names nobody, so one person can
never read or change another's settings.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tables.forms.person import EmailForm, PersonSettingsForm
from tables.models import PersonSettings
from tables.policy.locale import remember
from tables.views.answers import HtmxHttpRequest


@login_required
def person_settings(request: HtmxHttpRequest) -> HttpResponse:
    # Not `request.POST or None`: unticking the only box posts nothing, and must still save.
    data = request.POST if request.method == "POST" else None
    form = PersonSettingsForm(data, instance=PersonSettings.of(request.user))
    if request.method == "POST" and form.is_valid():
        saved = form.save()
        # The next page reads the session (policy/locale.py); the message below is
        # worded already in the language just chosen.
        remember(request.session, saved)
        translation.activate(saved.language or translation.get_language_from_request(request))
        messages.success(request, gettext("Your settings are saved."))
        return redirect("person_settings")
    return _page(request, form=form)


@login_required
@require_POST
def person_email(request: HtmxHttpRequest) -> HttpResponse:
    """The address a password reset goes to (issue 27): one's own, never another's."""
    form = EmailForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _page(request, email_form=form, status=400)
    form.save()
    messages.success(request, gettext("Your email address is saved."))
    return redirect("person_settings")


def _page(request, status: int = 200, **forms) -> HttpResponse:
    forms.setdefault("form", PersonSettingsForm(instance=PersonSettings.of(request.user)))
    forms.setdefault("email_form", EmailForm(instance=request.user))
    return render(request, "tables/person_settings.html", forms, status=status)

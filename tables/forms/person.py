"""A person's own settings (issue 14): input only; the view saves them for request.user."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tables.forms.locale import offer_time_zones
from tables.models import PersonSettings


class PersonSettingsForm(forms.ModelForm):
    class Meta:
        model = PersonSettings
        fields = ["animate_dice", "show_stage", "rule_marks", "language", "time_zone"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        offer_time_zones(self, blank_label=_("The campaign's time zone"))


class EmailForm(forms.ModelForm):
    """Where a password reset link goes (issue 27); blank: nowhere."""

    class Meta:
        model = get_user_model()
        fields = ["email"]
        help_texts = {"email": _("Only for a link to reset a forgotten password.")}

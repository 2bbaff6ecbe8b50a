"""A person's own settings (issue 14): input only; the view saves them for request.user."""

from __future__ import annotations

from django import forms

from tables.models import PersonSettings


class PersonSettingsForm(forms.ModelForm):
    class Meta:
        model = PersonSettings
        fields = ["animate_dice", "show_stage"]

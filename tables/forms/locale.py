"""The time zone picker of a person's and a campaign's settings (issue 34)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from tables.models.locale import NOT_A_ZONE, time_zone_choices


class TimeZoneField(forms.ChoiceField):
    """One of the offered zones (or the stored one): anything else, `localtime` and
    `Factory` included, is refused with the model's message, not "Select a valid choice"."""

    def validate(self, value):
        try:
            super().validate(value)
        except ValidationError:
            raise ValidationError(
                NOT_A_ZONE, code="time_zone", params={"value": value[:64]}
            ) from None


def offer_time_zones(form: forms.ModelForm, blank_label=None) -> None:
    """The form's `time_zone`, as a picker of the canonical zones grouped by region.
    The instance's stored zone, if no longer offered (US/Eastern, chosen before), is
    offered first: it shows as chosen and saves unchanged."""
    model_field = form.fields["time_zone"]
    form.fields["time_zone"] = TimeZoneField(
        label=model_field.label,
        help_text=model_field.help_text,
        required=False,
        choices=time_zone_choices(blank_label, current=form.instance.time_zone),
    )

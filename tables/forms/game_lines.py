"""Forms of the 2d20 game lines' table tools: Challenge dice (GL-04) and the scene's
complication range (GL-05). Input only; tables/services/game_lines.py decides."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from rules.challenge import MAX_DICE
from rules.d20 import FACES
from rules.game_lines import NARRATIVE_SPENDS
from tables.models.limits import NOTE_MAX


class ChallengeRollForm(forms.Form):
    """GL-04: how many Challenge dice, for whom (optional) and why."""

    dice = forms.IntegerField(
        min_value=1, max_value=MAX_DICE, initial=2, label=gettext_lazy("Dice")
    )
    character = forms.IntegerField(required=False, label=gettext_lazy("For"))
    note = forms.CharField(
        max_length=NOTE_MAX, required=False, label=gettext_lazy("For what (optional)")
    )

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "dice": data["dice"],
            "character_id": data.get("character"),
            "note": data.get("note") or "",
        }


class SceneComplicationForm(forms.Form):
    """GL-05: the scene's complication range; `clear` goes back to the campaign's."""

    range = forms.IntegerField(
        min_value=1,
        max_value=FACES,
        required=False,
        label=gettext_lazy("Complication range for this scene"),
    )
    clear = forms.BooleanField(required=False, label=gettext_lazy("Clear"))

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("clear") and cleaned.get("range") is None and not self.errors:
            raise forms.ValidationError(gettext("Give a range from 1 to 20, or clear the scene's."))
        return cleaned

    def value(self) -> int | None:
        return None if self.cleaned_data.get("clear") else self.cleaned_data["range"]


class NarrativeSpendForm(forms.Form):
    """GL-02: a narrative spend of the personal pool (Fallout: Luck of the Draw, Lucky
    Timing): whose, which, at what price (the GM's), and a note."""

    character = forms.IntegerField(label=_("Who"))
    use = forms.ChoiceField(choices=[(u, u) for u in NARRATIVE_SPENDS], label=_("Spend"))
    points = forms.IntegerField(min_value=1, max_value=20, initial=1, label=_("Points"))
    note = forms.CharField(max_length=NOTE_MAX, required=False, label=_("What for (optional)"))

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "character_id": data["character"],
            "use": data["use"],
            "points": data["points"],
            "note": data.get("note") or "",
        }


def challenge_form(form: ChallengeRollForm | None = None) -> ChallengeRollForm:
    """The Challenge dice form: the one given (with its errors), else a blank one."""
    return form or ChallengeRollForm()

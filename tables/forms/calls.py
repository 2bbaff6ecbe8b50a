"""The GM's form to call for a test (tables/services/calls.py). Input only; the service
decides (a sheet without that skill, a luck roll with opposition…)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from rules.d20 import FACES
from tables.models import CalledTest, Campaign
from tables.models.limits import MAX_POOL

EVERYONE = ""


class CallForm(forms.Form):
    character = forms.ChoiceField(label=gettext_lazy("Who rolls"), required=False)
    attribute = forms.CharField(max_length=40, required=False, label=gettext_lazy("Attribute"))
    # 2d20 (T-R1, T-R2)
    skill = forms.CharField(max_length=40, required=False, label=gettext_lazy("Skill"))
    focus = forms.CharField(max_length=120, required=False, label=gettext_lazy("Focus (optional)"))
    difficulty = forms.IntegerField(
        min_value=0, max_value=5, initial=1, required=False, label=gettext_lazy("Difficulty")
    )
    complication_range = forms.IntegerField(
        min_value=1,
        max_value=FACES,
        required=False,
        label=gettext_lazy("Complication range (optional)"),
    )
    # Momenta (D6-10, D6-11)
    kind = forms.ChoiceField(
        choices=CalledTest.Kind.choices, initial=CalledTest.Kind.ACTION, label=gettext_lazy("Roll")
    )
    opposition_pool = forms.IntegerField(
        min_value=1,
        max_value=MAX_POOL,
        required=False,
        label=gettext_lazy("Opposition dice (optional)"),
    )
    # Momenta, the GM's call (PM-02, PM-05): the roll is made with Disadvantage; a
    # situational edge is Advantage the roller may pay 1 Momentum for.
    disadvantage = forms.BooleanField(required=False, label=gettext_lazy("With Disadvantage"))
    edge = forms.BooleanField(
        required=False, label=gettext_lazy("A GM-called edge (Advantage for 1 Momentum)")
    )
    hidden = forms.BooleanField(required=False, label=gettext_lazy("Hidden from players"))
    note = forms.CharField(
        max_length=120, required=False, label=gettext_lazy("What for (optional)")
    )

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, auto_id="call-%s", **kwargs)
        self.d20 = not campaign.uses_d6
        characters = campaign.characters.order_by("is_npc", "name")
        self.fields["character"].choices = [(EVERYONE, gettext("Anyone at the table"))] + [
            (str(c.pk), c.name) for c in characters
        ]
        self.fields["hidden"].label = (
            gettext("Hide the Difficulty until the dice land")
            if self.d20
            else gettext("Hide the opposition until the dice land")
        )
        if self.d20:
            for name in ("kind", "opposition_pool", "disadvantage", "edge"):
                del self.fields[name]
            self.fields["difficulty"].required = True
        else:
            for name in ("skill", "focus", "difficulty", "complication_range"):
                del self.fields[name]

    def clean_character(self):
        value = self.cleaned_data.get("character")
        return int(value) if value not in (None, EVERYONE) else None

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["character_id"] = data.pop("character")
        return data


def call_form(campaign: Campaign, membership) -> CallForm | None:
    """The call form as first drawn, for GMs (who call tests); None for anyone else."""
    return CallForm(campaign=campaign) if membership.is_gm else None

"""The scene board's traits in a roll's composer (MO-09b), shared by both rulesets' forms:
two fields, `helps` and `hinders`, each a list of trait ids."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.policy.board_traits import standing_for


class TraitMarks(forms.TypedMultipleChoiceField):
    """Board traits marked for a roll. Any id is taken here: the service says in words
    why one is refused (removed meanwhile, another scene's), not "not a valid choice"."""

    widget = forms.CheckboxSelectMultiple

    def valid_value(self, value) -> bool:
        return True


def offer_traits(form: forms.Form, campaign, membership, traits=None) -> list[tuple]:
    """The standing traits the member sees (GMs: hidden ones too), as (trait, ticked as
    helping, ticked as hindering): a composer sent back keeps what was ticked. `traits`:
    the list another form of this request read (a roll leaves the board as it was)."""
    if traits is None:
        traits = standing_for(campaign, membership.is_gm)
    data = form.data
    posted = {
        name: set(data.getlist(name)) if hasattr(data, "getlist") else set()
        for name in ("helps", "hinders")
    }
    choices = [(t.pk, t.text) for t in traits]
    form.fields["helps"].choices = form.fields["hinders"].choices = choices
    form.board_traits = traits
    return [(t, str(t.pk) in posted["helps"], str(t.pk) in posted["hinders"]) for t in traits]


def check_trait_marks(data: dict) -> None:
    if set(data.get("helps") or ()) & set(data.get("hinders") or ()):
        raise forms.ValidationError(_("A trait either helps or hinders, not both."))


def trait_marks(data: dict) -> list[tuple[int, int]]:
    """(trait id, −1 helps / +1 hinders), as the services take them."""
    helps = [(pk, -1) for pk in data.get("helps") or ()]
    return helps + [(pk, 1) for pk in data.get("hinders") or ()]

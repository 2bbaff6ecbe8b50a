"""Forms of 2d20 play and the GM panel. They check input only; services decide."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from tables.forms.board import TraitMarks, check_trait_marks, offer_traits, trait_marks
from tables.models import Campaign, Character, Contest, Membership
from tables.models.sheets import prefetch_sheet
from tables.policy.access import controllable, default_character
from tables.words.wording import SEEDS, spend_name, spend_price

FACTOR_MAX = 5
BONUS_MAX = 10
THREAT_STEP_MAX = 50
# What the composer keeps after a roll (D20RollForm.after_roll).
KEPT_AFTER_ROLL = ("attribute", "skill", "focus", "difficulty")


def _int(data, name, default=None):
    try:
        return int(data.get(name))
    except (TypeError, ValueError, AttributeError):
        return default


class D20RollForm(forms.Form):
    """The composer: a 2d20 test before it is rolled (T-R1, T-R2, T-03, MO-05, MO-08)."""

    # An IntegerField, not a choice: a character that is not yours gets a
    # sentence that says so (clean_character), not "not a valid choice".
    character = forms.IntegerField(label=gettext_lazy("Character"))
    attribute = forms.ChoiceField(label=gettext_lazy("Attribute"))
    skill = forms.ChoiceField(label=gettext_lazy("Skill"))
    focus = forms.ChoiceField(required=False, label=gettext_lazy("Focus"))
    contest = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=gettext_lazy("Contest (the opposer has rolled)"),
    )
    difficulty = forms.IntegerField(
        min_value=0, max_value=5, initial=1, label=gettext_lazy("Difficulty")
    )
    harder = forms.IntegerField(
        min_value=0, max_value=FACTOR_MAX, initial=0, label=gettext_lazy("Factors making it harder")
    )
    easier = forms.IntegerField(
        min_value=0, max_value=FACTOR_MAX, initial=0, label=gettext_lazy("Factors making it easier")
    )
    # No max here: the rules refuse a fourth die in their own words (MO-08).
    bought_dice = forms.IntegerField(min_value=0, initial=0, label=gettext_lazy("Bought d20s"))
    buy_from_momentum = forms.IntegerField(
        min_value=0,
        initial=0,
        label=gettext_lazy("Paid from group Momentum (the rest goes to Threat)"),
    )
    expected_momentum = forms.IntegerField(required=False, widget=forms.HiddenInput)
    assistants = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Assisting"),
    )
    bonus_momentum = forms.IntegerField(
        min_value=0, max_value=BONUS_MAX, initial=0, label=gettext_lazy("Bonus Momentum")
    )
    bonus_restricted_to = forms.MultipleChoiceField(
        required=False, label=gettext_lazy("Bonus only for"), widget=forms.CheckboxSelectMultiple
    )
    # The scene board's traits this roll leans on: one Difficulty step each (MO-09b).
    helps = TraitMarks(coerce=int, required=False, label=_("Helps (−1)"))
    hinders = TraitMarks(coerce=int, required=False, label=_("Hinders (+1)"))
    secret = forms.BooleanField(required=False, label=gettext_lazy("Secret roll (GMs only see it)"))
    # GL-05: this roll's own range, over the scene's and the campaign's; blank: theirs.
    complication_range = forms.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        label=gettext_lazy("Complication range for this roll"),
    )
    # GL-02, GL-03: only on lines that spend Determination as the test is rolled.
    spend_determination = forms.BooleanField(
        required=False, label=gettext_lazy("Spend a personal point")
    )
    # SC-02: whom an attack is aimed at; the GM applies its damage once the test is done.
    target = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=_("Target (attacks)")
    )

    def __init__(
        self,
        data=None,
        *,
        campaign: Campaign,
        membership: Membership,
        spends=None,
        character: Character | None = None,
        initial: dict | None = None,
        everyone: list[Character] | None = None,
        contests: list[Contest] | None = None,
        board_traits: list | None = None,
    ):
        """`everyone`: the campaign's characters with their owners, if the caller read
        them for this request (another form's `everyone`); else they are read here.
        `contests`: the contests awaiting `character`'s roll, likewise."""
        super().__init__(data, initial=initial, auto_id="d20-%s")
        self.campaign = campaign
        self.membership = membership
        if everyone is None:
            everyone = list(campaign.characters.select_related("owner"))
        self.everyone = everyone
        self._choose_character(data, character)
        chosen = self.chosen
        if chosen is not None:  # one read of the sheet, which the roll then uses too
            prefetch_sheet(chosen)
        attributes = list(chosen.attributes.all()) if chosen else []
        skills = list(chosen.skills.all()) if chosen else []
        focuses = [t for t in chosen.traits.all() if t.kind == "focus"] if chosen else []
        self.fields["attribute"].choices = [(a.name, f"{a.name} {a.value}") for a in attributes]
        self.fields["skill"].choices = [(s.name, f"{s.name} {s.value}") for s in skills]
        self.fields["focus"].choices = [("", gettext("No focus"))] + [
            (t.text, t.text) for t in focuses
        ]
        self._offer_contests(contests if chosen is character else None)
        self._offer_assistants()
        self.fields["target"].choices = [("", _("No target"))] + [
            (c.pk, c.name) for c in self.everyone if c != chosen
        ]
        self.fields["bonus_restricted_to"].choices = [
            (key, spend_name(kind)) for key, kind in (spends or {}).items()
        ]
        self.initial.setdefault("expected_momentum", campaign.group_momentum)
        self.trait_rows = offer_traits(self, campaign, membership, board_traits)
        if not membership.is_gm:
            del self.fields["secret"]
        self._offer_line_spend()
        self._name_pools(campaign.line)

    def _name_pools(self, line) -> None:
        """GL-01: the labels (and so the refusals) say the line's names for the pools."""
        names = {"group": line.group_pool, "gm": line.gm_pool}
        self.fields["buy_from_momentum"].label = _(
            "Paid from group {group} (the rest goes to {gm})"
        ).format(**names)
        self.fields["bonus_momentum"].label = _("Bonus {group}").format(**names)

    def _choose_character(self, data, character: Character | None) -> None:
        """The characters this member rolls for, and the one chosen: the one posted (or
        given), else the member's default. A given character replaces its copy."""
        self.characters = controllable(self.campaign, self.membership, self.everyone)
        wanted = _int(data, "character") if data is not None else getattr(character, "pk", None)
        by_id = {c.pk: c for c in self.characters}
        if character is not None and character.pk in by_id:
            by_id[character.pk] = character  # the caller's own copy, as fresh as it holds
            self.characters = [by_id[c.pk] for c in self.characters]
        self.chosen = by_id.get(wanted) or default_character(self.characters, self.membership)
        self.character_choices = [
            (c.pk, (gettext("%(c)s (NPC)") % {"c": c.name}) if c.is_npc else c.name)
            for c in self.characters
        ]
        if self.chosen is not None:
            self.initial["character"] = self.chosen.pk

    def _offer_contests(self, contests: list[Contest] | None) -> None:
        """The contests awaiting the chosen character's roll (read here if not given)."""
        if contests is None:
            contests = Contest.objects.filter(
                campaign=self.campaign, active=self.chosen, state=Contest.State.AWAITING
            ).select_related("opposer")
        self.contests = contests = list(contests)
        self.fields["contest"].choices = [("", gettext("No contest"))] + [
            (
                c.pk,
                (
                    gettext("Against %(opposer)s (Difficulty %(difficulty)s)")
                    % {"opposer": c.opposer.name, "difficulty": c.difficulty}
                ),
            )
            for c in contests
        ]
        if contests:
            self.initial.setdefault("contest", contests[0].pk)

    def clean(self):
        data = super().clean()
        check_trait_marks(data)
        return data

    def _offer_assistants(self) -> None:
        others = sorted((c for c in self.everyone if c != self.chosen), key=lambda c: c.name)
        # Any character may be named (so clean_assistants can say why one is refused),
        # but a player is offered only player characters: NPCs assist at the GM's call.
        self.fields["assistants"].choices = [(c.pk, c.name) for c in others]
        self.assistant_choices = [
            (c.pk, c.name) for c in others if self.membership.is_gm or not c.is_npc
        ]
        self.fields["assistants"].widget.choices = self.assistant_choices
        self._npc_names = {c.pk: c.name for c in others if c.is_npc}

    def _offer_line_spend(self) -> None:
        """GL-02, GL-03: Determination spent as the test is rolled, on lines that do."""
        line = self.campaign.line
        if line.spends_before_roll:
            ones, extra = line.determination_dice(True)
            if not ones:  # Fallout's Stacked Deck
                buys = _("Stacked Deck, LCK instead of the attribute")
            else:
                buys = _("a bonus d20 showing 1") if extra else _("one d20 set to 1")
            self.fields["spend_determination"].label = _("Spend 1 %(pool)s: %(buys)s") % {
                "pool": line.personal_pool,
                "buys": buys,
            }
        else:
            del self.fields["spend_determination"]

    def clean_character(self):
        pk = self.cleaned_data["character"]
        if pk not in {c.pk for c in self.characters}:
            raise forms.ValidationError(gettext("That character is not yours to roll for."))
        return pk

    def clean_assistants(self):
        chosen = self.cleaned_data.get("assistants") or []
        if not self.membership.is_gm:
            npcs = [self._npc_names[pk] for pk in chosen if pk in self._npc_names]
            if npcs:
                if len(npcs) == 1:
                    who = gettext("%(0)s is the GM's NPC") % {"0": npcs[0]}
                else:
                    who = gettext("%(join)s are the GM's NPCs") % {"join": ", ".join(npcs)}
                raise forms.ValidationError(
                    gettext("%(who)s: only the GM can call on an NPC to assist (T-03).")
                    % {"who": who}
                )
        return chosen

    def after_roll(self, record, spends) -> D20RollForm:
        """The composer reset after `record` was rolled from this form: the same test can
        be tried again or helped, but bought dice, assistants, bonus Momentum, factors
        and secrecy start afresh, so nothing is bought or spent again unasked."""
        return D20RollForm(
            campaign=record.campaign,
            membership=self.membership,
            spends=spends,
            character=record.character,
            initial=self._kept(),
            everyone=self.everyone,
            contests=self._contests_left(record.contest_id),
            board_traits=self.board_traits,  # a roll leaves the board as it was
        )

    def params_after_roll(self) -> dict:
        """The initial_params of the composer after_roll will draw, known before the roll
        (so the answer reads the next test's odds with the test's own reads): the choices
        kept and the first contest still awaiting the roller."""
        kept = self._kept()
        left = self._contests_left(self.cleaned_data.get("contest"))
        return {
            **kept,
            "focus": kept["focus"] or "",
            "factors": [],
            "bought_dice": 0,
            "buy_from_momentum": 0,
            "assistants": [],
            "bonus_momentum": 0,
            "contest_id": left[0].pk if left else None,
        }

    def _kept(self) -> dict:
        return {name: self.cleaned_data.get(name) for name in KEPT_AFTER_ROLL}

    def _contests_left(self, answered_id) -> list[Contest]:
        """The contests read for this roll, less the one it answers (then rolled)."""
        return [c for c in self.contests if c.pk != answered_id]

    def resent(self, campaign: Campaign, spends) -> D20RollForm:
        """This form as sent, checked again against `campaign` as it is now: the group
        pool shown (and checked next time) is the one there is now."""
        data = self.data.copy()
        data["expected_momentum"] = campaign.group_momentum
        form = D20RollForm(data, campaign=campaign, membership=self.membership, spends=spends)
        form.is_valid()
        return form

    def initial_params(self) -> dict:
        """The test an unbound composer shows, as service_kwargs would give it: each
        choice kept from the last roll, else its first."""

        def first(name):
            choices = self.fields[name].choices
            known = [value for value, _label in choices]
            if self.initial.get(name) in known:
                return self.initial[name]  # kept from the last roll
            return choices[0][0] if choices else ""

        difficulty = self.initial.get("difficulty")
        return {
            "attribute": first("attribute"),
            "skill": first("skill"),
            "focus": first("focus"),
            "difficulty": 1 if difficulty is None else difficulty,
            "factors": [],
            "bought_dice": 0,
            "buy_from_momentum": 0,
            "assistants": [],
            "bonus_momentum": 0,
            "contest_id": self.initial.get("contest"),
        }

    def service_kwargs(self) -> dict:
        """The cleaned values as the fields of services.d20.D20TestRequest."""
        data = self.cleaned_data
        return {
            "attribute": data["attribute"],
            "skill": data["skill"],
            "focus": data.get("focus") or "",
            "difficulty": data["difficulty"],
            "factors": [1] * data["harder"] + [-1] * data["easier"],
            "bought_dice": data["bought_dice"],
            "buy_from_momentum": data["buy_from_momentum"],
            "expected_momentum": data.get("expected_momentum"),
            "assistants": list(data.get("assistants") or ()),
            "bonus_momentum": data["bonus_momentum"],
            "bonus_restricted_to": list(data.get("bonus_restricted_to") or ()) or None,
            "contest_id": data.get("contest"),
            "secret": bool(data.get("secret")),
            "complication_range": data.get("complication_range"),
            "spend_determination": bool(data.get("spend_determination")),
            "traits": trait_marks(data),
            "target_id": data.get("target"),
        }


class SpendForm(forms.Form):
    """One use of a Momentum spend (MO-02, MO-03)."""

    kind = forms.ChoiceField(label=gettext_lazy("Spend"), widget=forms.RadioSelect)
    from_pool = forms.IntegerField(
        min_value=0,
        required=False,
        label=gettext_lazy("From the group pool"),
        help_text=gettext_lazy("Blank: whatever the roll's Momentum does not cover."),
    )
    to_threat = forms.IntegerField(
        min_value=0, required=False, initial=0, label=gettext_lazy("Paid by adding to Threat")
    )
    # Create Trait (MO-09): the new trait's text may run to the board's 200 characters.
    note = forms.CharField(
        max_length=200, required=False, label=gettext_lazy("Note (e.g. your question)")
    )
    expected_momentum = forms.IntegerField(required=False, widget=forms.HiddenInput)
    trait = forms.IntegerField(required=False, min_value=1, label=_("Trait to change"))
    remove_trait = forms.BooleanField(required=False, label=_("Remove that trait"))

    def __init__(self, *args, spends: dict, group_momentum: int, line=None, **kwargs):
        super().__init__(*args, **kwargs)
        line = line or SEEDS
        self.fields["kind"].choices = [
            (key, f"{kind.name} — {spend_price(kind, line)}") for key, kind in spends.items()
        ]
        # GL-01: the line's name for Threat
        self.fields["to_threat"].label = _("Paid by adding to {gm}").format(gm=line.gm_pool)
        self.initial.setdefault("expected_momentum", group_momentum)


class RerollForm(forms.Form):
    """T-04: the dice of one's own pool to reroll."""

    dice = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Dice to reroll")
    )

    def __init__(self, *args, faces=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dice"].choices = [(i, f"#{i + 1}: {face}") for i, face in enumerate(faces)]


def composer_form(campaign: Campaign, membership: Membership, spends: dict) -> D20RollForm:
    """The composer as first drawn: the member's default character, nothing chosen yet."""
    return D20RollForm(campaign=campaign, membership=membership, spends=spends)


def panel_forms(campaign: Campaign, record, spends: dict, spend_form=None) -> dict:
    """A test's spend panel forms: a spend (the one given, with its errors, wins) and
    the reroll of the test's own dice (T-04)."""
    faces = [d["face"] for d in record.result.get("dice", [])]
    return {
        "spend_form": spend_form
        or SpendForm(spends=spends, group_momentum=campaign.group_momentum, line=campaign.line),
        "reroll_form": RerollForm(faces=faces),
    }


class VetoForm(forms.Form):
    reason = forms.CharField(max_length=120, required=False, label=gettext_lazy("Reason"))


# --- GM panel -------------------------------------------------------------------------


class ThreatForm(forms.Form):
    """MO-13: the GM adds to or spends Threat, with a reason."""

    action = forms.ChoiceField(
        choices=[("add", gettext_lazy("Add")), ("spend", gettext_lazy("Spend"))],
        label=gettext_lazy("Action"),
    )
    amount = forms.IntegerField(
        min_value=1, max_value=THREAT_STEP_MAX, initial=1, label=gettext_lazy("Amount")
    )
    reason = forms.CharField(max_length=200, label=gettext_lazy("Reason"))
    expected = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(
                gettext("Say why: every pool change is logged with its reason.")
            )
        return reason


class ThreatVisibleForm(forms.Form):
    visible = forms.BooleanField(required=False, label=gettext_lazy("Visible to players"))


class ContestForm(forms.Form):
    """CT-01, CT-02: the GM rolls the opposer first."""

    opposer = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Opposer"))
    active = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Against"))
    attribute = forms.CharField(max_length=40, label=gettext_lazy("Attribute"))
    skill = forms.CharField(max_length=40, label=gettext_lazy("Skill"))
    focus = forms.CharField(max_length=120, required=False, label=gettext_lazy("Focus"))
    bought_dice = forms.IntegerField(
        min_value=0, initial=0, label=gettext_lazy("Bought d20s (Threat)")
    )
    hindrances = forms.IntegerField(
        min_value=0,
        max_value=FACTOR_MAX,
        initial=0,
        label=gettext_lazy("Factors hindering the opposer"),
    )

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        characters = list(campaign.characters.order_by("-is_npc", "name"))
        # GL-01: the NPC's dice are bought with the line's GM pool
        self.fields["bought_dice"].label = _("Bought d20s ({gm})").format(gm=campaign.line.gm_pool)
        self.fields["opposer"].choices = [(c.pk, c.name) for c in characters]
        self.fields["active"].choices = [(c.pk, c.name) for c in reversed(characters)]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("opposer") is not None and cleaned.get("opposer") == cleaned.get("active"):
            self.add_error("active", gettext("A character cannot oppose themselves."))
        return cleaned


class CustomSpendForm(forms.Form):
    """MO-14: a spend the GM defines."""

    name = forms.CharField(max_length=60, label=gettext_lazy("Name"))
    cost = forms.IntegerField(min_value=1, max_value=20, initial=1, label=gettext_lazy("Cost"))
    repeatable = forms.BooleanField(required=False, label=gettext_lazy("Repeatable (per point)"))
    description = forms.CharField(max_length=200, required=False, label=gettext_lazy("Description"))

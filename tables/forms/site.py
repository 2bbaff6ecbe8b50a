"""Validated forms: every bad value gets a message next to its field.

Forms only check input; the services in services.py decide and write.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from rules import game_lines
from rules.pools import PERSONAL_MOMENTUM_MAX
from tables.forms.locale import offer_time_zones
from tables.models import (
    SETTINGS_FIELDS,
    Asset,
    Attribute,
    Campaign,
    Character,
    Membership,
    PoolChange,
    Skill,
    Trait,
)
from tables.models.limits import MAX_INVITE_USES
from tables.policy import harm_rules
from tables.policy.characters import BACK_INTO_CREATION, SHEET_MAXIMA, SHEET_POOLS
from tables.words.wording import pool_name

MAX_DICE = 20  # attribute and skill values; far above any real sheet
MAX_POOL_STEP = 20
# Rows of one kind on a sheet. absolute_max: a forged TOTAL_FORMS builds at most this
# many forms (Django's default, 2000, costs seconds per request).
MAX_SHEET_ROWS = 60
ROW_LIMITS = {"max_num": MAX_SHEET_ROWS, "validate_max": True, "absolute_max": MAX_SHEET_ROWS}


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        # Optional: without one, only the operator can reset a forgotten password.
        labels = {"email": gettext_lazy("Email address (optional)")}
        help_texts = {"email": gettext_lazy("Only for a link to reset a forgotten password.")}


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    preset = forms.ChoiceField(
        choices=Campaign.Preset.choices,
        initial=Campaign.Preset.MOMENTA,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Fills the dice system and the Momentum economy; you can change both later."
        ),
        label=gettext_lazy("Rule set"),
    )

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError(gettext("Give the campaign a name."))
        return name


class CampaignSettingsForm(forms.ModelForm):
    """The choices behind the preset and every ruling (PAT-R1, PAT-R2, PM-R1, T-R1, T-03, CT-R1)."""

    class Meta:
        model = Campaign
        fields = SETTINGS_FIELDS
        labels = {
            "name": gettext_lazy("Name"),
            "dice_system": gettext_lazy("Dice system"),
            "economy": gettext_lazy("Economy"),
            "threat_visible": gettext_lazy("Threat visible to players"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bounds = {
            "advantage_dice": (0, 5),
            "disadvantage_dice": (0, 5),
            "complication_range": (1, 20),
        }
        for name, (low, high) in bounds.items():
            _limit(self.fields[name], low, high)
        # GL-01: a post without the line (an older page) keeps the campaign's.
        self.fields["game_line"].required = False
        # Worded for the reader now: the model's choices are the titles as the books spell
        # them in English (tables/words/line_names.py marks them for the catalogues).
        self.fields["game_line"].choices = [
            (key, gettext(title)) for key, title in game_lines.choices()
        ]
        # Likewise the language and time zone (issue 28), which older pages do not post.
        self.fields["language"].required = False
        offer_time_zones(self)  # not required either

    def clean_game_line(self):
        return self.cleaned_data.get("game_line") or self.instance.game_line

    def clean_language(self):
        return self.cleaned_data.get("language") or self.instance.language

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def clean(self):
        cleaned = super().clean()
        for name in ("name", "band_label_0", "band_label_1", "band_label_2", "band_label_3"):
            value = cleaned.get(name)
            if value is not None and not value.strip():
                self.add_error(name, gettext("This cannot be blank."))
        line = game_lines.line_of(cleaned.get("game_line") or self.instance.game_line)
        chosen = cleaned.get("complication_range")
        if chosen is not None and chosen > line.complication_max:  # GL-05: the line's bound
            self.add_error(
                "complication_range",
                _("%(line)s allows a complication range of at most %(high)d.")
                % {"line": line.title, "high": line.complication_max},
            )
        return cleaned


def _limit(field: forms.IntegerField, low: int, high: int) -> None:
    """Bound an integer field, in the browser and on the server, with one message.

    Below 0 is left to the model field's own check (its fields are positive),
    so a negative value gets one error, not two.
    """

    def check(value):
        if value is not None and value >= 0 and not low <= value <= high:
            raise ValidationError(
                gettext("Choose a value from %(low)s to %(high)s.") % {"low": low, "high": high}
            )

    field.validators.append(check)
    field.widget.attrs.update(min=low, max=high)


class JoinForm(forms.Form):
    role = forms.ChoiceField(
        label=gettext_lazy("Join as"),
        choices=[
            (Membership.Role.PLAYER, gettext_lazy("Player: play a character")),
            (Membership.Role.OBSERVER, gettext_lazy("Observer: watch, change nothing")),
        ],
        initial=Membership.Role.PLAYER,
        widget=forms.RadioSelect,
    )


class InviteForm(forms.Form):
    """The limits of a new invite link; empty fields mean no limit."""

    expires_in = forms.TypedChoiceField(
        label=gettext_lazy("The link works"),
        choices=[
            ("", gettext_lazy("until replaced")),
            ("1", gettext_lazy("for 1 hour")),
            ("24", gettext_lazy("for 1 day")),
            ("168", gettext_lazy("for 7 days")),
            ("720", gettext_lazy("for 30 days")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
    )
    uses = forms.IntegerField(
        label=gettext_lazy("Joins allowed"),
        min_value=1,
        max_value=MAX_INVITE_USES,
        required=False,
        help_text=gettext_lazy("Empty: any number."),
    )

    def expires_at(self, now: datetime) -> datetime | None:
        hours = self.cleaned_data["expires_in"]
        return None if hours is None else now + timedelta(hours=hours)


class CharacterForm(forms.ModelForm):
    """A character's own fields. Pool inputs carry the value the page showed
    (show_hidden_initial), so a save cannot silently undo a spend made at the
    table meanwhile."""

    class Meta:
        model = Character
        fields = [
            "name",
            "notes",
            "in_creation",
            "momentum",
            "resolve",
            "resolve_max",
            "determination",
            "minor_foe",
        ]
        labels = {
            "name": gettext_lazy("Name"),
            "notes": gettext_lazy("Notes"),
            "momentum": gettext_lazy("Momentum"),
            "resolve": gettext_lazy("Resolve"),
            "resolve_max": gettext_lazy("Resolve maximum"),
            "determination": gettext_lazy("Determination"),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    # Pools change through play and the GM (PM-13, MO-13), never by a player's sheet.
    POOLS = SHEET_POOLS
    POOL_HELP = gettext_lazy("Changes through play and the GM, not the sheet.")
    CREATION_HELP = BACK_INTO_CREATION  # PM-12 (policy/characters.py)

    def __init__(self, *args, campaign: Campaign, gm: bool, **kwargs):
        """`gm`: the person editing is a GM. A player sees their pools read-only when
        editing and not at all when creating (they start as the rules say)."""
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.gm = gm
        if campaign.economy != Campaign.Economy.PERSONAL:
            del self.fields["momentum"]
        if not (gm and self.instance.is_npc and harm_rules.defeats_minor_foes(campaign)):
            del self.fields["minor_foe"]  # SC-06: a GM's flag on a Dune NPC
        if campaign.dice_system == Campaign.DiceSystem.D6:
            del self.fields["determination"]
        else:
            del self.fields["resolve"]
            del self.fields["resolve_max"]
        for name in self.POOLS if not gm else ():
            if name not in self.fields:
                continue
            if self.instance.pk is None:
                del self.fields[name]
            else:
                self.fields[name].disabled = True
                self.fields[name].help_text = self.POOL_HELP
        # RS-01: so is a maximum, once the character exists (a new one's is the player's).
        for name in SHEET_MAXIMA if not gm and self.instance.pk is not None else ():
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = self.POOL_HELP
        if "momentum" in self.fields:
            _limit(self.fields["momentum"], 0, PERSONAL_MOMENTUM_MAX)
        for name in ("momentum", "resolve", "determination"):
            if name in self.fields:
                self.fields[name].show_hidden_initial = True
        for name in ("resolve_max", "determination"):
            if name in self.fields:
                _limit(self.fields[name], 0, MAX_DICE)
        self.fields["in_creation"].label = gettext("In character creation")
        if not gm and self.instance.pk is not None:
            # The page says what it showed, so a box drawn locked is not read as an
            # untick after the GM put the character back in meanwhile (_clean_in_creation).
            self.fields["in_creation"].show_hidden_initial = True
            if not self.instance.in_creation:
                self.fields["in_creation"].disabled = True
                self.fields["in_creation"].help_text = self.CREATION_HELP

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError(gettext("Give the character a name."))
        clash = Character.objects.filter(campaign=self.campaign, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise ValidationError(
                gettext("This campaign already has a character named %(name)s.") % {"name": name}
            )
        return name

    def clean(self):
        cleaned = super().clean()
        for name in (*self.POOLS, *SHEET_MAXIMA) if not self.gm else ():
            # A disabled field ignores what is posted; a change posted anyway is said.
            # "Change": other than the value the page showed (its hidden initial), so a
            # page drawn before a spend at the table is no change of the player's.
            if name not in self.fields or not self.fields[name].disabled:
                continue
            posted = self.data.get(self.add_prefix(name))
            shown = self.data.get(self.add_initial_prefix(name), str(self[name].initial))
            if posted not in (None, shown):
                label = self.fields[name].label
                self.add_error(name, f"{label} {self.POOL_HELP[0].lower()}{self.POOL_HELP[1:]}")
        if not self.gm:
            self._clean_in_creation(cleaned)
        resolve, resolve_max = cleaned.get("resolve"), cleaned.get("resolve_max")
        if resolve is not None and resolve_max is not None and resolve > resolve_max:
            self.add_error(
                "resolve",
                (
                    gettext("Resolve cannot be above its maximum (%(resolve_max)s).")
                    % {"resolve_max": resolve_max}
                ),
            )
        return cleaned

    def _clean_in_creation(self, cleaned) -> None:
        """A player's box (PM-12): a tick posted to the locked box is refused; a page
        that showed it locked leaves a character the GM put back in meanwhile in."""
        field = self.fields["in_creation"]
        name = self.add_prefix("in_creation")
        if self.instance.pk is None:
            return  # a new character: the player's to tick or not
        if field.disabled:
            if field.widget.value_from_datadict(self.data, self.files, name):
                self.add_error("in_creation", self.CREATION_HELP)
            return
        # A locked box's hidden initial is disabled too, so not posted: no "shown ticked"
        # means the page did not offer the box, and the character stays in creation.
        shown = self.data.get(self.add_initial_prefix("in_creation"))
        if not field.to_python(shown):
            cleaned["in_creation"] = True


class _NamedRowsFormSet(forms.BaseInlineFormSet):
    """Rows with a name: no two rows may share one, whatever the letter case."""

    name_field = "name"
    noun = "entry"

    def clean(self):
        super().clean()
        seen = set()
        if self.instance.pk is not None:
            # Rows saved since the page was drawn (a double submit): the database's
            # unique name would refuse them with an IntegrityError, so say it here.
            shown = [form.instance.pk for form in self.initial_forms]
            saved = self.model.objects.filter(**{self.fk.name: self.instance})
            for name in saved.exclude(pk__in=shown).values_list(self.name_field, flat=True):
                seen.add(name.casefold())
        for form in self.forms:
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            name = (form.cleaned_data.get(self.name_field) or "").strip()
            if not name:
                continue
            key = name.casefold()
            if key in seen:
                form.add_error(
                    self.name_field,
                    (
                        gettext("There is already a %(noun)s named %(name)s.")
                        % {"noun": self.noun, "name": name}
                    ),
                )
            seen.add(key)


class _RowForm(forms.ModelForm):
    # field -> (low, high): the bounds the browser and the form both enforce
    limits: dict[str, tuple[int, int]] = {}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (low, high) in self.limits.items():
            _limit(self.fields[name], low, high)

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError(gettext("Give it a name."))
        return name


class AttributeForm(_RowForm):
    limits = {"value": (0, MAX_DICE)}

    class Meta:
        model = Attribute
        fields = ["name", "value"]
        labels = {"name": gettext_lazy("Name"), "value": gettext_lazy("Value")}


class SkillForm(_RowForm):
    limits = {"value": (0, MAX_DICE)}

    class Meta:
        model = Skill
        fields = ["name", "value"]
        labels = {"name": gettext_lazy("Name"), "value": gettext_lazy("Value")}


class TraitForm(forms.ModelForm):
    class Meta:
        model = Trait
        fields = ["kind", "text"]
        labels = {"kind": gettext_lazy("Kind"), "text": gettext_lazy("Text")}

    def __init__(self, *args, kinds=None, **kwargs):
        super().__init__(*args, **kwargs)
        if kinds:
            # The first kind is the initial value, so an untouched extra row
            # (whose select shows it) counts as unchanged and is skipped.
            self.fields["kind"].choices = [c for c in Trait.Kind.choices if c[0] in kinds]
            self.fields["kind"].initial = kinds[0]
            if len(kinds) == 1:
                self.fields["kind"].widget = forms.HiddenInput()

    def clean_text(self):
        text = self.cleaned_data["text"].strip()
        if not text:
            raise ValidationError(gettext("Write the text."))
        return text


class AssetForm(_RowForm):
    limits = {"quality": (0, 5)}

    class Meta:
        model = Asset
        fields = ["name", "quality", "permanent"]
        labels = {
            "name": gettext_lazy("Name"),
            "quality": gettext_lazy("Quality"),
            "permanent": gettext_lazy("Permanent"),
        }


def _named_rows(model, form, noun: str, extra: int):
    """A sheet's inline rows of `model`, each name once (_NamedRowsFormSet)."""
    rows = type(
        f"{model.__name__}Rows",
        (_NamedRowsFormSet,),
        {"noun": noun},
    )
    return forms.inlineformset_factory(
        Character, model, form=form, formset=rows, extra=extra, can_delete=True, **ROW_LIMITS
    )


AttributeFormSet = _named_rows(Attribute, AttributeForm, "attribute", extra=2)
SkillFormSet = _named_rows(Skill, SkillForm, "skill", extra=2)
TraitFormSet = forms.inlineformset_factory(
    Character, Trait, form=TraitForm, extra=2, can_delete=True, **ROW_LIMITS
)
AssetFormSet = _named_rows(Asset, AssetForm, "asset", extra=1)


def sheet_formsets(campaign: Campaign, character: Character, data=None) -> list:
    """The inline formsets a sheet of this campaign's dice system shows, in order."""
    if campaign.dice_system == Campaign.DiceSystem.D6:
        formsets = [
            _titled(
                AttributeFormSet(data, instance=character, prefix="attributes"),
                gettext("Attributes (dice; LUCK among them)"),
            ),
            _traits(data, character, "threads", [Trait.Kind.THREAD], gettext("Threads")),
        ]
    else:
        formsets = [
            _titled(
                AttributeFormSet(data, instance=character, prefix="attributes"),
                gettext("Attributes"),
            ),
            _titled(SkillFormSet(data, instance=character, prefix="skills"), gettext("Skills")),
            _traits(
                data,
                character,
                "traits",
                [Trait.Kind.FOCUS, Trait.Kind.TRAIT],
                gettext("Focuses and traits"),
            ),
            _titled(
                AssetFormSet(data, instance=character, prefix="assets"),
                gettext("Assets (temporary ones expire at the end of the scene)"),
            ),
        ]
    return formsets


def _titled(formset, title: str):
    formset.title = title
    return formset


def _traits(data, character, prefix, kinds, title):
    formset = TraitFormSet(
        data,
        instance=character,
        prefix=prefix,
        queryset=Trait.objects.filter(kind__in=kinds),
        form_kwargs={"kinds": kinds},
    )
    return _titled(formset, title)


class SceneForm(forms.Form):
    """A new scene's title (optional). A CharField refuses NUL, which PostgreSQL cannot store."""

    title = forms.CharField(max_length=100, required=False, label=gettext_lazy("Title"))


class PoolAdjustForm(forms.Form):
    """The GM changes one pool by hand; the reason goes to the log (PM-13)."""

    pool = forms.ChoiceField(label=gettext_lazy("Pool"))
    character = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Character")
    )
    delta = forms.IntegerField(
        label=gettext_lazy("Change by"), min_value=-MAX_POOL_STEP, max_value=MAX_POOL_STEP
    )
    reason = forms.CharField(max_length=200, label=gettext_lazy("Reason"))
    expected = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, campaign: Campaign, pools: dict, **kwargs):
        super().__init__(*args, **kwargs)
        labels = dict(PoolChange.Pool.choices)
        self.campaign_pools = pools["campaign"]
        self.character_pools = pools["character"]
        # GL-01: a pool by its name at this table's game line ("Doom", "Luck").
        self.fields["pool"].choices = [
            (p, pool_name(campaign, p, labels[p]))
            for p in self.campaign_pools + self.character_pools
        ]
        self.fields["character"].choices = [("", gettext("— (campaign pool)"))] + [
            (c.pk, c.name) for c in campaign.characters.all()
        ]

    def clean_delta(self):
        delta = self.cleaned_data["delta"]
        if delta == 0:
            raise ValidationError(gettext("A change of 0 changes nothing."))
        return delta

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise ValidationError(gettext("Say why: every pool change is logged with its reason."))
        return reason

    def clean(self):
        cleaned = super().clean()
        pool, character = cleaned.get("pool"), cleaned.get("character")
        if pool in self.character_pools and character is None:
            self.add_error("character", gettext("Choose whose pool this is."))
        if pool in self.campaign_pools and character is not None:
            self.add_error(
                "character", gettext("This pool belongs to the campaign, not a character.")
            )
        return cleaned

    def service_kwargs(self) -> dict:
        """services.adjust_pool's arguments after the campaign and the actor."""
        data = self.cleaned_data
        return {
            "pool": data["pool"],
            "delta": data["delta"],
            "reason": data["reason"],
            "character_id": data["character"],
            "expected": data["expected"],
        }

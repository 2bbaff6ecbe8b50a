"""Forms of the Momenta composer and the GM's Momenta tools.

Choices depend on the campaign, the viewer and the chosen character, so each
form takes them as keyword arguments. Forms check shape (numbers, choices);
the rules and the services decide the rest and their refusals come back as
non-field errors. Forms know models, rules and the policy (tables/policy/), never
the services: the views turn a valid form into the services' plain arguments.
The builders at the end (roll_form…) give a page's forms as first drawn.
"""

from __future__ import annotations

import re

from django import forms
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from rules.patterns import EFFECTS, KIND_SIZES, PLAY_MODES, ROLL_KINDS
from rules.personal import ADVANTAGE_COST, AdvantageSource
from rules.templates import HARMS, MAX_HARM_DIVISOR, ROUNDINGS
from tables.forms.board import TraitMarks, check_trait_marks, offer_traits, trait_marks
from tables.models import AssistRequest, Campaign, Character, Membership, RollTemplate, Trait
from tables.models.limits import MAX_MODIFIER, MAX_MODIFIERS, MAX_POOL, MAX_TRAUMA
from tables.words import values as value_words
from tables.words.wording import template_words

SOURCE_CHOICES = {
    AdvantageSource.CHARACTERISTIC: gettext_lazy("A characteristic"),
    AdvantageSource.BOON: gettext_lazy("A Boon"),
    AdvantageSource.SITUATIONAL: gettext_lazy("A GM-called edge"),
}


def _advantage_label(source: AdvantageSource) -> str:
    return ngettext(
        "%(source)s (%(cost)d Momentum)", "%(source)s (%(cost)d Momentum)", ADVANTAGE_COST[source]
    ) % {"source": SOURCE_CHOICES[source], "cost": ADVANTAGE_COST[source]}


# Lazy: worded when a form is drawn, in its reader's language (not once, at import).
ADVANTAGE_CHOICES = [(s.value, lazy(_advantage_label, str)(s)) for s in AdvantageSource]
KIND_CHOICES = [("action", gettext_lazy("Action")), ("attack", gettext_lazy("Attack"))]
PLAY_CHOICES = value_words.choices(value_words.PLAY, PLAY_MODES)


def parse_modifiers(text: str) -> tuple[int, ...]:
    """'+1 -2', '1, -2' or '' -> (1, -2) (D6-06); anything else is refused."""
    text = (text or "").strip()
    if not text:
        return ()
    parts = [p for p in re.split(r"[\s,;]+", text) if p]
    if not all(re.fullmatch(r"[+-]?\d{1,3}d?", p, flags=re.IGNORECASE) for p in parts):
        raise forms.ValidationError(
            gettext("Write dice modifiers like +1 or -2, separated by spaces.")
        )
    values = tuple(int(p.lower().rstrip("d")) for p in parts)
    if len(values) > MAX_MODIFIERS or any(abs(v) > MAX_MODIFIER for v in values):
        raise forms.ValidationError(
            gettext("At most %(max_modifiers)s modifiers, each of at most %(max_modifier)s dice.")
            % {"max_modifiers": MAX_MODIFIERS, "max_modifier": MAX_MODIFIER}
        )
    return values


def open_assists(character: Character):
    """Assists the GM accepted for this character, ready or waiting for a test (PM-08, PM-10)."""
    return AssistRequest.objects.filter(
        roller=character, state=AssistRequest.State.ACCEPTED
    ).select_related("helper")


class MomentaRollForm(forms.Form):
    """The composer: what to roll, with what, and who pays (D6-06..D6-11, PM, RS-01)."""

    character = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Character"))
    attribute = forms.ChoiceField(label=gettext_lazy("Attribute"))
    kind = forms.ChoiceField(
        choices=KIND_CHOICES, initial="action", label=gettext_lazy("Roll"), widget=forms.RadioSelect
    )
    play = forms.ChoiceField(
        choices=PLAY_CHOICES,
        initial="narrative",
        label=gettext_lazy("Play"),
        widget=forms.RadioSelect,
    )
    template = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Template")
    )
    modifiers = forms.CharField(
        required=False,
        max_length=60,
        label=gettext_lazy("Modifiers"),
        help_text=gettext_lazy("Dice bonuses and penalties, e.g. +1 -2"),
    )
    thread = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Thread (+2d)")
    )
    advantage_sources = forms.MultipleChoiceField(
        choices=ADVANTAGE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Advantage from"),
    )
    disadvantage = forms.BooleanField(required=False, label=gettext_lazy("Disadvantage"))
    assist = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Use an Assist")
    )
    opposition_successes = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_POOL, label=gettext_lazy("Opposition successes")
    )
    opposition_pool = forms.IntegerField(
        required=False,
        min_value=-10,
        max_value=MAX_POOL,
        label=gettext_lazy("or roll opposition dice"),
    )
    secret = forms.BooleanField(required=False, label=gettext_lazy("Secret (GMs only see it)"))
    # SC-02: whom an attack is aimed at; the GM applies its damage once it resolves.
    target = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=_("Target (attacks)")
    )
    expected_momentum = forms.IntegerField(required=False, widget=forms.HiddenInput)
    expected_resolve = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # The scene board's traits this roll leans on: +1d or −1d each (MO-09b).
    helps = TraitMarks(coerce=int, required=False, label=_("Helps (+1d)"))
    hinders = TraitMarks(coerce=int, required=False, label=_("Hinders (−1d)"))

    def __init__(
        self,
        *args,
        campaign: Campaign,
        membership: Membership,
        character: Character | None,
        characters: list[Character],
        templates=(),
        assists=None,
        board_traits=None,
        targets=None,
        called_edges: tuple[bool, bool] | None = None,
        **kwargs,
    ):
        """`characters`: those the member controls, as the view read them (policy
        `controllable`); `assists`: the roller's accepted ones, if read already;
        `called_edges`: (Disadvantage, edge) a called test answered here carries."""
        super().__init__(*args, **kwargs)
        self.campaign, self.membership, self.roller = campaign, membership, character
        self.is_gm = membership.is_gm
        self.gm_calls = False  # a player may not declare an edge or Disadvantage
        self.templates = list(templates)
        self.characters = characters
        self.fields["character"].choices = [(c.pk, c.name) for c in characters]
        self.fields["template"].choices = [("", gettext("Default for the roll"))] + [
            (t.pk, template_words(t.name)) for t in templates
        ]
        self.resolve_fields: list[tuple[str, Character]] = []
        self.luck = False
        if character is None:
            self.fields["attribute"].choices = []
            self.fields["thread"].choices = [("", gettext("No Thread"))]
            self.fields["assist"].choices = [("", gettext("No Assist"))]
        else:
            self._offer_roller(character, assists)
        if not self.is_gm:
            self._limit_player(campaign)
        self.called_edges = called_edges or (False, False)
        self._take_call(*self.called_edges)
        self.trait_rows = offer_traits(self, campaign, membership, board_traits)
        self._offer_targets(campaign, character, targets)

    def _offer_targets(self, campaign: Campaign, roller: Character | None, targets) -> None:
        """Every character of the campaign but the roller (SC-02)."""
        if targets is None:
            targets = campaign.characters.only("pk", "name", "campaign_id")
        self.targets = list(targets)  # read once: the composer redrawn after a roll reuses them
        self.fields["target"].choices = [("", gettext("No target"))] + [
            (c.pk, c.name) for c in self.targets if roller is None or c.pk != roller.pk
        ]

    def _offer_roller(self, character: Character, assists) -> None:
        """The choices the roller's sheet gives: attributes, Threads, Assists, Resolve."""
        attributes = list(character.attributes.all())
        luck = gettext(" (luck roll)")  # outside the f-string, where xgettext reads it
        self.fields["attribute"].choices = [
            (a.name, f"{a.name} {a.value}d{luck if a.is_luck else ''}") for a in attributes
        ]
        chosen = self._value("attribute") or (attributes[0].name if attributes else "")
        self.luck = any(a.is_luck and a.name == chosen for a in attributes)
        if self.luck:
            # D6-11: a luck roll is neither an action nor an attack, so the composer
            # hides the choice; play still matters (PAT-07 in narrative play).
            self.fields["kind"].required = False
            self.fields["play"].required = False
        # .all(): a prefetched sheet (services.momenta.load_roll) costs no query.
        threads = [t for t in character.traits.all() if t.kind == Trait.Kind.THREAD]
        self.fields["thread"].choices = [("", gettext("No Thread"))] + [
            (t.pk, t.text) for t in threads
        ]
        # D6-06: said as the rules say it, e.g. for a Thread struck off since the page was drawn.
        not_theirs = gettext("That Thread is not one of %(name)s's.") % {"name": character.name}
        self.fields["thread"].error_messages["invalid_choice"] = not_theirs.replace("%", "%%")
        assists = list(open_assists(character) if assists is None else assists)
        self.fields["assist"].choices = [("", gettext("No Assist"))] + [
            (a.pk, _assist_label(a)) for a in assists
        ]
        # RS-01: the roller and the allies whose Assist is accepted may spend Resolve
        # on a narrative action roll; never on a luck roll (D6-11).
        spenders = [] if self.luck else [character] + [a.helper for a in assists]
        for spender in dict.fromkeys(spenders):
            name = gettext("resolve_%(pk)s") % {"pk": spender.pk}
            self.fields[name] = forms.IntegerField(
                required=False,
                min_value=0,
                max_value=10,
                initial=0,
                label=(
                    gettext("%(spender)s's Resolve (%(resolve)s/%(resolve_max)s)")
                    % {
                        "spender": spender.name,
                        "resolve": spender.resolve,
                        "resolve_max": spender.resolve_max,
                    }
                ),
            )
            self.resolve_fields.append((name, spender))

    def _limit_player(self, campaign: Campaign) -> None:
        """A player sets no opposition and no secrecy; where the GM calls edges and
        Disadvantage, a player is not offered them."""
        for name in ("opposition_successes", "opposition_pool", "secret"):
            del self.fields[name]
        self.gm_calls = not campaign.players_declare_edges
        if self.gm_calls:
            # The GM calls these (services/momenta/rolls.py, _check_declared): not offered, and
            # clean() says so if they are posted anyway.
            self.fields["disadvantage"].widget.attrs["disabled"] = True
            self.fields["disadvantage"].label = gettext("Disadvantage (the GM calls it)")
            self.fields["advantage_sources"].widget.choices = [
                c for c in ADVANTAGE_CHOICES if c[0] != AdvantageSource.SITUATIONAL
            ]

    def _take_call(self, disadvantage: bool, edge: bool) -> None:
        """A called test's Disadvantage is the GM's (PM-02): shown ticked, and not the
        roller's to clear (a disabled field keeps its initial value, whatever is posted).
        A called edge is offered even where the GM calls edges, for the roller to take
        and pay for, or leave (PM-05)."""
        if disadvantage:
            field = self.fields["disadvantage"]
            field.disabled, field.initial = True, True
            field.label = _("Disadvantage (the GM calls it)")
        if edge:
            self.fields["advantage_sources"].widget.choices = ADVANTAGE_CHOICES

    def _value(self, name: str):
        if self.is_bound:
            return self.data.get(self.add_prefix(name))
        return self.initial.get(name)

    def clean_modifiers(self):
        return parse_modifiers(self.cleaned_data.get("modifiers", ""))

    def clean(self):
        data = super().clean()
        # What the GM called for this roll is theirs to ask (called_edges).
        disadvantage_called, edge_called = self.called_edges
        sources = data.get("advantage_sources") or ()
        called = [
            AdvantageSource.SITUATIONAL in sources and not edge_called,
            bool(data.get("disadvantage")) and not disadvantage_called,
        ]
        if self.gm_calls and any(called):
            what = " and ".join(
                w
                for w, on in zip(
                    (gettext("a GM-called edge"), gettext("Disadvantage")), called, strict=True
                )
                if on
            )
            raise forms.ValidationError(
                gettext(
                    "At this table the GM calls %(what)s: ask the GM, who rolls it for your "
                    "character."
                )
                % {"what": what}
            )
        if self.luck:
            if data.get("kind") == "attack":
                # Said, not quietly turned into a luck roll (issue 11).
                raise forms.ValidationError(
                    gettext(
                        "LUCK makes luck rolls only, never an attack (D6-11): attack with "
                        "another attribute, or roll LUCK as a luck roll."
                    )
                )
            data["kind"] = "luck"  # D6-11: LUCK makes a luck roll
            data["play"] = data.get("play") or "narrative"
        check_trait_marks(data)
        if data.get("target") is not None and data.get("kind") != "attack":
            raise forms.ValidationError(gettext("Only an attack names a target (SC-02)."))
        if data.get("opposition_successes") is not None and data.get("opposition_pool") is not None:
            raise forms.ValidationError(
                gettext("Give the opposition's successes or its dice, not both (D6-10).")
            )
        return data

    @property
    def resolve_bound_fields(self):
        return [self[name] for name, _ in self.resolve_fields]

    def resolve_spend(self) -> list[tuple[int, int]]:
        return [
            (spender.pk, self.cleaned_data.get(name) or 0) for name, spender in self.resolve_fields
        ]

    def roll_values(self) -> dict:
        """The cleaned data as plain values: the fields of services.momenta.RollRequest."""
        d = self.cleaned_data
        return {
            "attribute": d["attribute"],
            "kind": d["kind"],
            "modifiers": d["modifiers"],
            "thread": d.get("thread"),
            "play": d["play"],
            "template_id": d.get("template"),
            "advantage_sources": d.get("advantage_sources") or [],
            "disadvantage": d.get("disadvantage", False),
            "assist_id": d.get("assist"),
            "resolve_spend": self.resolve_spend(),
            "opposition_successes": d.get("opposition_successes"),
            "opposition_pool": d.get("opposition_pool"),
            "secret": d.get("secret", False),
            "expected_momentum": d.get("expected_momentum"),
            "expected_resolve": d.get("expected_resolve"),
            "traits": trait_marks(d),
            "target_id": d.get("target"),
        }


def _assist_label(assist: AssistRequest) -> str:
    if not assist.helper_agreed:
        return gettext("%(helper)s (waiting for %(helper)s's agreement)") % {
            "helper": assist.helper.name
        }
    if assist.uncertain and assist.test_passed is None:
        return gettext("%(helper)s (waiting for the test the GM called)") % {
            "helper": assist.helper.name
        }
    if assist.uncertain:
        return gettext("%(helper)s (test %(failed)s)") % {
            "helper": assist.helper.name,
            "failed": "passed" if assist.test_passed else "failed",
        }
    return assist.helper.name


class AllocationForm(forms.Form):
    """One of the listed allocations, encoded 'Pattern:face|Pattern:face' ('' for none)."""

    allocation = forms.CharField(required=False, max_length=500, label=gettext_lazy("Patterns"))

    def clean_allocation(self) -> list[tuple[str, int]]:
        raw = self.cleaned_data.get("allocation", "").strip()
        if not raw:
            return []
        out = []
        for part in raw.split("|"):
            name, _, face = part.rpartition(":")
            # isascii: "²".isdigit() is true, but int() refuses it.
            if not name.strip() or not (face.strip().isascii() and face.strip().isdigit()):
                raise forms.ValidationError(gettext("Choose one of the listed allocations."))
            out.append((name.strip(), int(face)))
        return out


class AssistRequestForm(forms.Form):
    roller = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Roller"))
    helper = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Helper"))
    structured = forms.BooleanField(
        required=False, label=gettext_lazy("Structured time (uses the helper's action)")
    )

    def __init__(self, *args, campaign: Campaign, **kwargs):
        # Its own ids: the roll form shares the composer (ids are unique on a page).
        kwargs.setdefault("auto_id", "assist-%s")
        super().__init__(*args, **kwargs)
        choices = [(c.pk, c.name) for c in Character.objects.filter(campaign=campaign)]
        self.fields["roller"].choices = choices
        self.fields["helper"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("roller") is not None and data.get("roller") == data.get("helper"):
            raise forms.ValidationError(gettext("An Assist comes from another character (PM-08)."))
        return data


class AssistAnswerForm(forms.Form):
    answer = forms.ChoiceField(
        choices=[
            ("accept", gettext_lazy("Accept")),
            ("decline", gettext_lazy("Decline")),
            ("call_test", gettext_lazy("Call a test")),
            ("test_passed", gettext_lazy("Test passed")),
            ("test_failed", gettext_lazy("Test failed")),
            # The helper's own word (PM-08): their player, or the GM for an NPC.
            ("agree", gettext_lazy("Agree to pay")),
            ("refuse", gettext_lazy("Decline to help")),
        ],
        label=gettext_lazy("Answer"),
    )


class TraumaForm(forms.Form):
    character = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Character"))
    points = forms.IntegerField(
        min_value=1, max_value=MAX_TRAUMA, label=gettext_lazy("Trauma points")
    )
    expected = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, characters=(), **kwargs):
        # Not id_character: the roll form beside it has a character field too.
        kwargs.setdefault("auto_id", "trauma-%s")
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(c.pk, c.name) for c in characters]


def _numbers(text: str, count: int, what: str) -> list[int]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) != count or not all(p.isascii() and p.isdigit() for p in parts):
        raise forms.ValidationError(
            gettext("%(what)s: give %(count)s whole numbers, e.g. 1 2 3 4.")
            % {"what": what, "count": count}
        )
    return [int(p) for p in parts]


class RollTemplateForm(forms.Form):
    """A roll template (D6-04, D6-05, PAT-R2)."""

    template_id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(max_length=60, label=gettext_lazy("Name"))
    campaign_labels = forms.BooleanField(
        required=False, label=gettext_lazy("Use the campaign's band labels (PAT-R2)")
    )
    band_0 = forms.CharField(max_length=80, required=False, label=gettext_lazy("Band 0 (graze)"))
    band_1 = forms.CharField(max_length=80, required=False, label=gettext_lazy("Band 1"))
    band_2 = forms.CharField(max_length=80, required=False, label=gettext_lazy("Band 2"))
    band_3 = forms.CharField(max_length=80, required=False, label=gettext_lazy("Band 3+"))
    overflow = forms.CharField(
        max_length=120, required=False, label=gettext_lazy("Overflow effect")
    )
    damage = forms.CharField(
        max_length=40,
        required=False,
        label=gettext_lazy("Harm per band"),
        help_text=gettext_lazy("e.g. 1 2 3 4; empty: none"),
    )
    harm = forms.ChoiceField(
        choices=value_words.choices(value_words.HARM, HARMS),
        initial="damage",
        label=gettext_lazy("Harm"),
    )
    overflow_damage = forms.IntegerField(
        min_value=0, max_value=20, initial=0, label=gettext_lazy("Damage past the last band")
    )
    rounding = forms.ChoiceField(
        choices=value_words.choices(value_words.ROUNDING, ROUNDINGS),
        initial="down",
        label=gettext_lazy("Rounding"),
    )
    harm_divisor = forms.IntegerField(
        required=False,  # a form from before the divisor posts none: no division
        min_value=1,
        max_value=MAX_HARM_DIVISOR,
        initial=1,
        label=_("Divide the harm by"),
        help_text=_("1: no division; 2: half the harm, rounded as chosen above (D6-05)"),
    )

    def __init__(self, *args, **kwargs):
        # The new template's ids; each saved one has its own (for_template), and the
        # pattern form and the roll form share the page (name, play).
        kwargs.setdefault("auto_id", "new-template-%s")
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        bands = [(data.get(f"band_{i}") or "").strip() for i in range(4)]
        if not data.get("campaign_labels") and not all(bands):
            raise forms.ValidationError(
                gettext("Give a text for each of the bands 0, 1, 2 and 3+.")
            )
        if data.get("damage"):
            data["damage_list"] = _numbers(data["damage"], 4, gettext("Harm per band"))
        return data

    def rules_data(self, campaign: Campaign) -> dict:
        d = self.cleaned_data
        bands = [(d.get(f"band_{i}") or "").strip() for i in range(4)]
        if d.get("campaign_labels"):
            bands = list(campaign.band_labels())
        return {
            "name": d["name"].strip(),
            "bands": bands,
            "overflow": d.get("overflow") or None,
            "damage": d.get("damage_list"),
            "harm": d["harm"],
            "overflow_damage": d.get("overflow_damage") or 0,
            "rounding": d["rounding"],
            "harm_divisor": d.get("harm_divisor") or 1,
        }

    @classmethod
    def for_template(cls, template: RollTemplate) -> RollTemplateForm:
        data = template.data
        bands = data.get("bands") or ["", "", "", ""]
        damage = data.get("damage")
        return cls(
            initial={
                "template_id": template.pk,
                "name": template.name,
                "campaign_labels": template.campaign_labels,
                **{(gettext("band_%(i)s") % {"i": i}): bands[i] for i in range(4)},
                "overflow": data.get("overflow") or "",
                "damage": " ".join(str(v) for v in damage) if damage else "",
                "harm": data.get("harm", "damage"),
                "overflow_damage": data.get("overflow_damage", 0),
                "rounding": data.get("rounding", "down"),
                "harm_divisor": data.get("harm_divisor", 1),
            },
            auto_id=f"t{template.pk}_%s",
        )


class CustomPatternForm(forms.Form):
    """A GM-defined pattern (PAT-01..PAT-04)."""

    pattern_id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(max_length=60, label=gettext_lazy("Name"))
    kind = forms.ChoiceField(
        choices=value_words.choices(value_words.PATTERN_KIND, KIND_SIZES),
        label=gettext_lazy("Kind"),
    )
    effect = forms.ChoiceField(
        choices=value_words.choices(value_words.EFFECT, EFFECTS), label=gettext_lazy("Effect")
    )
    amount = forms.IntegerField(min_value=1, max_value=20, initial=1, label=gettext_lazy("Amount"))
    roll_kinds = forms.MultipleChoiceField(
        choices=value_words.choices(value_words.ROLL_KIND, ROLL_KINDS),
        widget=forms.CheckboxSelectMultiple,
        initial=list(ROLL_KINDS),
        label=gettext_lazy("Rolls"),
    )
    play = forms.MultipleChoiceField(
        choices=PLAY_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        initial=list(PLAY_MODES),
        label=gettext_lazy("Play"),
    )
    min_effective_successes = forms.IntegerField(
        min_value=0,
        max_value=10,
        initial=1,
        label=gettext_lazy("Needs effective successes (PAT-04)"),
    )
    needs_resolve_spent = forms.BooleanField(
        required=False, label=gettext_lazy("Only if Resolve was spent")
    )
    damage_not_strain = forms.BooleanField(
        required=False, label=gettext_lazy("Only attacks dealing damage")
    )
    description = forms.CharField(max_length=300, required=False, label=gettext_lazy("Description"))
    active = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Active"))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "new-pattern-%s")  # as RollTemplateForm
        super().__init__(*args, **kwargs)

    @classmethod
    def for_pattern(cls, pattern) -> CustomPatternForm:
        return cls(
            initial=dict(pattern.data, pattern_id=pattern.pk, active=pattern.active),
            auto_id=f"p{pattern.pk}_%s",
        )

    def rules_data(self) -> dict:
        d = self.cleaned_data
        return {
            key: d[key]
            for key in (
                "name",
                "kind",
                "effect",
                "amount",
                "roll_kinds",
                "play",
                "min_effective_successes",
                "needs_resolve_spent",
                "damage_not_strain",
                "description",
            )
        }


# --- The composer's forms, as a view or the table page draws them ------------------------

# The composer's choices a redrawn composer keeps (never the pools seen).
ROLL_FIELDS = (
    "attribute",
    "kind",
    "play",
    "template",
    "modifiers",
    "thread",
    "disadvantage",
    "assist",
    "opposition_successes",
    "opposition_pool",
    "secret",
    "target",
)


def roll_form(
    campaign: Campaign,
    membership: Membership,
    character: Character | None,
    data=None,
    initial=None,
    *,
    characters: list[Character],
    templates=None,
    assists=None,
    board_traits=None,
    targets=None,
    called_edges: tuple[bool, bool] | None = None,
) -> MomentaRollForm:
    """The composer's form for the member's `characters`; what the caller read already
    (the RollRows templates, the roller's accepted Assists) is not read again. Its hidden
    expected_* fields hold the roller's pools as read now."""
    initial = dict(initial or {})
    if character is not None:
        names = {a.name for a in character.attributes.all()}
        if initial.get("attribute") not in names:
            initial.pop("attribute", None)
        initial.setdefault("character", character.pk)
        initial["expected_momentum"] = character.momentum
        initial["expected_resolve"] = character.resolve
    if templates is None:
        templates = list(RollTemplate.objects.filter(campaign=campaign))
    return MomentaRollForm(
        data,
        initial=initial,
        campaign=campaign,
        membership=membership,
        character=character,
        templates=templates,
        characters=characters,
        assists=assists,
        board_traits=board_traits,
        targets=targets,
        called_edges=called_edges,
    )


def initial_from(query) -> dict:
    """A redrawn composer keeps what the person had chosen (never the pools seen)."""
    initial = {name: query.get(name) for name in ROLL_FIELDS if query.get(name) not in (None, "")}
    if hasattr(query, "getlist"):
        initial["advantage_sources"] = query.getlist("advantage_sources")
        for key in query:
            if key.startswith("resolve_"):
                initial[key] = query.get(key)
    return initial


def as_submitted(form: MomentaRollForm) -> MomentaRollForm:
    """The form bound to the values it was first drawn with, as if sent unchanged (the
    first attribute if none was chosen): what the first odds preview shows."""
    query = QueryDict(mutable=True)
    for name, field_ in form.fields.items():
        value = form.get_initial_for_field(field_, name)
        if value in (None, "", False, [], ()):
            continue
        if isinstance(value, list | tuple):
            query.setlist(name, [str(v) for v in value])
        else:
            query[name] = str(value)
    choices = form.fields["attribute"].choices
    if choices:
        query.setdefault("attribute", choices[0][0])
    return MomentaRollForm(
        query,
        campaign=form.campaign,
        membership=form.membership,
        character=form.roller,
        characters=form.characters,
        templates=form.templates,
        board_traits=form.board_traits,
        called_edges=form.called_edges,
    )


def side_forms(
    campaign: Campaign,
    characters: list[Character],
    roller: Character | None,
    *,
    assist_form: AssistRequestForm | None = None,
    trauma_form: TraumaForm | None = None,
) -> tuple[AssistRequestForm, TraumaForm]:
    """The composer's Assist request and Trauma forms (those given, with their errors,
    win), each starting on the roller."""
    start = roller.pk if roller else None
    return (
        assist_form or AssistRequestForm(campaign=campaign, initial={"roller": start}),
        trauma_form or TraumaForm(characters=characters, initial={"character": start}),
    )


def gm_tools_forms(templates, patterns, template_form=None, pattern_form=None) -> dict:
    """The GM's Momenta tools: an edit form per roll template and custom pattern, and
    the forms to add one (those given, with their errors, win)."""
    blank_template = {"harm": "damage", "rounding": "down", "overflow_damage": 0, "harm_divisor": 1}
    return {
        "templates": [(t, RollTemplateForm.for_template(t)) for t in templates],
        "template_form": template_form or RollTemplateForm(initial=blank_template),
        "custom_patterns": [(p, CustomPatternForm.for_pattern(p)) for p in patterns],
        "pattern_form": pattern_form or CustomPatternForm(),
    }

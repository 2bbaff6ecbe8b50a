"""The GM's roll templates (D6-04, D6-05) and custom patterns (PAT-01..PAT-04)."""

from __future__ import annotations

import json

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.patterns import BUILTIN_PATTERNS, InvalidPattern, Pattern
from rules.templates import InvalidTemplate
from rules.templates import RollTemplate as RulesTemplate
from tables import events
from tables.models import Campaign, CustomPattern, RollTemplate, TableEvent
from tables.services.core import ServiceError, append_event, lock_campaign, require_gm
from tables.services.momenta.common import require_d6
from tables.services.named import campaign_record, delete_named
from tables.services.roll_templates import seed_default_templates
from tables.words.said import said


def _edited(model, campaign: Campaign, record_id: int | None, name: str, what: str):
    """The campaign's record being edited (None: a new one), once no other record of
    the campaign has that name, case aside. `what` names the model in messages."""
    record = None
    if record_id is not None:
        record = campaign_record(
            model, campaign, record_id, f"That {what} is not in this campaign."
        )
    clash = model.objects.filter(campaign=campaign, name__iexact=name)
    if record is not None:
        clash = clash.exclude(pk=record.pk)
    if clash.exists():
        raise ServiceError(
            gettext("This campaign already has a %(what)s named %(name)s.")
            % {"what": what, "name": name}
        )
    return record


def _same(record, data: dict, **fields) -> bool:
    """The edit would store what the record holds (its data as the JSON column reads it)."""
    stored = json.loads(json.dumps(data))
    return record.data == stored and all(getattr(record, k) == v for k, v in fields.items())


def _unchanged(name: str) -> ServiceError:
    """An edit that saves what is already there: refused, so it writes no event."""
    return ServiceError(
        gettext("“%(name)s” already reads like this. Nothing was changed.") % {"name": name}
    )


def _named_template(data: dict) -> tuple[RulesTemplate, str]:
    """The rules' template from the GM's form, and its name, which it must have."""
    try:
        template = RulesTemplate.from_dict(dict(data))
    except InvalidTemplate as error:
        raise ServiceError(str(error)) from None
    name = template.name.strip()
    if not name:
        raise ServiceError(gettext("Give the template a name."))
    return template, name


def save_roll_template(
    campaign_id: int,
    actor,
    data: dict,
    *,
    template_id: int | None = None,
    campaign_labels: bool = False,
) -> TableEvent:
    """The GM creates or edits a roll template: band texts, overflow, damage (D6-04, D6-05).

    `data` is what rules.templates.RollTemplate.from_dict takes; the rules
    refuse what does not make sense, with a message for the GM.
    """
    template, name = _named_template(data)
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        require_d6(campaign)
        seed_default_templates(campaign)
        record = _edited(RollTemplate, campaign, template_id, name, "roll template")
        creating = record is None
        if creating:
            last = RollTemplate.objects.filter(campaign=campaign).count()
            record = RollTemplate(campaign=campaign, position=last)
        data = template.to_dict() | {"name": name}
        if not creating and _same(record, data, name=name, campaign_labels=bool(campaign_labels)):
            raise _unchanged(name)
        record.name, record.data, record.campaign_labels = name, data, campaign_labels
        record.save()
        return append_event(
            campaign,
            events.ROLL_TEMPLATE_SAVED,
            actor,
            {
                "template_id": record.pk,
                "name": name,
                "created": creating,
                **said(
                    gettext_noop("Roll template %(name)s added.")
                    if creating
                    else gettext_noop("Roll template %(name)s changed."),
                    name=name,
                ),
            },
        )


def delete_roll_template(campaign_id: int, actor, template_id: int) -> TableEvent:
    """The GM removes a roll template; rolls made with it keep their copy."""

    def keep_one(campaign):
        if RollTemplate.objects.filter(campaign=campaign).count() == 1:
            raise ServiceError(gettext("Keep at least one roll template."))

    return delete_named(
        campaign_id,
        actor,
        RollTemplate,
        template_id,
        kind=events.ROLL_TEMPLATE_DELETED,
        missing="That roll template is not in this campaign.",
        summary=lambda name: said(gettext_noop("Roll template %(name)s removed."), name=name),
        check=keep_one,
    )


def save_custom_pattern(
    campaign_id: int, actor, data: dict, *, pattern_id: int | None = None, active: bool = True
) -> TableEvent:
    """The GM defines a pattern (PAT-01..PAT-04): its kind, effect and the rolls it applies to.

    Names are unique per campaign, built-ins included, so an allocation names
    one pattern only.
    """
    try:
        pattern = Pattern.from_dict(dict(data))
    except InvalidPattern as error:
        raise ServiceError(str(error)) from None
    name = pattern.name.strip()
    if any(p.name.casefold() == name.casefold() for p in BUILTIN_PATTERNS):
        raise ServiceError(
            gettext("%(name)s is a pattern every character has; choose another name.")
            % {"name": name}
        )
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        require_d6(campaign)
        record = _edited(CustomPattern, campaign, pattern_id, name, "pattern")
        creating = record is None
        data = pattern.to_dict() | {"name": name}
        if not creating and _same(record, data, name=name, active=bool(active)):
            raise _unchanged(name)
        record = record or CustomPattern(campaign=campaign)
        record.name, record.data, record.active = name, data, active
        record.save()
        state = "" if active else " (inactive)"
        return append_event(
            campaign,
            events.CUSTOM_PATTERN_SAVED,
            actor,
            {
                "pattern_id": record.pk,
                "name": name,
                "active": active,
                **said(
                    gettext_noop("Pattern %(name)s%(state)s added: %(effect)s")
                    if creating
                    else gettext_noop("Pattern %(name)s%(state)s changed: %(effect)s"),
                    name=name,
                    state=state,
                    effect=pattern.description or pattern.effect,
                ),
            },
        )

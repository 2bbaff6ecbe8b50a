"""The scene board's traits, read only (MO-09b): those a person may see and mark, a trait
still standing, and the marks a roll or test puts on them. Refusals are ServiceErrors, raised
before anything is paid; the board's commands are tables/services/scene_board.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.errors import ServiceError
from tables.models import Campaign, SceneTrait


def standing_trait(campaign: Campaign, trait_id, *, gm: bool) -> SceneTrait:
    """A trait still on this campaign's board, else a ServiceError saying why.

    `gm`: the asker sees hidden entries; a player asking for a hidden one is told it
    is not there, exactly as for a trait of another campaign (nothing leaks)."""
    try:
        trait_id = int(trait_id)
    except (TypeError, ValueError):
        raise ServiceError(_("Choose a trait from the board.")) from None
    trait = SceneTrait.objects.filter(campaign=campaign, pk=trait_id).select_related("scene")
    trait = trait.first()
    if trait is None or (trait.hidden and not gm):
        raise ServiceError(_("That trait is not on this table's board."))
    if trait.removed_at is not None:
        if trait.scene.ended_at is not None and trait.removed_at >= trait.scene.ended_at:
            raise ServiceError(
                _("“%(text)s” ended with its scene; it is no longer on the board.")
                % {"text": trait.text}
            )
        raise ServiceError(
            _("“%(text)s” was removed from the board meanwhile.") % {"text": trait.text}
        )
    return trait


def marked_traits(campaign: Campaign, pairs, *, sees_hidden: bool, secret: bool) -> list[dict]:
    """MO-09b: the standing board traits a roll leans on, as the card names them: each
    (trait id, +1 hinders / −1 helps) is one Difficulty step (2d20) or one die (Momenta).
    A trait gone, of another scene or campaign, marked twice, or hidden on a roll that
    is not secret (its card would name it) is refused, before anything is paid."""
    marks, seen = [], set()
    for trait_id, effect in pairs:
        if effect not in (1, -1):
            raise ServiceError(_("A trait helps or hinders: one step either way."))
        trait = standing_trait(campaign, trait_id, gm=sees_hidden)
        if trait.pk in seen:
            raise ServiceError(
                _("“%(text)s” is marked twice: it helps or hinders.") % {"text": trait.text}
            )
        if trait.refused:
            raise ServiceError(
                _("The GM does not let “%(text)s” count for rolls. Nothing was spent.")
                % {"text": trait.text}
            )
        if trait.hidden and not secret:
            raise ServiceError(
                _("“%(text)s” is hidden: reveal it first, or roll secretly.") % {"text": trait.text}
            )
        seen.add(trait.pk)
        marks.append({"trait_id": trait.pk, "text": trait.text, "effect": effect})
    return marks


def visible_traits(traits, is_gm: bool) -> list[SceneTrait]:
    """Hidden entries are the GMs' alone (players' pages, pushes and answers)."""
    return [t for t in traits if is_gm or not t.hidden]


def standing_for(campaign: Campaign, is_gm: bool) -> list[SceneTrait]:
    """The standing traits a roller may mark (the composer's list)."""
    traits = SceneTrait.objects.filter(campaign=campaign, removed_at__isnull=True)
    return visible_traits(traits.order_by("created_at", "pk"), is_gm)

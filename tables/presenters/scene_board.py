"""What the scene board shows (issue 23), read once and drawn per audience.

`board_rows` reads the standing entries (hidden ones too) and the assets in play in two
queries; `board_context` picks what one audience may see from them, so a push reads once
and draws the board once for the GMs and once for everyone else (never per socket).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.functional import SimpleLazyObject

from tables.models import Asset, Campaign, ExtendedTask, ExtendedTaskRoll, SceneTrait
from tables.policy.board_traits import visible_traits
from tables.presenters.task_odds import task_odds


@dataclass(frozen=True)
class BoardRows:
    traits: tuple[SceneTrait, ...]
    assets: tuple[Asset, ...]
    tasks: tuple[ExtendedTask, ...] = ()  # the running scene's extended tasks (SC-03)
    task_odds: dict = field(default_factory=dict)  # task id -> task_odds.TaskOdds


def board_rows(campaign: Campaign) -> BoardRows:
    traits = SceneTrait.objects.filter(campaign=campaign, removed_at__isnull=True)
    assets = Asset.objects.filter(character__campaign=campaign).select_related("character")
    tasks = tuple(ExtendedTask.objects.filter(campaign=campaign, scene__ended_at__isnull=True))
    return BoardRows(
        tuple(traits.select_related("made_by").order_by("created_at", "pk")),
        tuple(assets.order_by("permanent", "character__name", "name")),
        tasks,
        task_odds(campaign, tasks),  # from public tests only: the same for every audience
    )


def board_context(campaign: Campaign, is_gm: bool, rows: BoardRows | None = None) -> dict:
    rows = rows or board_rows(campaign)
    traits = visible_traits(rows.traits, is_gm)
    return {
        "board_traits": traits,
        # The composers' list (composer_traits.html), pushed with the board, nothing ticked.
        "board_trait_rows": [(t, False, False) for t in traits],
        "board_assets": rows.assets,
        "board_tasks": rows.tasks,
        "board_task_odds": rows.task_odds,
        # What a resolved test's card offers (task_offers), from the rows read already.
        "open_tasks": [t for t in rows.tasks if t.is_open],
        "board_kinds": SceneTrait.Kind.choices,
        "board_players_note": campaign.players_note_traits,
        **(harm_tools(campaign) if is_gm else {}),
    }


def harm_tools(campaign: Campaign) -> dict:
    """The GM's harm form (harm_gm_form.html): the campaign's characters and the line's
    tracks (SC-02). GMs only: one query, on the GMs' board alone."""
    from tables.policy.harm_rules import track_kinds

    return {
        "harm_targets": list(campaign.characters.order_by("is_npc", "name").only("pk", "name")),
        "harm_track_keys": [k.key for k in track_kinds(campaign)],
    }


def task_offers(campaign: Campaign) -> dict:
    """What a resolved 2d20 test's card offers (d20_test_state.html): the running scene's
    open tasks and the tests already linked. Read when a card first asks, once per render
    (an open test's card, a roll's answer, never asks), however many cards it draws."""
    return {
        "open_tasks": SimpleLazyObject(lambda: _open_tasks(campaign)),
        "linked_tests": SimpleLazyObject(
            lambda: set(
                ExtendedTaskRoll.objects.filter(campaign=campaign).values_list("test_id", flat=True)
            )
        ),
    }


def _open_tasks(campaign: Campaign) -> list[ExtendedTask]:
    from tables.policy.harm_rules import offers_tasks

    if not offers_tasks(campaign):  # a line without the rule: no query
        return []
    tasks = ExtendedTask.objects.filter(
        campaign=campaign, scene__ended_at__isnull=True, closed_at__isnull=True
    )
    return list(tasks.order_by("pk"))

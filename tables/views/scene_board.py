"""The scene board's commands (issue 23): one POST endpoint, the action named by the button.

The answer is the board as the actor's audience sees it (a refusal shown inside it,
nothing changed), then the event's live fragments, so the page updates without a socket.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.presenters.scene_board import board_context
from tables.presenters.spend_reference import spend_reference
from tables.presenters.table import audience_for, base_context
from tables.services import scene_board
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, respond, run_command

BOARD = "tables/partials/scene_board.html"


def _run(action: str, campaign, user, post):
    trait = post.get("trait")
    if action == "add":
        return scene_board.add_trait(
            campaign.pk,
            user,
            post.get("text", ""),
            kind=post.get("kind") or "trait",
            hidden=bool(post.get("hidden")),
            lasting=bool(post.get("lasting")),
        )
    if action == "edit":
        return scene_board.edit_trait(campaign.pk, user, trait, post.get("text", ""))
    if action == "remove":
        return scene_board.remove_trait(campaign.pk, user, trait)
    if action == "hide":
        return scene_board.hide_trait(campaign.pk, user, trait)
    if action == "reveal":
        return scene_board.reveal_trait(campaign.pk, user, trait)
    if action in ("keep", "let_go"):
        return scene_board.set_lasting(campaign.pk, user, trait, action == "keep")
    if action in ("refuse", "allow"):
        return scene_board.refuse_for_rolls(campaign.pk, user, trait, action == "refuse")
    if action in scene_board.VERDICTS:  # the GM's buttons in the 2d20 composer
        what = f"{post.get('attribute', '')} + {post.get('skill', '')}".strip(" +")
        return scene_board.settle_test(
            campaign.pk, user, post.get("settle_trait"), post.get("character"), action, what
        )
    return None


ACTIONS = (
    "add", "edit", "remove", "hide", "reveal", "keep", "let_go", "refuse", "allow",
    *scene_board.VERDICTS,
)  # fmt: skip


@login_required
@require_POST
def board_command(request, pk: int):
    """Add, change, remove, hide, reveal or keep a board entry (services/scene_board.py)."""
    campaign, membership = campaign_for(request, pk, role="player")
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        return HttpResponseBadRequest(_("Choose what to do with the trait."))
    event, error = run_command(request, _run, campaign)
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    context = {
        **base_context(campaign, audience_for(membership)),
        **board_context(campaign, membership.is_gm),
        "board_error": error,
    }
    return respond(request, membership, BOARD, context, [event])


@login_required
@require_GET
def scene_reference(request, pk: int):
    """Quick reference: what the campaign's pools can buy, with costs (Momenta's own
    Momentum only: it has no Threat)."""
    campaign, membership = campaign_for(request, pk)
    context = {"campaign": campaign, "reference": spend_reference(campaign)}
    return render(request, "tables/scene_reference.html", context)

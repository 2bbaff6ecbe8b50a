"""The GM panel on the table page: Threat, pools, session and scene, contests,
secret rolls and custom spends. GM only: everyone else gets a 403.

Session start, scene end and pool changes call the services the campaign page
uses (sessions.start_session, sessions.end_scene, sessions.adjust_pool). What the
panel shows is built in tables/presenters/gm.py.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tables.forms.d20 import ContestForm, CustomSpendForm, ThreatForm, ThreatVisibleForm
from tables.forms.site import PoolAdjustForm
from tables.models import D20Test
from tables.policy.play import pools_for
from tables.presenters.gm import gm_panel_context
from tables.services import corrections, sessions
from tables.services import d20 as services_d20
from tables.services import gm as services_gm
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, commands, respond
from tables.words.said import worded

PANEL = "tables/partials/gm_panel.html"


def _done(request, campaign, membership, *, events=(), error="", notice="", **forms):
    """Answer a GM panel command: the refreshed panel (htmx) or the table page."""
    if not request.htmx:
        return back_to_table(request, campaign, error=error, notice=notice)
    context = gm_panel_context(campaign, membership, error=error, notice=notice, **forms)
    return respond(request, membership, PANEL, {"gmp": context}, [e for e in events if e])


def _gm(request, pk: int):
    return campaign_for(request, pk, role="gm")


# answers.command, answered with the panel; the notice defaults to the event's summary.
_commands = commands(_done, notice=lambda event: worded(event.payload))


@login_required
@require_GET
def gm_panel(request, pk: int):
    campaign, membership = _gm(request, pk)
    context = gm_panel_context(campaign, membership)
    return respond(request, membership, PANEL, {"gmp": context})


@login_required
@require_POST
def gm_threat(request, pk: int):
    """MO-13: add to or spend Threat, with a reason."""
    campaign, membership = _gm(request, pk)
    form = ThreatForm(request.POST)

    def call():
        data = form.cleaned_data
        service = services_gm.add_threat if data["action"] == "add" else services_gm.spend_threat
        return service(
            campaign.pk, request.user, data["amount"], data["reason"], expected=data["expected"]
        )

    return _commands(request, campaign, membership)(call, form=form, form_name="threat_form")


@login_required
@require_POST
def gm_threat_visible(request, pk: int):
    """MO-13: show Threat to players, or hide it."""
    campaign, membership = _gm(request, pk)
    form = ThreatVisibleForm(request.POST)
    visible = form.is_valid() and form.cleaned_data["visible"]
    event = services_gm.set_threat_visible(campaign.pk, request.user, visible)
    notice = (
        gettext("Players now see Threat.") if visible else gettext("Threat is hidden from players.")
    )
    return _done(request, campaign, membership, events=[event], notice=notice)


@login_required
@require_POST
def gm_pool(request, pk: int):
    """Change any pool by hand, with a reason (sessions.adjust_pool)."""
    campaign, membership = _gm(request, pk)
    pools = pools_for(campaign)
    form = PoolAdjustForm(request.POST, campaign=campaign, pools=pools, auto_id="adjust-%s")
    run = _commands(request, campaign, membership)

    def call():
        return sessions.adjust_pool(campaign.pk, request.user, **form.service_kwargs())

    return run(call, form=form, form_name="adjust_form", notice=gettext("Pool changed."))


@login_required
@require_POST
def gm_session_start(request, pk: int):
    """A new session (sessions.start_session)."""
    campaign, membership = _gm(request, pk)
    session = sessions.start_session(campaign.pk, request.user)
    event = campaign.events.order_by("-seq").first()
    return _done(
        request,
        campaign,
        membership,
        events=[event],
        notice=(gettext("%(session)s started.") % {"session": session}),
    )


@login_required
@require_POST
def gm_scene_end(request, pk: int):
    """End the scene: the group pool loses 1 (MO-07), the board's traits and temporary assets
    go but those kept (MO-09b, MO-10) (sessions.end_scene)."""
    campaign, membership = _gm(request, pk)
    # The board's "keep" boxes belong to this form (scene_board.html): one step (MO-09b).
    keep = {
        key: [int(v) for v in request.POST.getlist(key) if v.isascii() and v.isdigit()]
        for key in ("keep_trait", "keep_asset")
    }
    event = sessions.end_scene(
        campaign.pk, request.user, keep_traits=keep["keep_trait"], keep_assets=keep["keep_asset"]
    )
    notice = gettext("Scene %(number)s ended.") % {"number": event.payload["number"]}
    return _done(request, campaign, membership, events=[event], notice=notice)


@login_required
@require_POST
def gm_contest(request, pk: int):
    """CT-01, CT-02: roll the opposer first; the Difficulty goes to the active character."""
    campaign, membership = _gm(request, pk)
    form = ContestForm(request.POST, campaign=campaign)

    def call():
        data = form.cleaned_data
        contest = services_d20.contest_opposer_roll(
            campaign.pk,
            request.user,
            data["opposer"],
            data["active"],
            attribute=data["attribute"],
            skill=data["skill"],
            focus=data.get("focus") or "",
            bought_dice=data["bought_dice"],
            hindrances=data["hindrances"],
        )
        return contest.tests.get(role=D20Test.Role.OPPOSER).event

    return _commands(request, campaign, membership)(call, form=form, form_name="contest_form")


@login_required
@require_POST
def gm_contest_cancel(request, pk: int, cid: int):
    campaign, membership = _gm(request, pk)
    run = _commands(request, campaign, membership)
    return run(partial(services_d20.cancel_contest, campaign.pk, request.user, cid))


@login_required
@require_POST
def gm_reveal(request, pk: int, tid: int):
    """TB-03: show a secret roll to everyone."""
    campaign, membership = _gm(request, pk)
    run = _commands(request, campaign, membership)
    call = partial(services_gm.reveal_test, campaign.pk, request.user, tid)
    return run(call, notice=gettext("Roll revealed."))


@login_required
@require_POST
def gm_spend_save(request, pk: int):
    """MO-14: add a custom Momentum spend."""
    campaign, membership = _gm(request, pk)
    form = CustomSpendForm(request.POST)

    def call():
        services_gm.save_custom_spend(campaign.pk, request.user, **form.cleaned_data)
        return campaign.events.order_by("-seq").first()

    def notice(event):
        return gettext("%(payload)s added.") % {"payload": event.payload["name"]}

    run = _commands(request, campaign, membership)
    return run(call, form=form, form_name="spend_form", notice=notice)


@login_required
@require_POST
def gm_spend_delete(request, pk: int, sid: int):
    campaign, membership = _gm(request, pk)
    run = _commands(request, campaign, membership)
    return run(partial(services_gm.delete_custom_spend, campaign.pk, request.user, sid))


@login_required
@require_POST
def gm_void(request, pk: int, seq: int):
    """Issue 15: void a mistaken roll or spend (the log card's "Void…" form), with a reason."""
    campaign, membership = _gm(request, pk)
    run = _commands(request, campaign, membership)
    reason = request.POST.get("reason", "")
    return run(partial(corrections.void_event, campaign.pk, request.user, seq, reason))

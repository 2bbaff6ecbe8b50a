"""Harm tracks' and extended tasks' commands (SC-02, SC-03): one POST endpoint each, the
action named by the button. Bad numbers are a 400 and change nothing; a refusal is
answered with its message (nothing changed), then the event's live fragments.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.presenters.scene_board import board_context
from tables.presenters.table import audience_for, base_context
from tables.services import extended_tasks, harm, harm_marks
from tables.services.core import ServiceError
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, event_fragments, respond, run_command
from tables.words.said import worded

BOARD = "tables/partials/scene_board.html"


class BadInput(ValueError):
    pass


def _int(post, name: str, default=None):
    raw = post.get(name, "")
    if raw in ("", None):
        if default is not None:
            return default
        raise BadInput(name)
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise BadInput(name) from None


def _optional_int(post, name: str):
    return _int(post, name) if post.get(name, "") != "" else None


def _take_injury(post) -> bool:
    """SC-06, STA 2e: the hit form's choice, avoid the Injury with Stress (the default,
    ruling SC-R18) or take the Injury; anything else is bad input."""
    choice = post.get("harm_choice", "") or "stress"
    if choice not in ("stress", "injury"):
        raise BadInput("harm_choice")
    return choice == "injury"


def _record_at(campaign, post, name: str = "roll_seq"):
    """("roll"|"test", id) of the play record the log's entry `name` is about."""
    from tables import events
    from tables.models import TableEvent

    seq = _int(post, name)
    event = TableEvent.objects.filter(campaign=campaign, seq=seq).first()
    kind = events.get(event.kind) if event is not None else None
    found = kind.record_of(event.payload) if kind is not None else None
    if found is None:
        raise ServiceError(_("Entry #%(seq)d of the log is not a roll.") % {"seq": seq})
    return found


def _hit(campaign, user, post):
    """The form's one "apply" for both systems: the roll named by its log number, the
    target by the character list (2d20: the amount is the Challenge dice total)."""
    record, pk = _record_at(campaign, post)
    if record == "roll":
        return harm.apply_momenta_hit(
            campaign.pk,
            user,
            pk,
            _int(post, "character"),
            amount=_optional_int(post, "amount"),
            reason=post.get("reason", ""),
        )
    return harm.apply_d20_hit(
        campaign.pk,
        user,
        pk,
        _int(post, "character"),
        track=post.get("track", ""),
        total=_int(post, "amount"),
        bonus=_int(post, "bonus", 0),
        soak=_int(post, "soak", 0),
        reason=post.get("reason", ""),
        take_injury=_take_injury(post),
    )


def _set_track(campaign, user, post):
    return harm.set_track(
        campaign.pk,
        user,
        _int(post, "character"),
        post.get("track", ""),
        _int(post, "maximum") if post.get("maximum") else _int(post, "amount"),
        hidden=bool(post.get("hidden")),
    )


def _momenta_hit(campaign, user, post):
    """A Momenta attack card's own form: the roll and target by id."""
    return harm.apply_momenta_hit(
        campaign.pk,
        user,
        _int(post, "roll"),
        _optional_int(post, "target"),
        amount=_optional_int(post, "amount"),
        reason=post.get("reason", ""),
    )


def _d20_hit(campaign, user, post):
    """A 2d20 attack card's own form: the test and target by id."""
    return harm.apply_d20_hit(
        campaign.pk,
        user,
        _int(post, "test"),
        _optional_int(post, "target"),
        track=post.get("track", ""),
        total=_int(post, "total"),
        bonus=_optional_int(post, "bonus"),  # empty: the test's Bonus Damage spends
        soak=_int(post, "soak", 0),
        reason=post.get("reason", ""),
        take_injury=_take_injury(post),
    )


def _mark(campaign, user, post):
    """SC-06: a harm by hand (a Dune defeat through an extended task)."""
    return harm_marks.mark_harm(
        campaign.pk,
        user,
        _int(post, "character"),
        post.get("track", ""),
        _int(post, "amount"),
        post.get("reason", ""),
    )


def _recover(campaign, user, post):
    return harm.recover(
        campaign.pk,
        user,
        _int(post, "character"),
        post.get("track", ""),
        _int(post, "amount"),
        post.get("reason", ""),
    )


HARM_ACTIONS = {
    "hit": _hit,
    "set_track": _set_track,
    "momenta_hit": _momenta_hit,
    "d20_hit": _d20_hit,
    "mark": _mark,
    "recover": _recover,
}


def _harm(action: str, campaign, user, post):
    command = HARM_ACTIONS.get(action)
    if command is None:
        raise BadInput("action")
    return command(campaign, user, post)


def _task(action: str, campaign, user, post):
    if action == "create":
        points = [p for p in post.get("breakthrough_at", "").replace(",", " ").split() if p]
        try:
            points = [int(p) for p in points]
        except ValueError:
            raise BadInput("breakthrough_at") from None
        return extended_tasks.create_task(
            campaign.pk,
            user,
            post.get("name", ""),
            work=_int(post, "work"),
            magnitude=_int(post, "magnitude", 0),
            resistance=_int(post, "resistance", 0),
            difficulty=_int(post, "difficulty", 0),
            breakthrough_at=points,
        )
    if action == "link_last":  # "Count my last test": the server finds the test
        return extended_tasks.link_last(
            campaign.pk, user, _int(post, "task"), asset=post.get("asset", "")
        )
    if action == "link" and post.get("pick_challenge"):  # a test card's own button
        return extended_tasks.link_test(
            campaign.pk, user, _int(post, "task"), _int(post, "test"), asset=post.get("asset", "")
        )
    if action == "link":
        if post.get("test_seq"):  # the board's form names the test by its log number
            record, test = _record_at(campaign, post, "test_seq")
            if record != "test":
                raise ServiceError(_("Link a 2d20 test to the task."))
        else:
            test = _int(post, "test")
        return extended_tasks.link_roll(
            campaign.pk,
            user,
            _int(post, "task"),
            test,
            challenge_seq=_optional_int(post, "challenge_seq"),
            asset=post.get("asset", ""),  # Dune: the asset used, by name
        )
    raise BadInput("action")


@login_required
@require_POST
def harm_command(request, pk: int):
    """The GM sets a track, applies an attack's damage or records recovery (services/harm.py)."""
    campaign, membership = campaign_for(request, pk, role="gm")
    try:
        event, error = run_command(request, _harm, campaign)
    except BadInput:
        return HttpResponseBadRequest(_("Fill in whole numbers for the track and the damage."))
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    message = error or (worded(event.payload) if event else "")
    role = "alert" if error else "status"
    if request.POST.get("inline"):  # a card's own form (attack_hit.html): no second id
        html = format_html('<span role="{}">{}</span>', role, message)
    else:
        html = format_html('<p id="harm-answer" role="{}">{}</p>', role, message)
    return HttpResponse(html + event_fragments(membership, [event]))


@login_required
@require_POST
def task_command(request, pk: int):
    """The GM opens an extended task; a roller links a test to it (services/extended_tasks)."""
    campaign, membership = campaign_for(request, pk, role="player")
    try:
        event, error = run_command(request, _task, campaign)
    except BadInput:
        return HttpResponseBadRequest(_("Fill in whole numbers for the task."))
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    context = {
        **base_context(campaign, audience_for(membership)),
        **board_context(campaign, membership.is_gm),
        "board_error": error,
    }
    return respond(request, membership, BOARD, context, [event])

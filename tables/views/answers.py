"""How a view answers a command, shared by the table's views (views_table, views_momenta,
views_d20, views_gm) and the site's (views).

With htmx the answer is a fragment (the part the request targets), followed by the
live fragments of the events the command appended, so the actor's page updates
even without a socket; a refusal is shown inside that fragment with status 200
(htmx 2 does not swap 4xx answers). Without htmx the person goes back to a page
with a message.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

from tables.live import frames
from tables.models import Membership
from tables.presenters.table import audience_for
from tables.services.core import ServiceError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


_NO_NUL = ProhibitNullCharactersValidator()


def unstorable(posted) -> str:
    """Why a request's text cannot be kept (a NUL in a name or value), or "".

    PostgreSQL refuses a NUL in text and in JSON (a 500); SQLite would keep it, so it
    is refused on both. A form refuses it in each field (forms.CharField carries this
    validator); the command runners below refuse it in anything posted, for the
    commands that read request.POST past a form (the scene board's, harm's, the void's)."""
    for name, values in posted.lists() if hasattr(posted, "lists") else ():
        for text in (name, *values):
            try:
                _NO_NUL(text)
            except ValidationError as refusal:
                return refusal.messages[0]
    return ""


def form_errors(form) -> str:
    """Every error of a form in one line, for a message at the top of a fragment."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def event_fragments(membership: Membership, events=()) -> str:
    """The live fragments of `events` for this viewer's audience; events it may
    not see (TB-03) are left out, as the socket leaves them out. Drawn through the
    render seam (live/frames.py): this process's hub then draws only the other audience."""
    audience = audience_for(membership)
    drawn = (
        frames.seen(event, audience, viewer=membership.user_id)
        for event in events
        if event is not None
    )
    return "".join(html for html in drawn if html is not None)


def respond(
    request,
    membership: Membership,
    template: str,
    context: dict,
    events=(),
) -> HttpResponse:
    """The fragment, then each event's live fragments for this viewer's audience."""
    html = render_to_string(template, context, request=request)
    return HttpResponse(html + event_fragments(membership, events))


def back_with_message(request, to: str, *args, notice: str = "", error: str = "") -> HttpResponse:
    """Without htmx: the message (an error wins over a notice) goes to the page `to`."""
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect(to, *args)


def back_to_table(request, campaign, *, notice: str = "", error: str = "") -> HttpResponse:
    return back_with_message(request, "table", campaign.pk, notice=notice, error=error)


def command(
    answer, call, *, form=None, form_name: str = "", notice="", posted=None
) -> HttpResponse:
    """Validate `form` (if any), run `call()` -> the event, and `answer` with it.

    `answer(events=…, error=…, notice=…, **forms)` draws the view's fragment (or
    goes back to a page). A refusal (text that cannot be kept in `posted`, the
    request's POST; an invalid form; a ServiceError) is answered with its message
    and, under `form_name`, the form as sent; nothing changed. `notice` may be a
    function of the event.
    """
    keep = {form_name: form} if form_name else {}
    if refused := unstorable(posted):
        return answer(error=refused, **keep)
    if form is not None and not form.is_valid():
        return answer(error=form_errors(form), **keep)
    try:
        event = call()
    except ServiceError as error:
        return answer(error=str(error), **keep)
    return answer(events=[event], notice=notice(event) if callable(notice) else notice)


def commands(answer, **defaults):
    """A view module's command runner: `commands(answer)(request, campaign, membership)`
    is `command` answered by `answer(request, campaign, membership, …)`, the module's
    fragment. `defaults` (e.g. a notice) hold unless a command names its own.
    """

    def at(request, campaign, membership):
        answered = partial(answer, request, campaign, membership)
        return partial(command, answered, posted=request.POST, **defaults)

    return at


def run_command(request, run, campaign):
    """(event, error) of a command view's `run(action, campaign, user, post)`: a refusal
    becomes the page's message; PermissionDenied goes up (403) unless htmx asked."""
    if refused := unstorable(request.POST):
        return None, refused
    try:
        return run(request.POST.get("action", ""), campaign, request.user, request.POST), ""
    except ServiceError as refusal:
        return None, str(refusal)
    except PermissionDenied as refusal:
        if not request.htmx:
            raise
        return None, str(refusal)

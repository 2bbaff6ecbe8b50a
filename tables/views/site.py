"""Site pages: accounts, campaigns, members, characters, pools.

Each view fetches through tables/views/access.py (the fetch is the permission
check) and changes state only through tables/services/. Views turn validated
forms into the plain values a service takes (a character sheet: `_sheet`).
The live table page lives in views/table.py.
"""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tables.forms.login import ThrottledAuthenticationForm
from tables.forms.site import (
    CampaignForm,
    CampaignSettingsForm,
    CharacterForm,
    InviteForm,
    JoinForm,
    PoolAdjustForm,
    SceneForm,
    SignupForm,
    sheet_formsets,
)
from tables.models import Campaign, Character, Membership, PoolChange, Trait
from tables.policy.access import can_control, has_role, membership_of
from tables.policy.play import current_scene, pools_for
from tables.services import campaigns, characters, sessions
from tables.services.core import ServiceError
from tables.views.access import campaign_for, character_for
from tables.views.answers import HtmxHttpRequest, back_with_message, form_errors
from tables.words.wording import pool_name

# --- Accounts -----------------------------------------------------------------


def signup(request: HtmxHttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    if not may_sign_up(next_url):
        return render(request, "registration/signup_closed.html", status=403)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, (gettext("Welcome, %(get_username)s.") % {"get_username": user.get_username()})
        )
        # A URL, never a view name: redirect("foo") would try to reverse "foo".
        return HttpResponseRedirect(next_url) if next_url else redirect("home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def may_sign_up(next_url: str) -> bool:
    """Sign-up is open (REGISTRATION_OPEN), or on its way to a campaign's working
    invite link: closing sign-up leaves a site invite-only, not shut."""
    if settings.REGISTRATION_OPEN:
        return True
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return False
    token = match.kwargs.get("token", "") if match.url_name == "join" else ""
    if not (token and token.isascii() and token.isprintable()):
        return False
    campaign = Campaign.objects.filter(invite_token=token).first()
    return campaign is not None and campaigns.invite_refusal(campaign) is None


class LoginView(auth_views.LoginView):
    """Django's login, throttled (tables/forms/login.py): a locked-out attempt is 429.
    Wrong passwords are counted, and a success clears them, by django-axes from
    Django's auth signals (tables/lockout.py), as on the admin's login."""

    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The "Sign up" link, only where it leads somewhere (REGISTRATION_OPEN).
        context["may_sign_up"] = may_sign_up(context.get("next") or "")
        return context

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.locked_out():
            response.status_code = 429
        return response


# --- Campaigns ----------------------------------------------------------------


@login_required
def home(request: HtmxHttpRequest) -> HttpResponse:
    memberships = request.user.memberships.select_related("campaign", "campaign__owner").order_by(
        "campaign__name"
    )
    return render(request, "tables/home.html", {"memberships": memberships, "form": CampaignForm()})


@login_required
def campaign_new(request: HtmxHttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = campaigns.create_campaign(
            request.user, form.cleaned_data["name"], form.cleaned_data["preset"]
        )
        messages.success(
            request,
            (
                gettext("%(campaign)s is ready. Share the invite link below.")
                % {"campaign": campaign.name}
            ),
        )
        return redirect("campaign_detail", campaign.pk)
    return render(request, "tables/campaign_new.html", {"form": form})


@login_required
def campaign_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk)
    return render(
        request, "tables/campaign_detail.html", _detail_context(request, campaign, membership)
    )


def _detail_context(request, campaign: Campaign, membership: Membership, **extra) -> dict:
    """Everything the campaign page and its partials show, for this viewer."""
    characters = campaign.characters.select_related("owner").prefetch_related(
        "attributes",
        "skills",
        "assets",
        Prefetch("traits", queryset=Trait.objects.order_by("kind", "text")),
    )
    is_gm = membership.is_gm
    pools = pools_for(campaign)
    labels = dict(PoolChange.Pool.choices)
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_gm": is_gm,
        "can_play": has_role(membership, "player"),
        "members": campaign.memberships.select_related("user").order_by("role", "user__username"),
        "characters": [{"obj": c, "can_edit": can_control(membership, c)} for c in characters],
        "campaign_pools": [
            {"pool": p, "label": pool_name(campaign, p, labels[p]), "value": getattr(campaign, p)}
            for p in pools["campaign"]
            if p != "threat" or is_gm or campaign.threat_visible
        ],
        "character_pools": [(p, pool_name(campaign, p, labels[p])) for p in pools["character"]],
        "play_session": campaign.play_sessions.filter(ended_at__isnull=True).first(),
        "scene": current_scene(campaign),
        "invite_url": request.build_absolute_uri(reverse("join", args=[campaign.invite_token]))
        if is_gm
        else None,
        "log": _recent_changes(campaign, is_gm)[:10],
    }
    if is_gm and "adjust_form" not in extra:
        context["adjust_form"] = PoolAdjustForm(campaign=campaign, pools=pools)
    if is_gm:
        # Why the current link no longer lets anyone in (expired, used up), if so.
        context["invite_refusal"] = campaigns.invite_refusal(campaign)
        if "invite_form" not in extra:
            context["invite_form"] = InviteForm()
    context.update(extra)
    return context


def _recent_changes(campaign: Campaign, is_gm: bool):
    """The campaign page's latest pool lines; players see what the table's log shows them."""
    lines = campaign.pool_changes.select_related("character", "event")
    if is_gm:
        return lines
    lines = lines.filter(event__audience="all")
    if not campaign.threat_visible:
        # MO-13: a Threat line shows its total; the table's log hides that total too.
        lines = lines.exclude(pool="threat")
    return lines


@login_required
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request, pk, role="gm")
    form = CampaignSettingsForm(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        values = {name: form.cleaned_data[name] for name in form.changed_data}
        event = campaigns.update_campaign_settings(campaign.pk, request.user, values)
        messages.success(
            request, gettext("Settings saved.") if event else gettext("Nothing changed.")
        )
        return redirect("campaign_detail", campaign.pk)
    from tables.views.discord import discord_settings  # its own form, posted to its own URL

    context = {"campaign": campaign, "form": form, **discord_settings(campaign)}
    return render(request, "tables/campaign_settings.html", context)


# --- Membership ---------------------------------------------------------------


@login_required
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    # Tokens are URL-safe ASCII; PostgreSQL cannot even compare a NUL, so stop here.
    if not (token.isascii() and token.isprintable()):
        return _invite_invalid(request)
    campaign = Campaign.objects.filter(invite_token=token).first()
    if campaign is None:
        return _invite_invalid(request)
    existing = membership_of(request.user, campaign)
    if existing is not None:
        messages.info(
            request, f"You are already in {campaign.name} as {existing.get_role_display()}."
        )
        return redirect("campaign_detail", campaign.pk)
    refusal = campaigns.invite_refusal(campaign)
    if refusal is not None:
        return _invite_invalid(request, refusal)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaigns.join_campaign(token, request.user, form.cleaned_data["role"])
        except campaigns.InviteSpent as error:
            # Expired or used up while the form was open: the service's reason.
            return _invite_invalid(request, str(error))
        except campaigns.InviteInvalid:
            return _invite_invalid(request)
        except ServiceError as error:
            messages.info(request, str(error))
        return redirect("campaign_detail", campaign.pk)
    return render(request, "tables/join.html", {"campaign": campaign, "form": form})


def _invite_invalid(request, reason: str = "") -> HttpResponse:
    """404 for a link that never was (or was replaced); 410 for one that has run out."""
    status = 410 if reason else 404
    return render(request, "tables/join_invalid.html", {"reason": reason}, status=status)


@login_required
@require_POST
def invite_regenerate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            campaigns.regenerate_invite(
                campaign.pk,
                request.user,
                expires_at=form.expires_at(timezone.now()),
                uses_left=form.cleaned_data["uses"],
            )
        except ServiceError as error:
            form.add_error(None, str(error))
    if not form.is_valid():
        # Shown on the full page next to its fields; the link is unchanged.
        context = _detail_context(request, campaign, membership, invite_form=form)
        return render(request, "tables/campaign_detail.html", context, status=400)
    messages.success(request, gettext("New invite link made; the old one no longer works."))
    return redirect("campaign_detail", campaign.pk)


@login_required
@require_POST
def member_remove(request: HtmxHttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request, pk, role="gm")
    clear = request.POST.get("clear_webhooks") == "on"  # offered for one who set a webhook
    remove = functools.partial(campaigns.remove_member, clear_webhooks=clear)
    return _member_action(request, campaign, remove, member_pk, "removed")


@login_required
@require_POST
def member_promote(request: HtmxHttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request, pk, role="gm")
    return _member_action(
        request, campaign, campaigns.promote_member, member_pk, gettext("made co-GM")
    )


def _member_action(request, campaign, service, member_pk: int, done: str) -> HttpResponse:
    target = get_object_or_404(Membership, pk=member_pk, campaign=campaign)
    try:
        service(campaign.pk, request.user, target.pk)
    except ServiceError as error:
        return back_with_message(request, "campaign_detail", campaign.pk, error=str(error))
    notice = f"{target.user.get_username()} {done}."
    return back_with_message(request, "campaign_detail", campaign.pk, notice=notice)


# --- Sessions, scenes, pools (GM) ---------------------------------------------


@login_required
@require_POST
def session_start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    session = sessions.start_session(campaign.pk, request.user)
    return _play_done(
        request,
        campaign.pk,
        membership,
        notice=(gettext("%(session)s started.") % {"session": session}),
    )


@login_required
@require_POST
def scene_start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    form = SceneForm(request.POST)
    if not form.is_valid():
        return _play_done(request, campaign.pk, membership, error=form_errors(form))
    try:
        scene = sessions.start_scene(campaign.pk, request.user, form.cleaned_data["title"])
    except ServiceError as error:
        return _play_done(request, campaign.pk, membership, error=str(error))
    return _play_done(
        request, campaign.pk, membership, notice=(gettext("%(scene)s started.") % {"scene": scene})
    )


@login_required
@require_POST
def scene_end(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    event = sessions.end_scene(campaign.pk, request.user)
    notice = gettext("Scene %(number)s ended.") % {"number": event.payload["number"]}
    return _play_done(request, campaign.pk, membership, notice=notice)


@login_required
@require_POST
def pool_adjust(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="gm")
    form = PoolAdjustForm(request.POST, campaign=campaign, pools=pools_for(campaign))
    if not form.is_valid():
        return _play_done(request, campaign.pk, membership, adjust_form=form, status=400)
    try:
        sessions.adjust_pool(campaign.pk, request.user, **form.service_kwargs())
    except ServiceError as error:
        form.add_error(None, str(error))
        return _play_done(request, campaign.pk, membership, adjust_form=form, status=409)
    return _play_done(request, campaign.pk, membership, notice=gettext("Pool changed."))


def _play_done(request, campaign_pk, membership, *, notice="", error="", status=200, **extra):
    """htmx: the refreshed play panel (pools, session, scene). Otherwise back to the page."""
    if request.htmx:
        campaign = Campaign.objects.get(pk=campaign_pk)
        context = _detail_context(
            request, campaign, membership, notice=notice, error=error, **extra
        )
        # 200 even for a refusal: htmx 2 does not swap 4xx answers, and the
        # refusal is shown inside the panel it replaces.
        return render(request, "tables/campaign_detail.html#play", context)
    if "adjust_form" in extra:
        # Without htmx a failed form is shown on the full page, next to its fields.
        campaign = Campaign.objects.get(pk=campaign_pk)
        context = _detail_context(request, campaign, membership, error=error, **extra)
        return render(request, "tables/campaign_detail.html", context, status=status)
    return back_with_message(request, "campaign_detail", campaign_pk, notice=notice, error=error)


# --- Characters ---------------------------------------------------------------


@login_required
def character_new(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for(request, pk, role="player")
    # Players make their own characters; a GM's new character is an NPC.
    character = Character(campaign=campaign, owner=request.user, is_npc=membership.is_gm)
    return _character_form(request, campaign, character, gm=membership.is_gm)


@login_required
def character_edit(request: HtmxHttpRequest, pk: int, cpk: int) -> HttpResponse:
    campaign, membership, character = character_for(request, pk, cpk)
    return _character_form(request, campaign, character, gm=membership.is_gm)


def _character_form(request, campaign: Campaign, character: Character, *, gm: bool) -> HttpResponse:
    """`gm`: a GM edits (pools included); a player's pools are read-only (PM-13)."""
    title = (
        (gettext("Edit %(character)s") % {"character": character.name})
        if character.pk
        else gettext("New character")
    )
    data = request.POST if request.method == "POST" else None
    form = CharacterForm(data, instance=character, campaign=campaign, gm=gm)
    formsets = sheet_formsets(campaign, character, data)
    if data is not None and form.is_valid() and all(fs.is_valid() for fs in formsets):
        try:
            saved = characters.save_character(
                campaign.pk, request.user, _sheet(form, formsets), character.pk
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, (gettext("%(saved)s saved.") % {"saved": saved.name}))
            return redirect("campaign_detail", campaign.pk)
    context = {"campaign": campaign, "title": title, "form": form, "formsets": formsets}
    status = 400 if data is not None else 200
    return render(request, "tables/character_form.html", context, status=status)


def _sheet(form: CharacterForm, formsets) -> characters.Sheet:
    """The validated sheet forms as the plain values save_character takes."""
    touched = {
        pool: _seen_value(form, pool)
        for pool in characters.SHEET_POOLS
        if pool in form.changed_data
    }
    return characters.Sheet(
        fields={name: form.cleaned_data[name] for name in form.fields},
        touched=touched,
        rows=tuple(_sheet_rows(formset) for formset in formsets),
    )


def _seen_value(form: CharacterForm, field: str) -> int | None:
    """The value the person's page showed (Django's hidden initial input), if sent."""
    raw = form.data.get(form.add_initial_prefix(field))
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def _sheet_rows(formset) -> characters.SheetRows:
    """What formset.save() would do, as values: changed rows saved, ticked ones deleted."""
    save, delete = [], []
    for row in formset.forms:
        row_id = row.instance.pk
        if formset.can_delete and row.cleaned_data.get("DELETE"):
            if row_id is not None:
                delete.append(row_id)
        elif row.has_changed():
            save.append((row_id, {name: row.cleaned_data[name] for name in row._meta.fields}))
    return characters.SheetRows(
        kind=formset.fk.remote_field.related_name, save=tuple(save), delete=tuple(delete)
    )

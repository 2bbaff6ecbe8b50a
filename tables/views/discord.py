"""The GM's Discord webhooks: a form of its own on the campaign settings page.

The page says whether each webhook is set, by whom, and whether it is parked; it
never shows a URL (whoever holds one posts to the channel, and co-GMs see this page).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.discord import webhooks
from tables.forms.discord import DiscordForm
from tables.forms.site import CampaignSettingsForm
from tables.models import Campaign
from tables.services import discord
from tables.views.access import campaign_for


def discord_settings(campaign: Campaign, form: DiscordForm | None = None) -> dict:
    """The settings page's Discord part: the form, each webhook's state, the last error."""
    if form is None:
        form = DiscordForm(campaign=campaign)
    hooks = []
    for hook in discord.HOOKS.values():
        url = getattr(campaign, hook.url)
        setter = getattr(campaign, hook.set_by)
        hooks.append(
            {
                "label": hook.label(),
                "set": bool(url),
                "name": webhooks.describe(url) if url else "",
                "set_by": setter.get_username() if setter else "",
                "parked_at": getattr(campaign, hook.parked_at),
                "failures": getattr(campaign, hook.failures),
            }
        )
    return {
        "discord_form": form,
        "discord_hooks": hooks,
        "discord_on": bool(campaign.discord_webhook_url or campaign.discord_gm_webhook_url),
        "discord_error": campaign.discord_last_error,
        "discord_error_at": campaign.discord_last_error_at,
    }


@login_required
@require_POST
def campaign_discord(request, pk: int) -> HttpResponse:
    campaign, _membership = campaign_for(request, pk, role="gm")
    form = DiscordForm(request.POST, campaign=campaign)
    if form.is_valid():
        try:
            event = discord.set_webhooks(
                campaign.pk,
                request.user,
                table=form.value("table"),
                gm=form.value("gm"),
                resume=form.resumed(),
            )
        except ValidationError as error:  # the other webhook changed meanwhile
            form.add_error("gm", error)
        else:
            messages.success(
                request, _("Discord webhooks saved.") if event else _("Nothing changed.")
            )
            return redirect("campaign_settings", campaign.pk)
    campaign.refresh_from_db()
    context = {"campaign": campaign, "form": CampaignSettingsForm(instance=campaign)}
    context.update(discord_settings(campaign, form))
    return render(request, "tables/campaign_settings.html", context, status=400)

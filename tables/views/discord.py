"""The GM's Discord webhooks: a form of its own on the campaign settings page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tables.forms.discord import DiscordForm
from tables.forms.site import CampaignSettingsForm
from tables.models import Campaign
from tables.services import discord
from tables.views.access import campaign_for


def discord_settings(campaign: Campaign, form: DiscordForm | None = None) -> dict:
    """The settings page's Discord part: the form and the last delivery error."""
    if form is None:
        form = DiscordForm(
            initial={"table": campaign.discord_webhook_url, "gm": campaign.discord_gm_webhook_url}
        )
    return {
        "discord_form": form,
        "discord_on": bool(campaign.discord_webhook_url or campaign.discord_gm_webhook_url),
        "discord_error": campaign.discord_last_error,
        "discord_error_at": campaign.discord_last_error_at,
    }


@login_required
@require_POST
def campaign_discord(request, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request, pk, role="gm")
    form = DiscordForm(request.POST)
    if form.is_valid():
        event = discord.set_webhooks(
            campaign.pk, request.user, table=form.cleaned_data["table"], gm=form.cleaned_data["gm"]
        )
        messages.success(request, "Discord webhooks saved." if event else "Nothing changed.")
        return redirect("campaign_settings", campaign.pk)
    context = {"campaign": campaign, "form": CampaignSettingsForm(instance=campaign)}
    context.update(discord_settings(campaign, form))
    return render(request, "tables/campaign_settings.html", context, status=400)

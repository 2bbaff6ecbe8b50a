"""The GM's Discord webhooks: two URLs, each checked by tables/discord/webhooks.py.

The stored URLs are secrets and never come back to the page (not even to the GM who
set them; only a form refused with errors shows its poster what they just typed): an
empty field keeps the stored webhook, "remove" clears it, "resume" sends to a parked
one again.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.discord import webhooks


def _url_field(label, help_text):
    return forms.CharField(
        label=label,
        required=False,
        max_length=webhooks.MAX_LENGTH,
        help_text=help_text,
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class DiscordForm(forms.Form):
    table = _url_field(
        _("Webhook for the table's channel"),
        _("Rolls, results and pool changes everyone at the table sees. Empty: unchanged."),
    )
    clear_table = forms.BooleanField(label=_("Remove the table's webhook"), required=False)
    resume_table = forms.BooleanField(label=_("Resume the table's webhook"), required=False)
    gm = _url_field(
        _("Webhook for the GM only"),
        _("Secret rolls and hidden Threat: a channel only the GMs can read. Empty: unchanged."),
    )
    clear_gm = forms.BooleanField(label=_("Remove the GM's webhook"), required=False)
    resume_gm = forms.BooleanField(label=_("Resume the GM's webhook"), required=False)

    def __init__(self, *args, campaign=None, **kwargs):
        """`campaign`: what is stored, so the checks see a kept webhook too; its
        remove/resume boxes show only for a webhook that is set (resume: parked)."""
        super().__init__(*args, **kwargs)
        self.stored = {"table": "", "gm": ""}
        if campaign is not None:
            self.stored = {
                "table": campaign.discord_webhook_url,
                "gm": campaign.discord_gm_webhook_url,
            }
        parked = {
            "table": bool(campaign and campaign.discord_webhook_parked_at),
            "gm": bool(campaign and campaign.discord_gm_webhook_parked_at),
        }
        for name in ("table", "gm"):
            if not self.stored[name]:
                del self.fields[f"clear_{name}"]
            if not parked[name]:
                del self.fields[f"resume_{name}"]

    def clean_table(self):
        return self._webhook("table")

    def clean_gm(self):
        return self._webhook("gm")

    def _webhook(self, name: str) -> str:
        url = self.cleaned_data[name].strip()
        return webhooks.check(url) if url else ""

    def value(self, name: str) -> str | None:
        """What to store: a new URL, "" (remove) or None (keep what is stored)."""
        if self.cleaned_data.get(name):
            return self.cleaned_data[name]
        return "" if self.cleaned_data.get(f"clear_{name}") else None

    def resumed(self) -> tuple[str, ...]:
        names = {"table": "public", "gm": "gm"}
        return tuple(t for n, t in names.items() if self.cleaned_data.get(f"resume_{n}"))

    def clean(self):
        cleaned = super().clean()
        if "table" in cleaned and "gm" in cleaned:
            table, gm = (self.value(n) for n in ("table", "gm"))
            table = self.stored["table"] if table is None else table
            gm = self.stored["gm"] if gm is None else gm
            if webhooks.same_webhook(table, gm):
                # Secret rolls would land in the channel the players read.
                self.add_error("gm", webhooks.SAME_WEBHOOK)
        return cleaned

"""The GM's Discord webhooks: two URLs, each checked by tables/discord/webhooks.py."""

from __future__ import annotations

from django import forms

from tables.discord import webhooks


class DiscordForm(forms.Form):
    table = forms.CharField(
        label="Webhook for the table's channel",
        required=False,
        max_length=webhooks.MAX_LENGTH,
        help_text="Rolls, results and pool changes everyone at the table sees. Empty: none.",
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    gm = forms.CharField(
        label="Webhook for the GM only",
        required=False,
        max_length=webhooks.MAX_LENGTH,
        help_text="Secret rolls and hidden Threat: a channel only the GMs can read. Empty: none.",
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_table(self):
        return self._webhook("table")

    def clean_gm(self):
        return self._webhook("gm")

    def _webhook(self, name: str) -> str:
        url = self.cleaned_data[name].strip()
        return webhooks.check(url) if url else ""

    def clean(self):
        cleaned = super().clean()
        table, gm = cleaned.get("table"), cleaned.get("gm")
        if table and gm and table == gm:
            # Secret rolls would land in the channel the players read.
            self.add_error("gm", "The GM's webhook must not be the table's: players read that one.")
        return cleaned

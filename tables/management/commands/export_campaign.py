"""manage.py export_campaign PK [-o FILE]: a campaign's whole document (tables/exports/)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tables.exports.dump import dumps, export_campaign
from tables.models import Campaign


class Command(BaseCommand):
    help = (
        "Write one campaign as a JSON document (settings, members, characters, the whole "
        "event log and ledgers, every roll, secret ones included) to FILE or standard output."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="The campaign's id (in its page's URL).")
        parser.add_argument("-o", "--output", help="Write here instead of standard output.")

    def handle(self, *args, campaign, output=None, **options):
        found = Campaign.objects.filter(pk=campaign).first()
        if found is None:
            raise CommandError(f"There is no campaign {campaign}.")
        text = dumps(export_campaign(found))
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {found.name} to {output}.")
        else:
            self.stdout.write(text, ending="")

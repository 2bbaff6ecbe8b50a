"""manage.py import_campaign FILE [--create-users]: a new campaign from an export document."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tables.exports.load import ImportRefused, import_campaign


class Command(BaseCommand):
    help = (
        "Create a new campaign from a file made by export_campaign (or the campaign page's "
        "download), in one transaction: refused whole, with the reasons, or made whole. "
        "People are matched by username; missing ones refuse the import unless "
        "--create-users makes them (inactive, with no password)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The export's path, or - for standard input.")
        parser.add_argument(
            "--create-users",
            action="store_true",
            help="Create missing usernames as inactive users with no usable password.",
        )

    def handle(self, *args, file, create_users=False, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            campaign = import_campaign(text, create_users=create_users)
        except ImportRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(f"Imported {campaign.name} as campaign {campaign.pk}.")

"""The README's first command: compile the translations, migrate, seed the demo, serve on
127.0.0.1:8000."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from momenta_site.catalogues import compile_catalogues


def served_at(addrport: str) -> str:
    """The URL runserver serves `addrport` on: '8001' and ':8001' mean 127.0.0.1."""
    host, _, port = addrport.rpartition(":")
    return f"http://{host or '127.0.0.1'}:{port}/"


class Command(BaseCommand):
    help = (
        "Compile the translations, migrate, create the demo data, then run the development "
        "server (daphne)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport", nargs="?", default="127.0.0.1:8000", help="Where to serve the demo."
        )

    def handle(self, *args, addrport, **options):
        try:
            compile_catalogues()  # the translations (locale/): built here, not committed
        except CommandError as error:  # no msgfmt: the demo still runs, in English
            self.stderr.write(f"Translations not compiled ({error}); pages stay in English.")
        call_command("migrate", interactive=False, verbosity=0)
        if settings.STATIC_COLLECTED:
            # Into the demo's own folder (settings.DEMO): hashed, minified, compressed
            # files, which whitenoise serves with a year's cache lifetime (issue 29).
            call_command("collectstatic", interactive=False, verbosity=0)
        call_command("seed_demo", url=served_at(addrport), stdout=self.stdout)
        # No autoreloader: it would re-run this whole command in a child process.
        # Static files from whitenoise (the middleware), not runserver's own handler,
        # which would answer them without cache headers.
        call_command("runserver", addrport, use_reloader=False, use_static_handler=False)

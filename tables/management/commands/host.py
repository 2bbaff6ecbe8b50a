"""A real table on the GM's own machine, for friends elsewhere (docs/hosting.md).

`manage.py host [--data DIR] [--port 8000] [--bind 0.0.0.0] [--host NAME]...` runs in
two steps, because Django reads its settings before any command runs:

1. Under whatever settings the shell had, it checks the input (TLS given whole, the
   GM's password, the port free, the data folder writable) before it creates
   anything, keeps a random SECRET_KEY in DIR/secret-key (mode 0600), and replaces
   itself with `manage.py host` again under an environment that momenta_site/settings.py
   reads as this table: SQLite in DIR/db.sqlite3 (WAL), the in-memory channel layer,
   DEBUG off, static files collected into DIR/static (whitenoise), ALLOWED_HOSTS and
   CSRF_TRUSTED_ORIGINS from the machine's names and addresses plus each --host, and
   secure-only cookies only with --tls-cert/--tls-key (momenta_site/hosting.py).
2. Seeing that environment (MOMENTA_HOST_DATA), it migrates, collects the static
   files, on the first run makes the GM's account, a first campaign and its invite
   link (tables/services/first_table.py), prints the addresses, then replaces itself
   with one uvicorn process (the same command line `manage.py serve` runs).

Later runs on the same folder create nothing: the table is as it was left.
"""

from __future__ import annotations

import getpass
import os
import socket
import sys
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from momenta_site import hosting, release
from momenta_site.catalogues import compile_catalogues
from tables.management.commands.serve import uvicorn_argv
from tables.models import Campaign
from tables.services import first_table

CAMPAIGN_NAME_LENGTH = Campaign._meta.get_field("name").max_length
MANAGE = str(Path(__file__).resolve().parents[3] / "manage.py")


class Command(BaseCommand):
    help = "Host a table on this machine for friends elsewhere (docs/hosting.md)."

    def add_arguments(self, parser):
        parser.add_argument("--data", help=f"The table's folder (default {hosting.DEFAULT_DATA}).")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--bind", default="0.0.0.0", help="Address to listen on.")
        parser.add_argument(
            "--host",
            action="append",
            default=[],
            dest="hosts",
            metavar="NAME",
            help="Another name friends reach this machine by (repeatable).",
        )
        parser.add_argument("--tls-cert", help="Serve HTTPS with this certificate (PEM)...")
        parser.add_argument("--tls-key", help="...and this private key (PEM).")
        parser.add_argument(
            "--gm-username",
            help=f"First run: the GM's username, with the password in ${hosting.PASSWORD_VARIABLE}"
            " (else asked).",
        )
        parser.add_argument("--campaign", default="Our table", help="First run: its name.")

    def handle(self, *args, **options):
        folder = hosting.data_folder(options["data"])
        try:
            if os.environ.get(hosting.DATA_VARIABLE) == str(folder):
                self.run_table(folder, options)
            else:
                self.prepare(folder, options)
        except (hosting.HostError, first_table.FirstRunError) as error:
            raise CommandError(str(error)) from None

    # --- Step 1: under the shell's settings ------------------------------------

    def prepare(self, folder, options) -> None:
        tls = bool(options["tls_cert"] or options["tls_key"])
        hosting.check_tls(options["tls_cert"], options["tls_key"])
        if tls:  # step 2 and uvicorn get them whatever folder they run in
            options["tls_cert"] = str(Path(options["tls_cert"]).resolve())
            options["tls_key"] = str(Path(options["tls_key"]).resolve())
        if not 0 < len(options["campaign"].strip()) <= CAMPAIGN_NAME_LENGTH:
            raise hosting.HostError(
                f"--campaign needs a name of 1 to {CAMPAIGN_NAME_LENGTH} letters"
            )
        extra = {}
        if not hosting.has_accounts(folder):
            extra = self.gm_account(options)
        hosting.check_port(options["bind"], options["port"])
        hosting.prepare_folder(folder)
        key = hosting.kept_key(folder)
        names = hosting.host_names(
            options["hosts"], socket.gethostname(), hosting.machine_addresses(socket.gethostname())
        )
        urls = hosting.base_urls(names, options["port"], tls)
        env = hosting.table_environment(dict(os.environ), folder, key, names, urls, tls)
        env.update(extra)
        argv = [sys.executable, MANAGE, "host", "--data", str(folder)]
        argv += ["--port", str(options["port"]), "--bind", options["bind"]]
        for name in options["hosts"]:
            argv += ["--host", name]
        if tls:
            argv += ["--tls-cert", options["tls_cert"], "--tls-key", options["tls_key"]]
        if extra:
            argv += ["--gm-username", options["gm_username"], "--campaign", options["campaign"]]
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(argv[0], argv, env)

    def gm_account(self, options) -> dict[str, str]:
        """The first run's GM, checked now, handed to step 2 in its environment."""
        if options["gm_username"]:
            password = os.environ.get(hosting.PASSWORD_VARIABLE, "")
            if not password:
                raise hosting.HostError(
                    f"--gm-username needs the password in ${hosting.PASSWORD_VARIABLE}"
                )
        else:
            options["gm_username"], password = self.ask_gm()
        first_table.check_gm(options["gm_username"], password)
        return {hosting.PASSWORD_VARIABLE: password}

    def ask_gm(self) -> tuple[str, str]:
        if not sys.stdin.isatty():
            raise hosting.HostError(
                f"first run: give --gm-username (password in ${hosting.PASSWORD_VARIABLE}) "
                "or run it in a terminal to be asked"
            )
        self.stdout.write("First run: the GM's account (yours).")
        try:
            username = input("GM username: ").strip()
            password = getpass.getpass("Password: ")
            again = getpass.getpass("Password (again): ")
        except (EOFError, KeyboardInterrupt):
            raise hosting.HostError("stopped at the GM's account; nothing was created") from None
        if again != password:
            raise hosting.HostError("the two passwords differ; nothing was created")
        return username, password

    # --- Step 2: under the table's own settings --------------------------------

    def run_table(self, folder, options) -> None:
        password = os.environ.pop(hosting.PASSWORD_VARIABLE, "")
        try:
            compile_catalogues()
        except CommandError as error:  # no msgfmt: the table still runs, in English
            self.stderr.write(f"Translations not compiled ({error}); pages stay in English.")
        # One process, migrating before it serves: no older release runs beside it.
        call_command("migrate", interactive=False, verbosity=0, allow_unsafe=True)
        call_command("collectstatic", interactive=False, verbosity=0)
        names = os.environ["ALLOWED_HOSTS"].split(",")
        tls = bool(options["tls_cert"])
        urls = hosting.base_urls(names, options["port"], tls)
        base = urls[names.index(hosting.preferred(names))]
        made = None
        if first_table.needs_first_run() and options["gm_username"] and password:
            made = first_table.create_first_table(
                options["gm_username"], password, options["campaign"]
            )
        self.tell(folder, urls, base, made)
        if hosting.is_loopback(options["bind"]):
            self.stderr.write(
                f"Listening on {options['bind']} only: other machines cannot reach it."
            )
        argv = uvicorn_argv(
            host=options["bind"],
            port=options["port"],
            workers=1,
            graceful_timeout=10,
            access_log=False,
        )
        if tls:
            argv += ["--ssl-certfile", options["tls_cert"], "--ssl-keyfile", options["tls_key"]]
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)

    def tell(self, folder, urls, base, made) -> None:
        out = self.stdout
        # The release, for a GM's bug report or a friend's question.
        out.write(self.style.SUCCESS(f"Momenta Table {release.label()}, data in {folder}"))
        out.write("Friends open one of these (whichever reaches this machine):")
        for url in urls:
            out.write(f"  {url}/")
        out.write(f"GM login: {base}/login/")
        if made is not None:
            until = made.expires_at.strftime("%Y-%m-%d %H:%M UTC")
            out.write(
                f"Invite link to {made.campaign.name!r} (until {until}, "
                f"{made.uses_left} joins; new ones on the campaign's page):"
            )
            out.write(f"  {base}/join/{made.invite_token}/")
        out.write("Stop with Ctrl-C; start again with the same command.")

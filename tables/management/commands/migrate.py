"""`manage.py migrate`, refusing a migration the running release would not survive.

An upgrade migrates while the previous release still serves (deploy/README.md,
"Upgrading"). A pending migration that momenta_site/migration_safety.py finds
unsafe stops the command with its name and why, before anything changes, unless
`--allow-unsafe` is given (the site stopped, or a single process like `manage.py
host`).
"""

from __future__ import annotations

from django.core.management import CommandError
from django.core.management.commands import migrate
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.models.signals import pre_migrate

from momenta_site.migration_safety import plan_problems

REFUSED = (
    "Refused: these pending migrations would break the running release during a "
    'rolling upgrade (deploy/README.md, "Migrations the old code survives"):\n{}\n'
    "Change the migration (e.g. db_default instead of default), or, with every "
    "instance stopped, run migrate --allow-unsafe."
)


class Command(migrate.Command):
    help = migrate.Command.help + " Refuses rolling-unsafe migrations unless --allow-unsafe."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--allow-unsafe",
            action="store_true",
            help="Apply migrations the previous release would not survive (site stopped).",
        )

    def handle(self, *args, **options):
        if options["allow_unsafe"] or options["plan"]:
            return super().handle(*args, **options)
        # Django sends pre_migrate with the plan it settled on, after resolving the
        # targets and before the first migration runs: the one place to judge it whole.
        self._judged = False
        pre_migrate.connect(self._refuse_unsafe, dispatch_uid=id(self))
        try:
            return super().handle(*args, **options)
        finally:
            pre_migrate.disconnect(dispatch_uid=id(self))

    def _refuse_unsafe(self, sender, plan, using, **kwargs):
        if self._judged:
            return  # sent once per app; the plan is the same each time
        self._judged = True
        found = plan_problems(plan or [], MigrationLoader(connections[using]))
        if found:
            raise CommandError(REFUSED.format("\n".join(f"  {p}" for p in found)))

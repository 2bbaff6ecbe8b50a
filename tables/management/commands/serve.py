"""The production server: N uvicorn worker processes of the ASGI app on one port.

`manage.py serve --port 8001 --workers 2` checks that the site can run, then
replaces itself with uvicorn (so the process manager's signals reach uvicorn
directly, and no copy of Django stays loaded in the supervisor):

- It neither migrates nor collects static files: with several instances
  starting at once (deploy/momenta@.service), each would race the others.
  Deploying is `collectstatic`, `migrate`, then restarting the instances one
  by one (deploy/README.md). It refuses to start while a migration is not
  applied, (DEBUG off) the collected static files are missing or a translation is
  not compiled, naming the command to run, rather than serve pages that fail.
- Graceful stop (SIGTERM): uvicorn stops accepting, closes the live sockets
  with 1012 "service restart" (pages reconnect and replay what they missed,
  from another instance if the proxy has one) and lets requests in flight
  finish for up to --graceful-timeout seconds.
- Drain (--drain-file PATH): while PATH exists, /readyz answers 503
  "draining" (momenta_site/health.py), so the proxy sends no new requests
  before the instance is stopped (deploy/restart).
- With --workers > 1, uvicorn's supervisor replaces a worker that dies, and
  SIGHUP restarts the workers one at a time. Their metrics meet in one folder
  (prometheus_client's multiprocess mode, momenta_site/metrics.py), emptied at start:
  $PROMETHEUS_MULTIPROC_DIR, else momenta-metrics-PORT in the temporary folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from momenta_site import release
from momenta_site.catalogues import uncompiled

ROOT = Path(__file__).resolve().parents[3]
APP = "momenta_site.asgi:application"
LOG_CONFIG = ROOT / "momenta_site" / "uvicorn_logging.json"
# Longer than the proxy keeps an idle upstream connection (deploy/Caddyfile:
# keepalive 30s), so the proxy never reuses one the worker has just closed.
KEEP_ALIVE_SECONDS = 65


def uvicorn_argv(
    *,
    host: str,
    port: int,
    workers: int,
    graceful_timeout: int,
    access_log: bool,
) -> list[str]:
    """The uvicorn command line `serve` runs."""
    argv = [sys.executable, "-m", "uvicorn", APP, "--app-dir", str(ROOT)]
    argv += ["--host", host, "--port", str(port), "--workers", str(workers)]
    argv += ["--timeout-graceful-shutdown", str(graceful_timeout)]
    argv += ["--timeout-keep-alive", str(KEEP_ALIVE_SECONDS)]
    # uvicorn's own lines (start, stop, --access-log) in the site's format and at its
    # LOG_LEVEL: the file hands them to the same formatter (momenta_site/logs.py) and
    # filter, which needs them made at INFO to tell a worker's death at WARNING.
    level = settings.LOG_LEVEL if settings.LOG_LEVEL == "DEBUG" else "INFO"
    argv += ["--log-config", str(LOG_CONFIG), "--log-level", level.lower()]
    # Django's ASGI app has no lifespan events; "off" spares a warning per start.
    argv += ["--lifespan", "off", "--no-server-header"]
    # The proxy's X-Forwarded-* headers are read by the app itself, from the addresses
    # in FORWARDED_ALLOW_IPS only, with its X-Request-ID (momenta_site/request_log.py).
    argv.append("--no-proxy-headers")
    if not access_log:
        argv.append("--no-access-log")  # the proxy logs every request already
    return argv


def metrics_folder(port: int) -> Path:
    """Where the workers' metrics meet, emptied: an instance's counts start at zero, as
    one process's would (a folder left from the last run would hold dead workers')."""
    default = Path(tempfile.gettempdir()) / f"momenta-metrics-{port}"
    folder = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or default)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):  # prometheus_client's files only, whatever the folder
        stale.unlink()
    return folder


def unapplied_migrations() -> list[str]:
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def static_problem() -> str | None:
    """Why the static files could not be served, or None."""
    if settings.DEBUG:
        return None  # served from the source folders (settings.STATIC_COLLECTED)
    if not settings.STATIC_COLLECTED:
        return (
            "STATIC_ROOT is not set: with DEBUG off, set it to a folder and run "
            "`manage.py collectstatic --noinput` (deploy/README.md)"
        )
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if not manifest.exists():
        return f"{manifest} is missing: run `manage.py collectstatic --noinput`"
    return None


def catalogue_problem() -> str | None:
    """Why pages would be English only although a translation exists, or None."""
    stale = uncompiled()
    if not stale:
        return None
    return (
        f"{stale[0]} is not compiled (or changed since): run `django-admin compilemessages` "
        "in the app's folder (deploy/README.md)"
    )


def hand_to_workers(options) -> None:
    """What the uvicorn workers, fresh interpreters, read from the environment."""
    # Their app: settings.FORWARDED_ALLOW_IPS, settings.DRAIN_FILE.
    os.environ["FORWARDED_ALLOW_IPS"] = options["forwarded_allow_ips"]
    if options["drain_file"]:
        os.environ["DRAIN_FILE"] = options["drain_file"]
    if options["workers"] > 1 or "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        # Read by prometheus_client as each worker imports it.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_folder(options["port"]))


class Command(BaseCommand):
    help = "Run the site in production: N uvicorn workers of the ASGI app (see deploy/)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on.")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers",
            type=int,
            default=int(os.environ.get("WEB_CONCURRENCY", 1)),
            help="Worker processes (default: $WEB_CONCURRENCY or 1). More than one needs "
            "REDIS_URL: the in-memory channel layer cannot reach other processes.",
        )
        parser.add_argument(
            "--graceful-timeout",
            type=int,
            default=15,
            help="Seconds requests in flight may take to finish on stop or restart.",
        )
        parser.add_argument(
            "--forwarded-allow-ips",
            default="127.0.0.1,::1",
            help="Proxies whose X-Forwarded-For/-Proto and X-Request-ID are trusted.",
        )
        parser.add_argument(
            "--drain-file",
            default="",
            help="While this file exists /readyz answers 503 draining (deploy/restart).",
        )
        parser.add_argument(
            "--access-log",
            action="store_true",
            help="uvicorn's own line per request too, at INFO (the site logs one at INFO with "
            "its request id and user already).",
        )

    def handle(self, *args, **options):
        if options["workers"] < 1:
            raise CommandError("--workers must be at least 1.")
        if options["workers"] > 1 and not settings.REDIS_URL:
            raise CommandError(
                "Several workers need REDIS_URL: without it each process has its own "
                "in-memory channel layer and live updates would not reach the others."
            )
        problem = static_problem() or catalogue_problem()
        if problem:
            raise CommandError(problem)
        pending = unapplied_migrations()
        if pending:
            shown = ", ".join(pending[:3]) + (", …" if len(pending) > 3 else "")
            raise CommandError(
                f"{len(pending)} migration(s) not applied ({shown}): run `manage.py migrate` first."
            )
        if not settings.REDIS_URL:
            self.stderr.write(
                "No REDIS_URL: one process only (in-memory channel layer); "
                "a second instance would not see this one's live updates."
            )
        argv = uvicorn_argv(
            host=options["host"],
            port=options["port"],
            workers=options["workers"],
            graceful_timeout=options["graceful_timeout"],
            access_log=options["access_log"],
        )
        hand_to_workers(options)
        # Which release starts, in the journal at any LOG_LEVEL: a rollback's check.
        where = f"{options['host']}:{options['port']}"
        self.stdout.write(f"Momenta Table {release.label()} serving on http://{where}/")
        self.stdout.flush()
        # Nothing of this process is needed any more: close its connections
        # (the pool's too) so PostgreSQL is not left holding them.
        connections.close_all()
        for alias in connections:
            close_pool = getattr(connections[alias], "close_pool", None)
            if close_pool:
                close_pool()
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)

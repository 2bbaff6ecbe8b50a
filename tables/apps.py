from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.core import checks
        from django.utils.translation import gettext

        import rules.errors
        from momenta_site.migration_safety import pending_unsafe
        from tables import login_signals
        from tables.discord.notify import notify
        from tables.live.broadcast import announce, end_session
        from tables.services import publish

        # The rules' refusals are worded in the reader's language when shown.
        rules.errors.translate = gettext
        user_logged_out.connect(end_session, dispatch_uid="tables-end-session")
        login_signals.connect()
        # After each committed event: ring the live doorbell, then queue the Discord post.
        publish.subscribe(announce)
        publish.subscribe(notify)
        # Only with --deploy: it reads the database's applied migrations.
        checks.register(pending_unsafe, deploy=True)

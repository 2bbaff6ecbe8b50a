from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from tables.live.broadcast import end_session

        user_logged_out.connect(end_session, dispatch_uid="tables-end-session")
